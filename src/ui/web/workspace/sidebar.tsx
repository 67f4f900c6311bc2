/**
 * The workspace sidebar: the request files of the `dial ui` folder, each unfolding to its
 * requests (parsed by the request files' own parser); a click opens a request in a tab. Files
 * changed on disk are read again (`files.ts`); "Save as" adds the active tab's request to a
 * file, new or existing.
 * @module
 */
import { Form } from "../fields.tsx";
import { effect, signal } from "@preact/signals";
import type { JSX } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { appendRequest } from "../../../files/write_http_file.ts";
import { postJson, toApiError } from "../api.ts";
import { currentDraft } from "../http/http_tab.tsx";
import {
  listFiles,
  openedFiles,
  readFile,
  watchFiles,
  watching,
  workspaceError,
  workspaceFiles,
  workspaceRoot,
  writeFile,
} from "./files.ts";
import { writeDraft } from "./request_edit.ts";
import { EnvironmentPicker } from "./environments.tsx";
import { runFile } from "./runner.tsx";
import { CookieJarView } from "./cookies.tsx";
import { ConnectionView } from "./connection.tsx";
import { openRequest, renameSource, tabNote } from "./request_tabs.tsx";
import { adoptSource, kindRequestText, noteKind } from "./kind_requests.ts";
import { dropTarget, ImportControls, isDropping } from "./import_drop.tsx";
import { selectedTab } from "../main_tab.ts";
import { findRequests, loadIndex, requestIndex } from "./request_index.ts";
import { refillShownKindTabs } from "./kind_tabs.tsx";
import { openIndexed } from "./quick_open.tsx";

const unfolded = signal<ReadonlySet<string>>(new Set());
const saveAsOpen = signal(false);
const saveAsFile = signal("requests.http");
const saveAsName = signal("");

async function toggle(path: string): Promise<void> {
  const next = new Set(unfolded.peek());
  if (next.has(path)) next.delete(path);
  else {
    next.add(path);
    if (!openedFiles.peek().has(path)) await readFile(path).catch(() => {});
  }
  unfolded.value = next;
}

/** "Save as": appends the shown tab's request to a file (created when new). */
async function saveAs(): Promise<void> {
  const path = saveAsFile.peek().trim();
  const name = saveAsName.peek().trim();
  const shown = selectedTab.peek();
  const kind = shown === "graphql" || shown === "ws" || shown === "sse" || shown === "grpc"
    ? shown
    : undefined;
  const say = (text: string) => kind ? noteKind(kind, text) : tabNote.value = text;
  try {
    const text = kind
      ? kindRequestText(kind, path, name || undefined)
      : writeDraft(currentDraft.peek(), name || undefined);
    const exists = workspaceFiles.peek().includes(path);
    const file = exists ? await readFile(path) : undefined;
    const written = await writeFile(
      path,
      file ? appendRequest(file.text, text) : text,
      file?.mtime,
    );
    saveAsOpen.value = false;
    unfolded.value = new Set(unfolded.peek()).add(path);
    if (!("error" in written.parsed)) {
      const added = written.parsed.requests.at(-1);
      if (added && kind) adoptSource(kind, written, added);
      else if (added) openRequest(written, added);
    }
    say(`Saved to ${path}`);
  } catch (error) {
    say(`Not saved: ${toApiError(error).message}`);
  }
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

/** What the sidebar's filter holds: the tree shows the matching requests only. */
const treeFilter = signal("");
/** The tree's item that Tab reaches (roving focus): `file:PATH` or `request:PATH#INDEX`. */
const focusKey = signal<string | undefined>(undefined);

// A filtered tree follows the files as they change on disk.
effect(() => {
  void workspaceFiles.value;
  void openedFiles.value;
  if (treeFilter.peek() !== "") void loadIndex();
});

/** A request row of the tree. */
interface RequestRow {
  key: string;
  method: string;
  label: string;
  open: (preview: boolean) => void;
}

/** The tree's rows: each file, and the requests of the unfolded (or filtered) ones. */
function treeRows(): FileRow[] {
  const query = treeFilter.value.trim();
  if (query !== "") {
    const byFile = new Map<string, RequestRow[]>();
    for (const found of findRequests(query, requestIndex.value)) {
      const rows = byFile.get(found.path) ?? [];
      rows.push({
        key: `request:${found.path}#${found.index}`,
        method: found.method,
        label: found.name ?? found.url,
        open: (preview) => void openIndexed(found, { preview }),
      });
      byFile.set(found.path, rows);
    }
    return [...byFile].sort(([a], [b]) => a.localeCompare(b)).map(([path, requests]) => ({
      path,
      open: true,
      requests,
    }));
  }
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
        open: (preview: boolean) => openRequest(file, request, { preview }),
      })),
    };
  });
}

/**
 * The tree's keys: arrows move (Right unfolds or enters a file, Left folds or goes to the
 * file), Home and End; Enter opens a request to keep (Space previews it, as a click does);
 * on a file F2 renames, Delete deletes and Shift+Enter runs it.
 */
function onTreeKey(event: KeyboardEvent, tree: HTMLElement): void {
  const items = [...tree.querySelectorAll<HTMLElement>("[data-key]")];
  const current = event.target instanceof HTMLElement ? event.target.closest("[data-key]") : null;
  if (!(current instanceof HTMLElement)) return;
  const at = items.indexOf(current);
  const key = current.dataset.key!;
  const path = current.dataset.path!;
  const isFile = key.startsWith("file:");
  const expanded = current.getAttribute("aria-expanded") === "true";
  const focus = (item: HTMLElement | undefined) => {
    if (!item) return;
    event.preventDefault();
    focusKey.value = item.dataset.key;
    item.focus();
  };
  switch (event.key) {
    case "ArrowDown":
      return focus(items[at + 1]);
    case "ArrowUp":
      return focus(items[at - 1]);
    case "Home":
      return focus(items[0]);
    case "End":
      return focus(items.at(-1));
    case "ArrowRight":
      if (isFile && !expanded && treeFilter.peek() === "") {
        event.preventDefault();
        void toggle(path);
      } else if (isFile) {
        focus(items[at + 1]?.dataset.key?.startsWith("request:") ? items[at + 1] : undefined);
      }
      return;
    case "ArrowLeft":
      if (isFile && expanded && treeFilter.peek() === "") {
        event.preventDefault();
        void toggle(path);
      } else if (!isFile) focus(items.find((i) => i.dataset.key === `file:${path}`));
      return;
    case "Enter":
      if (isFile && event.shiftKey) {
        event.preventDefault();
        void runFile(path);
      } else if (!isFile && !event.ctrlKey && !event.metaKey) {
        // Enter keeps the tab; a click or Space previews.
        event.preventDefault();
        current.dispatchEvent(new MouseEvent("dblclick", { bubbles: true }));
      }
      return;
    case "F2":
      if (isFile) {
        event.preventDefault();
        void rename(path);
      }
      return;
    case "Delete":
      if (isFile) {
        event.preventDefault();
        void remove(path);
      }
      return;
  }
}

/** A file of the tree, with the requests shown under it (unfolded or filtered). */
interface FileRow {
  path: string;
  open: boolean;
  requests?: RequestRow[];
  error?: string;
}

/** @returns the request files and their requests: an ARIA tree with one Tab stop */
function FileTree(): JSX.Element {
  const tree = useRef<HTMLUListElement>(null);
  const rows = treeRows();
  const keys = rows.flatMap((r) => [`file:${r.path}`, ...(r.requests ?? []).map((q) => q.key)]);
  const tabStop = focusKey.value !== undefined && keys.includes(focusKey.value)
    ? focusKey.value
    : keys[0];
  const filtering = treeFilter.value.trim() !== "";
  return (
    <>
      {filtering && rows.length === 0 && <p class="muted" role="status">No request matches</p>}
      <ul
        role="tree"
        aria-label="Request files"
        ref={tree}
        onKeyDown={(e) => tree.current && onTreeKey(e, tree.current)}
      >
        {rows.map((row) => (
          <FileItem key={row.path} row={row} tabStop={tabStop} filtering={filtering} />
        ))}
      </ul>
    </>
  );
}

/** @returns a file of the tree: its name (folds), its actions, its requests */
function FileItem(
  props: { row: FileRow; tabStop: string | undefined; filtering: boolean },
): JSX.Element {
  const { path, open, requests, error } = props.row;
  return (
    <li role="treeitem" aria-expanded={open} aria-level={1}>
      <span class="file-row">
        <button
          type="button"
          class="file"
          data-key={`file:${path}`}
          data-path={path}
          aria-expanded={open}
          tabIndex={props.tabStop === `file:${path}` ? 0 : -1}
          onFocus={() => focusKey.value = `file:${path}`}
          onClick={() => !props.filtering && void toggle(path)}
        >
          <span aria-hidden="true">{open ? "▾ " : "▸ "}</span>
          {path}
        </button>
        <FileAction
          label={`Run ${path}`}
          title="Run its requests in order, with their tests (Shift+Enter)"
          icon="▶"
          onClick={() => void runFile(path)}
        />
        <FileAction
          label={`Rename ${path}`}
          title="Rename the file (F2)"
          icon="✎"
          onClick={() => void rename(path)}
        />
        <FileAction
          label={`Delete ${path}`}
          title="Delete the file (Delete)"
          icon="✕"
          onClick={() => void remove(path)}
        />
      </span>
      {error && <p class="error">{error}</p>}
      {requests && (
        <ul role="group">
          {requests.map((request) => (
            <li key={request.key} role="treeitem" aria-level={2}>
              <button
                type="button"
                class="request"
                data-key={request.key}
                data-path={path}
                tabIndex={props.tabStop === request.key ? 0 : -1}
                title="Click: preview; double-click or Enter: open to keep"
                onFocus={() => focusKey.value = request.key}
                onClick={() => request.open(true)}
                onDblClick={() => request.open(false)}
              >
                <span class="method">{request.method}</span> {request.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

/** @returns a file's action button (out of the Tab order: the tree's keys do the same) */
function FileAction(
  props: { label: string; title: string; icon: string; onClick: () => void },
): JSX.Element {
  return (
    <button
      type="button"
      class="icon"
      tabIndex={-1}
      aria-label={props.label}
      title={props.title}
      onClick={props.onClick}
    >
      {props.icon}
    </button>
  );
}

/** @returns the sidebar */
export function Sidebar(): JSX.Element {
  useEffect(() => {
    void listFiles();
    void watchFiles();
    refillShownKindTabs();
  }, []);
  return (
    <nav
      class={isDropping.value ? "sidebar dropping" : "sidebar"}
      aria-label="Workspace"
      hidden={!workspaceRoot.value}
      data-watching={watching.value}
      {...dropTarget}
    >
      <h2 title={workspaceRoot.value}>Workspace</h2>
      <EnvironmentPicker />
      {workspaceError.value && workspaceRoot.value && <p class="error">{workspaceError.value}</p>}
      {workspaceFiles.value.length === 0 && !workspaceError.value && (
        <p class="muted">No .http files in this folder yet: use Save as.</p>
      )}
      <input
        type="search"
        class="tree-filter"
        aria-label="Filter requests"
        placeholder="Filter requests (Ctrl+P: open)"
        value={treeFilter.value}
        onInput={(e) => {
          treeFilter.value = e.currentTarget.value;
          if (treeFilter.peek() !== "") void loadIndex();
        }}
      />
      <FileTree />
      <button type="button" onClick={() => saveAsOpen.value = !saveAsOpen.value}>
        Save as…
      </button>
      <ImportControls />
      <CookieJarView />
      <ConnectionView />
      {saveAsOpen.value && <SaveAsForm />}
    </nav>
  );
}

/** @returns Save as: the file (a new or an existing one) and the request's name */
function SaveAsForm(): JSX.Element {
  return (
    <Form class="save-as" onSubmit={() => void saveAs()}>
      <label>
        File
        <input
          value={saveAsFile.value}
          list="workspace-files"
          onInput={(e) => saveAsFile.value = e.currentTarget.value}
        />
      </label>
      <datalist id="workspace-files">
        {workspaceFiles.value.map((p) => <option key={p} value={p} />)}
      </datalist>
      <label>
        Request name
        <input
          value={saveAsName.value}
          onInput={(e) => saveAsName.value = e.currentTarget.value}
        />
      </label>
      <button type="submit" class="primary">Save</button>
    </Form>
  );
}
