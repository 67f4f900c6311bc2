/**
 * Request tabs over the HTTP tab: several requests open at once, each remembering its fields
 * and its last response. The HTTP tab shows the active one; switching stores its view and shows
 * the other's. A tab opened from a `.http` file saves back into that file in place (Ctrl/Cmd+S)
 * and reloads when the file changes on disk while it has no unsaved edits. The list of tabs
 * (without responses, credential-named values blanked) is remembered with the drafts.
 * @module
 */
import { computed, signal } from "@preact/signals";
import type { JSX } from "preact";
import type { HttpRequest } from "../../../files/http_file_types.ts";
import { currentDraft, currentView, type HttpView, showView } from "../http/http_tab.tsx";
import {
  isString,
  jsonWithoutSecrets,
  persisted,
  urlWithoutSecrets,
  withoutSecrets,
} from "../storage.ts";
import {
  findRequest,
  onFileRead,
  type OpenedFile,
  readFile,
  type RequestPlace,
  writeFile,
} from "./files.ts";
import { kindSources, openKindRequest } from "./kind_requests.ts";
import { draftOfRequest, type HttpDraft, saveInPlace } from "./request_edit.ts";
import { isRecord, toApiError } from "../api.ts";
import { selectedTab } from "../main_tab.ts";

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

/** Stored without responses and with credential-named values blanked. */
function forStorage(tabs: RequestTab[]): RequestTab[] {
  return tabs.map(({ view, ...tab }) => ({
    ...tab,
    ...(view
      ? {
        view: {
          draft: {
            ...view.draft,
            url: urlWithoutSecrets(view.draft.url),
            headers: withoutSecrets(view.draft.headers),
            body: jsonWithoutSecrets(view.draft.body),
            // Rows without attached files (their bytes stay in memory).
            form: withoutSecrets(
              view.draft.form.map(({ name, value, enabled }) => ({ name, value, enabled })),
            ),
          },
        },
      }
      : {}),
  }));
}

/** The open request tabs, in order. */
export const requestTabs = persisted<RequestTab[]>(
  "tabs.open",
  [{ id: "t1", title: "Untitled" }],
  isTabs,
  forStorage,
);
/** The id of the tab the HTTP tab shows. */
export const activeTab = persisted("tabs.active", requestTabs.peek()[0]!.id, isString);
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
  requestTabs.value = requestTabs.peek().map((t) => t.id === activeTab.peek() ? { ...t, view } : t);
  activeTab.value = id;
  showView(target.view ?? { draft: target.saved ?? EMPTY });
  tabNote.value = undefined;
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
export function openRequest(file: OpenedFile, request: HttpRequest): void {
  if (openKindRequest(file, request)) return;
  selectedTab.value = "http";
  const found = requestTabs.peek().find((t) =>
    t.source?.path === file.path && t.source.index === request.index
  );
  if (found) return switchTab(found.id);
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
    saved: draft,
    view: { draft },
  };
  requestTabs.value = [...requestTabs.peek(), tab];
  switchTab(id);
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

/** Ctrl/Cmd+S: writes the active tab's request back into its file, in place. */
export async function saveActiveTab(): Promise<void> {
  const tab = active.peek();
  if (!tab?.source) {
    tabNote.value = "This tab is not from a file: use Save as";
    return;
  }
  try {
    const file = await readFile(tab.source.path);
    const request = findRequest(file, tab.source);
    if (!request) throw new Error(`The request is no longer in ${tab.source.path}`);
    const draft = currentView().draft;
    const written = await writeFile(file.path, saveInPlace(file.text, request, draft), file.mtime);
    const again = findRequest(written, tab.source);
    requestTabs.value = requestTabs.peek().map((t) =>
      t.id === tab.id
        ? {
          ...t,
          saved: again ? draftOfRequest(again) : draft,
          ...(again ? { source: { ...t.source!, index: again.index } } : {}),
        }
        : t
    );
    tabNote.value = `Saved to ${file.path}`;
  } catch (error) {
    tabNote.value = `Not saved: ${toApiError(error).message}`;
  }
}

// A file read again (changed on disk): its tabs without unsaved edits show the new text.
onFileRead((file) => {
  let changed = false;
  const tabs = requestTabs.peek().map((tab) => {
    if (tab.source?.path !== file.path) return tab;
    const request = findRequest(file, tab.source);
    if (!request) return tab;
    const draft = draftOfRequest(request);
    const isActive = tab.id === activeTab.peek();
    const shown = isActive ? currentView().draft : tab.view?.draft;
    if (sameDraft(tab.saved, draft)) return tab;
    if (shown !== undefined && tab.saved !== undefined && !sameDraft(tab.saved, shown)) {
      if (isActive) tabNote.value = `${file.path} changed on disk; your edits are kept`;
      return tab;
    }
    changed = true;
    if (isActive) {
      showView({ draft, ...(tab.view?.result ? { result: tab.view.result } : {}) });
      tabNote.value = `Reloaded: ${file.path} changed on disk`;
    }
    return { ...tab, saved: draft, view: { ...tab.view, draft } };
  });
  if (changed) requestTabs.value = tabs;
});

/** @returns the strip of request tabs */
export function RequestTabs(): JSX.Element {
  return (
    <div class="request-tabs" role="toolbar" aria-label="Open requests">
      {requestTabs.value.map((tab) => {
        const selected = tab.id === activeTab.value;
        return (
          <span key={tab.id} class={`request-tab ${selected ? "selected" : ""}`}>
            <button
              type="button"
              class="request-tab-name"
              aria-pressed={selected}
              title={tab.source ? `${tab.source.path} #${tab.source.index}` : tab.title}
              onClick={() => switchTab(tab.id)}
            >
              {tab.title}
              {selected && unsaved.value ? " •" : ""}
            </button>
            <button
              type="button"
              class="icon"
              aria-label={`Close ${tab.title}`}
              onClick={() => closeTab(tab.id)}
            >
              ×
            </button>
          </span>
        );
      })}
      <button type="button" class="icon" aria-label="New request tab" onClick={newTab}>+</button>
      {tabNote.value && <span class="note" role="status">{tabNote.value}</span>}
    </div>
  );
}
