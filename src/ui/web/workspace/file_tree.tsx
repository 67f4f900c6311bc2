/**
 * The sidebar's file tree: the workspace's request files, each unfolding to its requests (parsed
 * by the request files' own parser), or, while the sidebar's filter holds text, the matching
 * requests by file. An ARIA tree with one Tab stop and arrow keys, drawn as a flat list of rows
 * of one height (`aria-level`, `aria-posinset`, `aria-setsize` say the structure) of which only
 * those in the sidebar's view are in the page, plus the tree's Tab stop: the first render costs
 * the same for 8 files and for 1,000. A click on a request previews it in a tab, a double click
 * or Enter opens it to keep.
 * @module
 */
import { computed, effect, signal } from "@preact/signals";
import type { JSX } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";
import { postJson, toApiError } from "../api.ts";
import { listFiles, openedFiles, readFile, workspaceFiles } from "./files.ts";
import { runFile } from "./runner.tsx";
import { openRequest, renameSource, tabNote } from "./request_tabs.tsx";
import { findRequests, loadIndex, requestIndex } from "./request_index.ts";
import { openIndexed } from "./quick_open.tsx";

/** Pixels per row (the CSS's `--row-h`): rows never wrap, so positions are arithmetic. */
const ROW_HEIGHT = 24;
/** Rows drawn beyond each edge of the view, so a short scroll shows no gap. */
const OVERSCAN = 8;

/** The files shown unfolded. */
const unfolded = signal<ReadonlySet<string>>(new Set());
/** What the sidebar's filter holds: the tree shows the matching requests only. */
export const treeFilter = signal("");
/** The tree's item that Tab reaches (roving focus): `file:PATH`, `request:PATH#INDEX`… */
const focusKey = signal<string | undefined>(undefined);
/**
 * The rows in the sidebar's view: from `first` to before `last`. None until the tree's first
 * render measures the view (in its layout effect, before the first frame: the page's first
 * layout, which that frame would do anyway), so the first frame draws exactly the rows in view.
 */
const inView = signal({ first: 0, last: 0 });
/** How many rows more than the view's a drawn range may keep before it is drawn anew. */
const SLACK = 2 * OVERSCAN;

/** One row of the tree. */
interface TreeRow {
  /** `file:PATH`, `request:PATH#INDEX` or `error:PATH`. */
  key: string;
  kind: "file" | "request" | "error";
  /** The file the row is (in). */
  path: string;
  /** `aria-level`: 1 for a file, 2 under it. */
  level: 1 | 2;
  /** `aria-posinset` and `aria-setsize`: its place among its siblings. */
  position: number;
  setSize: number;
  /** A file's: whether its requests are shown. */
  open?: boolean;
  /** A request's method; a request's name or URL, or why a file does not parse. */
  method?: string;
  label: string;
  /** A request's: opens it in a tab, as a preview or to keep. */
  choose?: (preview: boolean) => void;
}

/** A file of the tree, with the requests shown under it (unfolded or filtered). */
interface FileEntry {
  path: string;
  open: boolean;
  requests?: Array<Pick<TreeRow, "key" | "method" | "label" | "choose">>;
  error?: string;
}

/** @returns the files, and the requests of the unfolded ones (or of the filter's matches) */
function fileEntries(): FileEntry[] {
  const query = treeFilter.value.trim();
  if (query === "") {
    return workspaceFiles.value.map((path) => {
      const open = unfolded.value.has(path);
      const file = openedFiles.value.get(path);
      if (!open || !file) return { path, open };
      if ("error" in file.parsed) return { path, open, error: file.parsed.error };
      return {
        path,
        open,
        requests: file.parsed.requests.map((request) => ({
          key: `request:${path}#${request.index}`,
          method: request.method,
          label: request.name ?? request.url,
          choose: (preview: boolean) => openRequest(file, request, { preview }),
        })),
      };
    });
  }
  const byFile = new Map<string, NonNullable<FileEntry["requests"]>>();
  for (const found of findRequests(query, requestIndex.value)) {
    const requests = byFile.get(found.path) ?? [];
    requests.push({
      key: `request:${found.path}#${found.index}`,
      method: found.method,
      label: found.name ?? found.url,
      choose: (preview) => void openIndexed(found, { preview }),
    });
    byFile.set(found.path, requests);
  }
  return [...byFile].sort(([a], [b]) => a.localeCompare(b))
    .map(([path, requests]) => ({ path, open: true, requests }));
}

/** The tree's rows in order: each file, then what is shown under it. */
const treeRows = computed((): TreeRow[] => {
  const files = fileEntries();
  const rows: TreeRow[] = [];
  for (const [i, file] of files.entries()) {
    const { path, open, requests = [], error } = file;
    rows.push({
      key: `file:${path}`,
      kind: "file",
      path,
      level: 1,
      position: i + 1,
      setSize: files.length,
      open,
      label: path,
    });
    if (error !== undefined) {
      rows.push({
        key: `error:${path}`,
        kind: "error",
        path,
        level: 2,
        position: 1,
        setSize: 1,
        label: error,
      });
    }
    for (const [j, request] of requests.entries()) {
      rows.push({
        ...request,
        kind: "request",
        path,
        level: 2,
        position: j + 1,
        setSize: requests.length,
      });
    }
  }
  return rows;
});

// A filtered tree follows the files as they change on disk.
effect(() => {
  void workspaceFiles.value;
  void openedFiles.value;
  if (treeFilter.peek() !== "") void loadIndex();
});

/**
 * Shows a file's requests.
 *
 * @param path the file
 */
export function unfold(path: string): void {
  unfolded.value = new Set(unfolded.peek()).add(path);
}

async function toggle(path: string): Promise<void> {
  const next = new Set(unfolded.peek());
  if (next.has(path)) next.delete(path);
  else {
    next.add(path);
    if (!openedFiles.peek().has(path)) await readFile(path).catch(() => {});
  }
  unfolded.value = next;
}

/** Renames a file (its open tabs follow). */
async function rename(path: string): Promise<void> {
  const to = globalThis.prompt(`Rename ${path} to`, path)?.trim();
  if (!to || to === path) return;
  try {
    await postJson("/api/workspace/rename", { path, to });
    renameSource(path, to);
    await listFiles();
    tabNote.value = `Renamed ${path} to ${to}`;
  } catch (error) {
    tabNote.value = `Not renamed: ${toApiError(error).message}`;
  }
}

/** Deletes a file, after asking. */
async function remove(path: string): Promise<void> {
  if (!globalThis.confirm(`Delete ${path}?`)) return;
  try {
    await postJson("/api/workspace/delete", { path });
    await listFiles();
    tabNote.value = `Deleted ${path}`;
  } catch (error) {
    tabNote.value = `Not deleted: ${toApiError(error).message}`;
  }
}

/** @returns the element the tree scrolls in: the sidebar */
function scrollerOf(tree: HTMLElement): HTMLElement {
  return tree.closest<HTMLElement>(".sidebar") ?? tree.parentElement ?? tree;
}

/** Notes which rows are in the sidebar's view (the tree re-renders only when they change). */
function measure(tree: HTMLElement): void {
  const scroller = scrollerOf(tree);
  // How far the view's top is below the tree's top.
  const from = scroller.getBoundingClientRect().top + scroller.clientTop -
    tree.getBoundingClientRect().top;
  const first = Math.max(0, Math.floor(from / ROW_HEIGHT));
  const last = Math.max(0, Math.ceil((from + scroller.clientHeight) / ROW_HEIGHT));
  const now = inView.peek();
  const covered = now.first <= first && last <= now.last &&
    (now.last - now.first) - (last - first) <= SLACK;
  if (!covered) inView.value = { first, last };
}

/** Scrolls the sidebar so the tree's row at `index` is in view. */
function reveal(tree: HTMLElement, index: number): void {
  const scroller = scrollerOf(tree);
  const top = tree.getBoundingClientRect().top - scroller.getBoundingClientRect().top -
    scroller.clientTop + scroller.scrollTop + index * ROW_HEIGHT;
  if (top < scroller.scrollTop) scroller.scrollTop = top;
  else if (top + ROW_HEIGHT > scroller.scrollTop + scroller.clientHeight) {
    scroller.scrollTop = top + ROW_HEIGHT - scroller.clientHeight;
  }
  measure(tree);
}

/**
 * Whether the tree's first frame is painted. From then on, file rows draw their action buttons
 * (▶ ✎ ✕) and the tree draws overscan rows: the first frame shows the files in view (what a
 * launch waits for) with half the elements per row and nothing out of view; the rest comes one
 * frame later.
 */
const painted = signal(false);

/** Set when a key moved the Tab stop to a row not yet drawn: the next render focuses it. */
let focusAfterRender = false;

/** Moves the tree's focus to a row (drawing it first when it is out of view). */
function focusRow(tree: HTMLElement, rows: readonly TreeRow[], index: number): void {
  const row = rows[index];
  if (!row) return;
  focusKey.value = row.key;
  reveal(tree, index);
  const element = tree.querySelector<HTMLElement>(`[data-key="${CSS.escape(row.key)}"]`);
  if (element) element.focus({ preventScroll: true });
  else focusAfterRender = true;
}

/**
 * The tree's keys: arrows move (Right unfolds or enters a file, Left folds or goes to the
 * file), Home and End; Enter opens a request to keep (Space previews it, as a click does);
 * on a file F2 renames, Delete deletes and Shift+Enter runs it.
 */
function onTreeKey(event: KeyboardEvent, tree: HTMLElement): void {
  const current = event.target instanceof HTMLElement ? event.target.closest("[data-key]") : null;
  if (!(current instanceof HTMLElement)) return;
  const rows = treeRows.peek();
  const at = rows.findIndex((r) => r.key === current.dataset.key);
  const row = rows[at];
  if (!row) return;
  const isFile = row.kind === "file";
  const filtering = treeFilter.peek() !== "";
  const move = (index: number) => {
    event.preventDefault();
    focusRow(tree, rows, index);
  };
  switch (event.key) {
    case "ArrowDown":
      return at + 1 < rows.length ? move(at + 1) : undefined;
    case "ArrowUp":
      return at > 0 ? move(at - 1) : undefined;
    case "Home":
      return move(0);
    case "End":
      return move(rows.length - 1);
    case "ArrowRight":
      if (isFile && !row.open && !filtering) {
        event.preventDefault();
        void toggle(row.path);
      } else if (isFile && rows[at + 1]?.level === 2) move(at + 1);
      return;
    case "ArrowLeft":
      if (isFile && row.open && !filtering) {
        event.preventDefault();
        void toggle(row.path);
      } else if (!isFile) move(rows.findIndex((r) => r.key === `file:${row.path}`));
      return;
    case "Enter":
      if (isFile && event.shiftKey) {
        event.preventDefault();
        void runFile(row.path);
      } else if (row.choose && !event.ctrlKey && !event.metaKey) {
        // Enter keeps the tab; a click or Space previews.
        event.preventDefault();
        row.choose(false);
      }
      return;
    case "F2":
      if (isFile) {
        event.preventDefault();
        void rename(row.path);
      }
      return;
    case "Delete":
      if (isFile) {
        event.preventDefault();
        void remove(row.path);
      }
      return;
  }
}

/** @returns the request files and their requests: an ARIA tree with one Tab stop */
export function FileTree(): JSX.Element {
  const tree = useRef<HTMLUListElement>(null);
  const rows = treeRows.value;
  const filtering = treeFilter.value.trim() !== "";
  const stop = Math.max(0, rows.findIndex((r) => r.key === focusKey.value));
  const { first, last } = inView.value;
  const overscan = painted.value ? OVERSCAN : 0;
  const from = Math.max(0, first - overscan);
  const to = Math.min(rows.length, last + overscan);
  // The rows in view, and the Tab stop wherever it is (Tab must reach it; focus stays on it).
  const drawn = [
    ...(stop < from ? [stop] : []),
    ...range(from, to),
    ...(stop >= to && stop < rows.length ? [stop] : []),
  ];

  useLayoutEffect(() => {
    const element = tree.current;
    if (!element) return;
    const scroller = scrollerOf(element);
    const onScroll = () => measure(element);
    // The rows in view, before the first frame (its layout is the page's first: the tree's top
    // is known only then).
    measure(element);
    // The first frame's callbacks run before its paint; the second's, after it.
    requestAnimationFrame(() => requestAnimationFrame(() => painted.value = true));
    scroller.addEventListener("scroll", onScroll, { passive: true });
    // Also the view's first measure: a ResizeObserver is called after the frame's layout.
    const observer = new ResizeObserver(onScroll);
    observer.observe(scroller);
    observer.observe(element);
    return () => {
      scroller.removeEventListener("scroll", onScroll);
      observer.disconnect();
    };
  }, []);
  useLayoutEffect(() => {
    const element = tree.current;
    // What is above the tree may grow or shrink by a few rows: the drawn rows' overscan covers
    // it until the next scroll or resize measures the view again.
    if (!element || !focusAfterRender) return;
    // One try: the render after a key moved the Tab stop draws it (the Tab stop always is).
    focusAfterRender = false;
    const key = focusKey.peek();
    const row = key ? element.querySelector<HTMLElement>(`[data-key="${CSS.escape(key)}"]`) : null;
    row?.focus({ preventScroll: true });
  });

  return (
    <>
      {filtering && rows.length === 0 && <p class="muted" role="status">No request matches</p>}
      <ul
        role="tree"
        aria-label="Request files"
        class="file-tree"
        ref={tree}
        style={{ height: `${rows.length * ROW_HEIGHT}px` }}
        onKeyDown={(e) => tree.current && onTreeKey(e, tree.current)}
        onClick={onTreeEvent}
        onDblClick={onTreeEvent}
        onFocusIn={onTreeEvent}
      >
        {drawn.map((index) => row(rows[index]!, index * ROW_HEIGHT, index === stop))}
      </ul>
    </>
  );
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
}

/** A file row's actions: `data-action` → what a click on it does to the file. */
const ACTIONS = {
  run: (path: string) => void runFile(path),
  rename: (path: string) => void rename(path),
  remove: (path: string) => void remove(path),
} as const;

/**
 * The tree's clicks, double clicks and focus, for every row at once (one listener each on the
 * tree, not on each row's buttons): the row is found by the element's `data-key`.
 */
function onTreeEvent(event: Event): void {
  const target = event.target instanceof Element ? event.target : null;
  const element = target?.closest<HTMLElement>("[data-action], [data-key]");
  if (!element) return;
  const action = element.dataset.action as keyof typeof ACTIONS | undefined;
  const path = element.closest<HTMLElement>("[data-path]")?.dataset.path;
  if (action) {
    if (event.type === "click" && path !== undefined) ACTIONS[action](path);
    return;
  }
  const key = element.dataset.key;
  if (event.type === "focusin") {
    focusKey.value = key;
    return;
  }
  const row = treeRows.peek().find((r) => r.key === key);
  if (!row) return;
  if (row.kind === "file" && event.type === "click" && treeFilter.peek().trim() === "") {
    void toggle(row.path);
  } else if (row.choose && event.type === "click") row.choose(true);
  else if (row.choose && event.type === "dblclick") row.choose(false);
}

/**
 * @returns a row of the tree: a file (its name folds it; its actions, from the second frame),
 *   a request, an error. Plain elements without listeners of their own (the tree's
 *   {@link onTreeEvent} has them; a file's arrow is the style sheet's): a row costs its
 *   elements only.
 */
function row(row: TreeRow, top: number, tabStop: boolean): JSX.Element {
  const focusable = { "data-key": row.key, tabIndex: tabStop ? 0 : -1 };
  return (
    <li
      key={row.key}
      role="treeitem"
      aria-level={row.level}
      aria-posinset={row.position}
      aria-setsize={row.setSize}
      aria-expanded={row.kind === "file" ? row.open : undefined}
      class={`tree-row level-${row.level}`}
      style={{ top: `${top}px` }}
      data-path={row.path}
    >
      {row.kind === "file" && (
        <>
          <button type="button" class="file" {...focusable} aria-expanded={row.open}>
            {row.path}
          </button>
          {painted.value && fileActions(row.path)}
        </>
      )}
      {row.kind === "request" && (
        <button
          type="button"
          class="request"
          {...focusable}
          title="Click: preview; double-click or Enter: open to keep"
        >
          <span class="method">{row.method}</span> {row.label}
        </button>
      )}
      {row.kind === "error" && (
        <span class="error" {...focusable} title={row.label}>{row.label}</span>
      )}
    </li>
  );
}

/** A file row's actions: `data-action`, the label's verb, the title and the glyph. */
const FILE_ACTIONS = [
  ["run", "Run", "Run its requests in order, with their tests (Shift+Enter)", "▶"],
  ["rename", "Rename", "Rename the file (F2)", "✎"],
  ["remove", "Delete", "Delete the file (Delete)", "✕"],
] as const;

/** @returns a file's actions (out of the Tab order: the tree's keys do the same) */
function fileActions(path: string): JSX.Element {
  return (
    <>
      {FILE_ACTIONS.map(([action, verb, title, glyph]) => (
        <button
          type="button"
          class="icon"
          tabIndex={-1}
          key={action}
          data-action={action}
          aria-label={`${verb} ${path}`}
          title={title}
        >
          {glyph}
        </button>
      ))}
    </>
  );
}
