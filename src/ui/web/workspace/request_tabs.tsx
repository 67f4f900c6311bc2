/**
 * Request tabs over the HTTP tab: several requests open at once, each remembering its fields
 * and its last response. The HTTP tab shows the active one; switching stores its view and shows
 * the other's. A tab opened from a `.http` file saves back into that file in place (Ctrl/Cmd+S)
 * and reloads when the file changes on disk while it has no unsaved edits. The list of tabs
 * (without responses, credential-named values blanked) is remembered with the drafts.
 * @module
 */
import { batch, computed, effect, signal } from "@preact/signals";
import type { JSX } from "preact";
import type { HttpRequest } from "../../../files/http_file_types.ts";
import { currentDraft, currentView, type HttpView, showView } from "../http/http_tab.tsx";
import { isString, persisted } from "../storage.ts";
import { emptySlots, notKept, refillDraft, typedSecrets, withheldDraft } from "./draft_secrets.ts";
import {
  findRequest,
  freeName,
  onFileRead,
  type OpenedFile,
  readFile,
  type RequestPlace,
  workspaceRoot,
  writeFile,
} from "./files.ts";
import { kindSources, openKindRequest } from "./kind_requests.ts";
import { renameKindTabs } from "./kind_tabs.tsx";
import {
  draftOfRequest,
  type HttpDraft,
  requestText,
  saveInPlace,
  writeOver,
} from "./request_edit.ts";
import { appendRequest } from "../../../files/write_http_file.ts";
import { isRecord, toApiError } from "../api.ts";
import { selectedTab } from "../main_tab.ts";
import { TabList } from "./tab_list.tsx";

/** Where a tab's request lives. */
export type RequestSource = RequestPlace;

/** One request tab. */
export interface RequestTab {
  id: string;
  title: string;
  source?: RequestSource;
  /** The fields as last loaded from or saved to the file (for "unsaved"). */
  saved?: HttpDraft;
  /** Its view while another tab is shown. */
  view?: HttpView;
  /** Stored only: the slots of `saved` whose literal credential values were withheld. */
  savedWithheld?: string[];
  /** Stored only: the slots of `view` whose literal credential values were withheld. */
  viewWithheld?: string[];
  /**
   * Stored only: those of them the tab changed from its file's (typed): restored, they stay
   * blank and the tab says so, instead of taking the file's value silently.
   */
  viewTyped?: string[];
  /** What restoring it said (a withheld value its file could not give back). */
  note?: string;
  /** A preview (a single click in the sidebar): the next preview replaces it until edited. */
  preview?: boolean;
  /**
   * The keyed digest of its request's text when `saved` was last set from the file (stored:
   * a restored tab tells an edit of its request made on disk while `dial ui` was closed).
   */
  baseDigest?: string | undefined;
  /** In memory: restored, and its request changed on disk since; its next save conflicts. */
  changedOnDisk?: boolean;
}

/**
 * @param file a request file as the server read or wrote it
 * @param request one of its requests
 * @returns a tab's base from it: its fields, and its text's keyed digest
 */
function fileBase(
  file: OpenedFile,
  request: HttpRequest,
): Pick<RequestTab, "saved" | "baseDigest" | "changedOnDisk"> {
  return {
    saved: draftOfRequest(request),
    baseDigest: file.digests[request.index],
    changedOnDisk: false,
  };
}

const EMPTY: HttpDraft = {
  method: "GET",
  url: "",
  headers: [],
  bodyKind: "none",
  body: "",
  form: [],
};

function isTabs(value: unknown): value is RequestTab[] {
  return Array.isArray(value) &&
    value.every((t) => isRecord(t) && isString(t.id) && isString(t.title));
}

/**
 * The tabs loaded from storage and not restored yet ({@link restoreTabs}): they are still in
 * their stored form (all of them while the list is being loaded).
 */
const pending = { loading: true, ids: new Set<string>() };
/** Whether the loaded tabs have been restored: until then the shown fields are the stored. */
const restored = signal(false);
/** The id of the shown tab, once known (read by {@link forStorage}, so it follows it). */
let shownId: () => string | undefined = () => undefined;

/**
 * Stored without responses. A tab is its text: `{{…}}` references are kept verbatim; literal
 * credential values are withheld (and named, so that a restored tab takes them back from its
 * file). A tab from a file without unsaved edits is stored as its place only: restored, it is
 * its file. The shown tab is stored with its fields as they are now.
 */
function forStorage(tabs: RequestTab[]): RequestTab[] {
  const shown = restored.value ? shownId() : undefined;
  const current = shown === undefined ? undefined : currentDraft.value;
  return tabs.map((tab) => {
    if (pending.loading || pending.ids.has(tab.id)) return tab;
    const {
      view,
      saved,
      note: _,
      savedWithheld: _s,
      viewWithheld: _v,
      viewTyped: _t,
      changedOnDisk: _c,
      ...place
    } = tab;
    const draft = tab.id === shown ? current : view?.draft;
    if (place.source && (draft === undefined || sameDraft(saved, draft))) return place;
    const stored: RequestTab = place;
    if (saved) {
      const base = withheldDraft(saved);
      stored.saved = base.draft;
      if (base.withheld.length > 0) stored.savedWithheld = base.withheld;
    }
    if (draft) {
      const edit = withheldDraft(draft);
      stored.view = { draft: edit.draft };
      if (edit.withheld.length > 0) stored.viewWithheld = edit.withheld;
      // Changed from the file's and withheld now, or left blank by an earlier reload.
      const blank = new Set(emptySlots(draft));
      const typed = saved
        ? typedSecrets(draft, saved).filter((slot) =>
          edit.withheld.includes(slot) || blank.has(slot)
        )
        : [];
      if (typed.length > 0) stored.viewTyped = typed;
    }
    return stored;
  });
}

/** The open request tabs, in order. */
export const requestTabs = persisted<RequestTab[]>(
  "tabs.open",
  [{ id: "t1", title: "Untitled" }],
  isTabs,
  forStorage,
);
for (const tab of requestTabs.peek()) pending.ids.add(tab.id);
pending.loading = false;
/** The id of the tab the HTTP tab shows. */
export const activeTab = persisted("tabs.active", requestTabs.peek()[0]!.id, isString);
shownId = () => activeTab.value;
/** What the last save or reload said. */
export const tabNote = signal<string | undefined>(undefined);

const active = computed(() => requestTabs.value.find((t) => t.id === activeTab.value));
/** The file and request the active tab comes from, if any. */
export const activeSource = computed(() => active.value?.source);

let counter = Math.max(0, ...requestTabs.peek().map((t) => Number(t.id.slice(1)) || 0));

/**
 * Shows another tab: the active one's view is kept in it.
 *
 * @param id the tab to show
 */
export function switchTab(id: string): void {
  if (id === activeTab.peek()) return;
  const view = currentView();
  const target = requestTabs.peek().find((t) => t.id === id);
  if (!target) return;
  // At once: the tab and its fields change together ("unsaved" never sees one without the other).
  batch(() => {
    requestTabs.value = requestTabs.peek().map((t) =>
      t.id === activeTab.peek() ? { ...t, view } : t
    );
    activeTab.value = id;
    showView(target.view ?? { draft: target.saved ?? EMPTY });
    tabNote.value = target.note;
  });
}

/**
 * Restores the tabs loaded from storage: a tab from a file without unsaved edits is read from
 * its file (verbatim, as it is now); a tab with unsaved edits gets its withheld credential
 * values back from its file, and says which ones its file has no value for. The shown tab is
 * shown again with its restored fields.
 *
 * @returns when done
 */
export async function restoreTabs(): Promise<void> {
  const files = new Map<string, Promise<OpenedFile | undefined>>();
  const fileOf = (path: string) => {
    if (!files.has(path)) files.set(path, readFile(path).catch(() => undefined));
    return files.get(path)!;
  };
  const loaded = requestTabs.peek().filter((t) => pending.ids.has(t.id));
  const again = new Map<string, RequestTab>();
  for (const tab of loaded) {
    const file = tab.source ? await fileOf(tab.source.path) : undefined;
    const request = file && tab.source ? findRequest(file, tab.source) : undefined;
    const fromFile = request ? draftOfRequest(request) : undefined;
    const { savedWithheld = [], viewWithheld = [], viewTyped = [], ...rest } = tab;
    if (tab.source && fromFile && !tab.view) {
      again.set(tab.id, { ...rest, ...fileBase(file!, request!), view: { draft: fromFile } });
      continue;
    }
    // Its request changed on disk since its base (while closed): only the digest tells.
    const changedOnDisk = file !== undefined && request !== undefined &&
      tab.baseDigest !== undefined && file.digests[request.index] !== tab.baseDigest;
    const saved = tab.saved ? refillDraft(tab.saved, savedWithheld, fromFile).draft : fromFile;
    // A value typed over the file's is not the file's to give back: it stays blank.
    const typedSlots = Array.isArray(viewTyped) ? viewTyped.filter(isString) : [];
    const typed = new Set(typedSlots);
    const refillable = viewWithheld.filter((slot) => !typed.has(slot));
    const view = tab.view ? refillDraft(tab.view.draft, refillable, fromFile) : undefined;
    const missing = view ? [...view.missing, ...typedSlots] : [];
    const notes = [
      ...(changedOnDisk ? [`${file!.path} changed on disk; your edits are kept`] : []),
      ...(missing.length > 0 ? [notKept(missing)] : []),
    ];
    again.set(tab.id, {
      ...rest,
      ...(saved ? { saved } : {}),
      ...(view ? { view: { draft: view.draft } } : {}),
      ...(changedOnDisk ? { changedOnDisk } : {}),
      ...(notes.length > 0 ? { note: notes.join(". ") } : {}),
    });
  }
  pending.ids.clear();
  batch(() => {
    requestTabs.value = requestTabs.peek().map((t) => again.get(t.id) ?? t);
    const shown = again.get(activeTab.peek());
    if (shown?.view) {
      showView(shown.view);
      tabNote.value = shown.note;
    }
    restored.value = true;
  });
}

/**
 * Points the tabs of a renamed file at its new name.
 *
 * @param from the old path
 * @param to the new path
 */
export function renameSource(from: string, to: string): void {
  requestTabs.value = requestTabs.peek().map((t) =>
    t.source?.path === from ? { ...t, source: { ...t.source, path: to } } : t
  );
  kindSources.value = Object.fromEntries(
    Object.entries(kindSources.peek()).map(([kind, place]) => [
      kind,
      place.path === from ? { ...place, path: to } : place,
    ]),
  );
  renameKindTabs(from, to);
}

/** Opens an empty tab. */
export function newTab(): void {
  const id = `t${++counter}`;
  requestTabs.value = [...requestTabs.peek(), { id, title: "Untitled", view: { draft: EMPTY } }];
  switchTab(id);
}

/**
 * Closes a tab (the last one is emptied instead).
 *
 * @param id the tab
 */
export function closeTab(id: string): void {
  const tabs = requestTabs.peek();
  const at = tabs.findIndex((t) => t.id === id);
  if (at < 0) return;
  if (tabs.length === 1) {
    requestTabs.value = [{ id: tabs[0]!.id, title: "Untitled" }];
    showView({ draft: EMPTY });
    return;
  }
  if (id === activeTab.peek()) switchTab(tabs[at + 1]?.id ?? tabs[at - 1]!.id);
  requestTabs.value = requestTabs.peek().filter((t) => t.id !== id);
}

/**
 * @param step +1 for the next tab, -1 for the previous
 */
export function cycleTab(step: number): void {
  const tabs = requestTabs.peek();
  const at = tabs.findIndex((t) => t.id === activeTab.peek());
  switchTab(tabs[(at + step + tabs.length) % tabs.length]!.id);
}

function titleOf(request: HttpRequest): string {
  return request.name ?? `${request.method} ${request.url}`;
}

/**
 * Opens a request of a file in a tab (or shows the tab that has it).
 *
 * @param file the file
 * @param request one of its requests
 */
export function openRequest(
  file: OpenedFile,
  request: HttpRequest,
  options: { preview?: boolean } = {},
): void {
  if (openKindRequest(file, request)) return;
  selectedTab.value = "http";
  const tabs = requestTabs.peek();
  const found = tabs.find((t) => t.source?.path === file.path && t.source.index === request.index);
  if (found) {
    if (!options.preview && found.preview) keepTab(found.id);
    return switchTab(found.id);
  }
  const id = `t${++counter}`;
  const draft = draftOfRequest(request);
  const tab: RequestTab = {
    id,
    title: titleOf(request),
    source: {
      path: file.path,
      index: request.index,
      ...(request.name ? { name: request.name } : {}),
    },
    ...fileBase(file, request),
    view: { draft },
    ...(options.preview ? { preview: true } : {}),
  };
  // A preview takes the place of the previous preview (one without unsaved edits).
  const old = options.preview ? tabs.find((t) => t.preview && !isUnsaved(t)) : undefined;
  const at = old ? tabs.indexOf(old) + 1 : tabs.length;
  requestTabs.value = [...tabs.slice(0, at), tab, ...tabs.slice(at)];
  switchTab(id);
  if (old) requestTabs.value = requestTabs.peek().filter((t) => t.id !== old.id);
}

/**
 * Keeps a preview tab: the next preview opens beside it.
 *
 * @param id the tab
 */
export function keepTab(id: string): void {
  if (!requestTabs.peek().some((t) => t.id === id && t.preview)) return;
  requestTabs.value = requestTabs.peek().map((t) => {
    if (t.id !== id) return t;
    const { preview: _, ...kept } = t;
    return kept;
  });
}

/** A draft as compared: an attached file by its name, not its bytes. */
function comparable(draft: HttpDraft): string {
  return JSON.stringify({
    ...draft,
    form: draft.form.map((r) => [r.name, r.value, r.enabled, r.file?.name ?? null]),
  });
}

function sameDraft(a: HttpDraft | undefined, b: HttpDraft): boolean {
  return a !== undefined && comparable(a) === comparable(b);
}

/** Whether the active tab has edits its file does not have. */
export const unsaved = computed(() => {
  const tab = active.value;
  return tab?.source !== undefined && !sameDraft(tab.saved, currentDraft.value);
});

/**
 * @param tab a tab
 * @returns whether it has edits its file does not have (the shown one: as it is now)
 */
function isUnsaved(tab: RequestTab): boolean {
  if (tab.id === activeTab.value) return unsaved.value;
  return tab.source !== undefined && tab.view !== undefined &&
    !sameDraft(tab.saved, tab.view.draft);
}

/**
 * A save that found the request changed on disk (or gone) since the tab was opened: both
 * versions, until the person chooses.
 */
export interface SaveConflict {
  tabId: string;
  path: string;
  /** The request as the file has it now; none when it is no longer there. */
  theirs?: string;
  /** The request as the tab would write it. */
  mine: string;
}

/** The save conflict shown, if any. */
export const saveConflict = signal<SaveConflict | undefined>(undefined);

/** How a save goes on after a conflict: the person's explicit choice. */
export type ConflictChoice = "overwrite" | "keep-both";

/**
 * Ctrl/Cmd+S: writes the active tab's request back into its file, in place, only if the
 * request is still as it was when the tab was opened (or last saved): a compare-and-swap. When
 * it changed on disk, nothing is written and both versions are shown ({@link saveConflict})
 * until the person chooses to overwrite, to keep both (the tab's request added to the file
 * under a new name), or to take the file's.
 *
 * @param choice the person's choice after a conflict
 */
export async function saveActiveTab(choice?: ConflictChoice): Promise<void> {
  await restoring;
  const tab = active.peek();
  if (!tab?.source) {
    tabNote.value = "This tab is not from a file: use Save as";
    return;
  }
  const source = tab.source;
  try {
    const file = await readFile(source.path);
    const request = findRequest(file, source);
    const draft = currentView().draft;
    const changed = !request || tab.changedOnDisk === true ||
      !sameDraft(tab.saved, draftOfRequest(request));
    if (changed && choice === undefined) {
      saveConflict.value = {
        tabId: tab.id,
        path: file.path,
        ...(request ? { theirs: requestText(file.text, request) } : {}),
        mine: writeOver(file.text, request, draft),
      };
      tabNote.value = request
        ? `Not saved: ${file.path} changed this request on disk since the tab was opened`
        : `Not saved: the request is no longer in ${file.path}`;
      return;
    }
    if (!request || choice === "keep-both") {
      const name = freeName(file, `${source.name ?? "request"}-mine`);
      const written = await writeFile(
        file.path,
        appendRequest(file.text, writeOver(file.text, request, draft, { name })),
        file.mtime,
      );
      const added = "error" in written.parsed ? undefined : written.parsed.requests.at(-1);
      requestTabs.value = requestTabs.peek().map((t) =>
        t.id === tab.id && added
          ? {
            ...t,
            title: name,
            source: { path: file.path, index: added.index, name },
            ...fileBase(written, added),
          }
          : t
      );
      saveConflict.value = undefined;
      tabNote.value = `Saved to ${file.path} as a new request, ${name}`;
      return;
    }
    const written = await writeFile(file.path, saveInPlace(file.text, request, draft), file.mtime);
    const again = findRequest(written, source);
    requestTabs.value = requestTabs.peek().map((t) =>
      t.id === tab.id
        ? {
          ...t,
          ...(again ? fileBase(written, again) : { saved: draft }),
          ...(again ? { source: { ...source, index: again.index } } : {}),
        }
        : t
    );
    saveConflict.value = undefined;
    tabNote.value = `Saved to ${file.path}`;
  } catch (error) {
    tabNote.value = `Not saved: ${toApiError(error).message}`;
  }
}

/** After a conflict: drops the tab's edits and shows the request as its file has it now. */
export async function takeTheirs(): Promise<void> {
  const tab = active.peek();
  saveConflict.value = undefined;
  if (!tab?.source) return;
  try {
    const file = await readFile(tab.source.path);
    const request = findRequest(file, tab.source);
    if (!request) return;
    const draft = draftOfRequest(request);
    requestTabs.value = requestTabs.peek().map((t) =>
      t.id === tab.id ? { ...t, ...fileBase(file, request), view: { draft } } : t
    );
    showView({ draft });
    tabNote.value = `Reloaded from ${file.path}: your edits were dropped`;
  } catch (error) {
    tabNote.value = toApiError(error).message;
  }
}

/**
 * @param props the request's text on disk and in the tab
 * @returns the two versions of a conflicting save side by side
 */
function ConflictVersions(props: { theirs: string; mine: string }): JSX.Element {
  return (
    <div class="conflict-versions">
      <div>
        <h3>On disk</h3>
        <pre aria-label="On disk">{props.theirs}</pre>
      </div>
      <div>
        <h3>Yours</h3>
        <pre aria-label="Yours">{props.mine}</pre>
      </div>
    </div>
  );
}

/** What a conflict view shows and what each of its choices does. */
export interface ConflictProps {
  path: string;
  /** The request as its file has it now; none when it is no longer there. */
  theirs?: string;
  /** The request as the tab would write it. */
  mine: string;
  /** Writes the tab's request in place of the file's. */
  overwrite: () => void;
  /** Adds the tab's request to the file under a new name, the file's request kept. */
  keepBoth: () => void;
  /** Drops the tab's edits and shows the file's request. */
  takeTheirs: () => void;
  /** Closes the view, nothing written. */
  cancel: () => void;
}

/**
 * @param props both versions and the choices
 * @returns a conflicting save's view (every tab kind's): both versions of the request and the
 *   choices, nothing written until one is made
 */
export function ConflictView(props: ConflictProps): JSX.Element {
  const there = props.theirs !== undefined;
  return (
    <section class="save-conflict" role="alert" aria-label="Save conflict">
      <p>
        {there
          ? `${props.path} changed this request on disk since the tab was opened. Nothing was written.`
          : `This request is no longer in ${props.path}. Nothing was written.`}
      </p>
      <ConflictVersions theirs={props.theirs ?? "(removed)"} mine={props.mine} />
      <div class="conflict-choices">
        {there && <button type="button" onClick={props.overwrite}>Overwrite with mine</button>}
        <button type="button" onClick={props.keepBoth}>Keep both</button>
        {there && (
          <button type="button" onClick={props.takeTheirs}>Take theirs (drop my edits)</button>
        )}
        <button type="button" onClick={props.cancel}>Cancel</button>
      </div>
    </section>
  );
}

/** @returns the shown HTTP tab's save conflict, if any */
function HttpConflictView(): JSX.Element | null {
  const conflict = saveConflict.value;
  if (!conflict || conflict.tabId !== activeTab.value) return null;
  return (
    <ConflictView
      path={conflict.path}
      {...(conflict.theirs !== undefined ? { theirs: conflict.theirs } : {})}
      mine={conflict.mine}
      overwrite={() => void saveActiveTab("overwrite")}
      keepBoth={() => void saveActiveTab("keep-both")}
      takeTheirs={() => void takeTheirs()}
      cancel={() => saveConflict.value = undefined}
    />
  );
}

// A file read again (changed on disk): its tabs without unsaved edits show the new text.
onFileRead((file) => {
  let changed = false;
  const tabs = requestTabs.peek().map((tab) => {
    if (tab.source?.path !== file.path || pending.ids.has(tab.id)) return tab;
    const request = findRequest(file, tab.source);
    if (!request) return tab;
    const draft = draftOfRequest(request);
    const isActive = tab.id === activeTab.peek();
    const shown = isActive ? currentView().draft : tab.view?.draft;
    if (sameDraft(tab.saved, draft)) {
      // The same fields (a comment or spacing changed): the new text is the base.
      const baseDigest = file.digests[request.index];
      if (tab.baseDigest === baseDigest || tab.changedOnDisk) return tab;
      changed = true;
      return { ...tab, baseDigest };
    }
    if (sameDraft(shown, draft)) {
      // The file has the tab's edits now (another window saved them): nothing is unsaved.
      changed = true;
      return { ...tab, ...fileBase(file, request) };
    }
    if (shown !== undefined && tab.saved !== undefined && !sameDraft(tab.saved, shown)) {
      if (isActive) tabNote.value = `${file.path} changed on disk; your edits are kept`;
      return tab;
    }
    changed = true;
    if (isActive) {
      showView({ draft, ...(tab.view?.result ? { result: tab.view.result } : {}) });
      tabNote.value = `Reloaded: ${file.path} changed on disk`;
    }
    return { ...tab, ...fileBase(file, request), view: { ...tab.view, draft } };
  });
  if (changed) requestTabs.value = tabs;
});

/** @returns the strip of request tabs */
export function RequestTabs(): JSX.Element {
  return (
    <>
      <RequestTabStrip />
      <HttpConflictView />
    </>
  );
}

/** @returns the tabs themselves: a tab list that scrolls instead of wrapping */
function RequestTabStrip(): JSX.Element {
  return (
    <TabList
      label="Open requests"
      newLabel="New request tab"
      // With a workspace the open requests are an ARIA tab list; without one (a single scratch
      // tab and its siblings) they stay a toolbar, so that the page has one tab list, the
      // request kinds.
      role={workspaceRoot.value ? "tablist" : "toolbar"}
      idPrefix="request-tab-"
      tabs={requestTabs.value.map((tab) => {
        const edited = isUnsaved(tab);
        return {
          id: tab.id,
          title: tab.title,
          edited,
          ...(tab.preview ? { preview: true } : {}),
          tooltip: `${tab.source ? `${tab.source.path} #${tab.source.index}` : tab.title}${
            tab.preview ? " (preview: double-click or edit to keep it)" : ""
          }${edited ? ", unsaved" : ""}`,
        };
      })}
      active={activeTab.value}
      select={switchTab}
      close={closeTab}
      keep={keepTab}
      newTab={newTab}
      note={tabNote.value}
    />
  );
}

// An edit keeps a preview tab.
effect(() => {
  if (unsaved.value) keepTab(activeTab.peek());
});

/** The loaded tabs' restoring: saving waits for it. */
const restoring = restoreTabs();
