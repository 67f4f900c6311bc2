/**
 * Request tabs over the GraphQL, WebSocket and SSE tabs, as over the HTTP tab: several requests
 * of each kind open at once, each keeping its fields, its file and, for GraphQL, its last
 * response. Switching stores the shown tab's fields in it and shows the other's; a file's
 * request opens in a tab of its own (or shows the tab that has it). A WebSocket or SSE session
 * belongs to its tab kind, not to one request tab: its log stays as it is when switching. The
 * list is remembered with the drafts, without responses and with credential-named values blanked.
 * @module
 */
import { batch, computed } from "@preact/signals";
import type { JSX } from "preact";
import { isRecord } from "../api.ts";
import {
  isRows,
  isString,
  jsonWithoutSecrets,
  persisted,
  type Row,
  urlWithoutSecrets,
  withoutSecrets,
} from "../storage.ts";
import {
  core as graphqlCore,
  endpoint,
  headers as graphqlHeaders,
  queryText,
  variablesText,
} from "../graphql/state.ts";
import {
  fileRun,
  responseText,
  run,
  setRunError,
  stopOperation,
} from "../graphql/graphql_calls.ts";
import { wsFields } from "../ws/ws_tab.tsx";
import { messagesWithoutSecrets, savedMessages } from "../ws/ws_composer.tsx";
import { sseFields } from "../sse/sse_tab.tsx";
import { grpcFields } from "../grpc/grpc_fields.ts";
import type { RequestPlace } from "./files.ts";
import { withheldDraft } from "./draft_secrets.ts";
import type { HttpDraft } from "./request_edit.ts";
import { workspaceRoot } from "./files.ts";
import { TabList } from "./tab_list.tsx";
import {
  fileStateOf,
  kindSources,
  refillKindFromFile,
  setBeforeOpen,
  setFileState,
  type StreamKind,
  unsavedKinds,
} from "./kind_requests.ts";

/** A tab's fields (and a GraphQL response, in memory only). */
interface KindView {
  url: string;
  headers: Row[];
  /** GraphQL: query and variables; SSE: method, body kind and body. */
  text?: string;
  extra?: string;
  method?: string;
  bodyKind?: string;
  messages?: Array<{ mode: string; text: string }>;
  response?: {
    text: string;
    run?: typeof run.value;
    fileRun?: typeof fileRun.value;
    error?: string;
  };
}

/** One request tab of a kind. */
interface KindTab {
  id: string;
  source?: RequestPlace;
  /** Its fields as last opened or saved (for "unsaved"). */
  saved?: string;
  /** Its fields while another tab is shown. */
  view?: KindView;
  /** While another tab is shown: its fields differ from its file's (its `•`). */
  unsaved?: boolean;
  /** Its request's text in its file as last opened or saved (in memory only). */
  base?: string;
  /** Its base as stored: the keyed digest of its request's text (`base_digest.ts`). */
  baseKey?: string;
  /** The credential slots it changed from its file's (names only, `kind_requests.ts`). */
  typed?: string[];
}

type Strip = { tabs: KindTab[]; active: string };
type Strips = Record<StreamKind, Strip>;

const INITIAL: Strips = {
  graphql: { tabs: [{ id: "g1" }], active: "g1" },
  ws: { tabs: [{ id: "w1" }], active: "w1" },
  sse: { tabs: [{ id: "s1" }], active: "s1" },
  grpc: { tabs: [{ id: "r1" }], active: "r1" },
};

function isStrips(value: unknown): value is Strips {
  // The gRPC strip came later: drafts without it keep the others (it starts empty).
  if (isRecord(value) && value.grpc === undefined) value.grpc = INITIAL.grpc;
  return isRecord(value) && (["graphql", "ws", "sse", "grpc"] as const).every((kind) => {
    const strip = value[kind];
    return isRecord(strip) && isString(strip.active) && Array.isArray(strip.tabs) &&
      strip.tabs.length > 0 &&
      strip.tabs.every((t) =>
        isRecord(t) && isString(t.id) && (t.baseKey === undefined || isString(t.baseKey)) &&
        (t.view === undefined || (isRecord(t.view) && isRows(t.view.headers)))
      );
  });
}

/**
 * @param saved a tab's fields as a request of its file (JSON)
 * @returns whether they hold a literal credential value, which browser storage must not hold
 */
function holdsLiteralSecret(saved: string): boolean {
  try {
    return withheldDraft(JSON.parse(saved) as HttpDraft).withheld.length > 0;
  } catch {
    return true;
  }
}

/** Stored without responses, credential-named values blanked. */
function forStorage(strips: Strips): Strips {
  const clean = (view: KindView | undefined): KindView | undefined => {
    if (!view) return undefined;
    const { response: _, ...fields } = view;
    return {
      ...fields,
      url: urlWithoutSecrets(fields.url),
      headers: withoutSecrets(fields.headers),
      ...(fields.extra !== undefined ? { extra: jsonWithoutSecrets(fields.extra) } : {}),
      ...(fields.text !== undefined && fields.bodyKind
        ? { text: jsonWithoutSecrets(fields.text) }
        : {}),
      ...(fields.messages ? { messages: messagesWithoutSecrets(fields.messages) } : {}),
    };
  };
  const out = {} as Strips;
  for (const [kind, strip] of Object.entries(strips) as Array<[StreamKind, Strips[StreamKind]]>) {
    out[kind] = {
      active: strip.active,
      tabs: strip.tabs.map(({ view, saved, base: _, ...tab }) => {
        const stored = clean(view);
        // The file's fields, kept for "unsaved", go only when they hold no literal credential.
        const keep = saved !== undefined && !holdsLiteralSecret(saved);
        return { ...tab, ...(keep ? { saved } : {}), ...(stored ? { view: stored } : {}) };
      }),
    };
  }
  return out;
}

const strips = persisted<Strips>("tabs.kindTabs", INITIAL, isStrips, forStorage);
/** Request tabs whose fields came from storage: shown, they take withheld values from the file. */
const fromStorage = new Set(
  Object.values(strips.peek()).flatMap((strip) =>
    strip.tabs.filter((t) => t.view).map((t) => t.id)
  ),
);
let counter = Math.max(
  0,
  ...Object.values(strips.peek()).flatMap((s) => s.tabs.map((t) => Number(t.id.slice(1)) || 0)),
);

/**
 * A file renamed: the request tabs of every kind that hold one of its requests, shown or not,
 * now point at the new name (the shown ones' sources are `kindSources`).
 *
 * @param from the old path
 * @param to the new path
 */
export function renameKindTabs(from: string, to: string): void {
  const next = {} as Strips;
  for (const [kind, strip] of Object.entries(strips.peek()) as Array<[StreamKind, Strip]>) {
    next[kind] = {
      ...strip,
      tabs: strip.tabs.map((t) =>
        t.source?.path === from ? { ...t, source: { ...t.source, path: to } } : t
      ),
    };
  }
  strips.value = next;
}

/** The tab's fields now. */
function capture(kind: StreamKind): KindView {
  if (kind === "graphql") {
    return {
      url: endpoint.peek(),
      headers: graphqlHeaders.peek(),
      text: queryText.peek(),
      extra: variablesText.peek(),
      response: {
        text: responseText.peek(),
        ...(run.peek() ? { run: run.peek() } : {}),
        ...(fileRun.peek() ? { fileRun: fileRun.peek() } : {}),
        ...(graphqlCore.failure.peek() ? { error: graphqlCore.failure.peek()!.message } : {}),
      },
    };
  }
  if (kind === "grpc") {
    return {
      url: grpcFields.url.peek(),
      headers: grpcFields.headers.peek(),
      method: grpcFields.method.peek(),
      bodyKind: "json",
      text: grpcFields.message.peek(),
      extra: JSON.stringify([grpcFields.protoFiles.peek(), grpcFields.importPaths.peek()]),
    };
  }
  if (kind === "ws") {
    return {
      url: wsFields.url.peek(),
      headers: wsFields.headers.peek(),
      messages: savedMessages.peek(),
    };
  }
  return {
    url: sseFields.url.peek(),
    headers: sseFields.headers.peek(),
    method: sseFields.method.peek(),
    bodyKind: sseFields.bodyKind.peek(),
    text: sseFields.body.peek(),
  };
}

/** The gRPC tab's `.proto` files and import paths, as {@link capture} keeps them. */
function parseExtra(extra: string | undefined): [string, string] {
  try {
    const value = JSON.parse(extra ?? "[]");
    return [String(value[0] ?? ""), String(value[1] ?? "")];
  } catch {
    return ["", ""];
  }
}

/** Shows a tab's fields (a new tab's are empty). */
function restore(kind: StreamKind, view: KindView | undefined): void {
  batch(() => {
    if (kind === "graphql") {
      endpoint.value = view?.url ?? "";
      graphqlHeaders.value = view?.headers ?? [];
      queryText.value = view?.text ?? "";
      variablesText.value = view?.extra ?? "{}";
      responseText.value = view?.response?.text ?? "";
      run.value = view?.response?.run;
      fileRun.value = view?.response?.fileRun;
      setRunError(view?.response?.error);
    } else if (kind === "grpc") {
      grpcFields.url.value = view?.url ?? "";
      grpcFields.headers.value = view?.headers ?? [];
      grpcFields.method.value = view?.method ?? "";
      grpcFields.message.value = view?.text ?? "{}";
      const [files, dirs] = parseExtra(view?.extra);
      grpcFields.protoFiles.value = files;
      grpcFields.importPaths.value = dirs;
    } else if (kind === "ws") {
      wsFields.url.value = view?.url ?? "";
      wsFields.headers.value = view?.headers ?? [];
      savedMessages.value = (view?.messages ?? []).filter((m) =>
        m.mode === "text" || m.mode === "json" || m.mode === "hex" || m.mode === "base64"
      ) as typeof savedMessages.value;
    } else {
      sseFields.method.value = view?.method === "POST" ? "POST" : "GET";
      sseFields.url.value = view?.url ?? "";
      sseFields.headers.value = view?.headers ?? [];
      sseFields.bodyKind.value = view?.bodyKind === "text" ? "text" : "json";
      sseFields.body.value = view?.text ?? "";
    }
  });
}

/**
 * Shows another request tab of a kind; the shown one keeps its fields.
 *
 * @param kind the tab kind
 * @param id the request tab
 */
export function switchKindTab(kind: StreamKind, id: string): void {
  const strip = strips.peek()[kind];
  if (id === strip.active) return;
  const target = strip.tabs.find((t) => t.id === id);
  if (!target) return;
  if (kind === "graphql" && run.peek()?.streaming) stopOperation();
  const leaving = {
    view: capture(kind),
    ...fileStateOf(kind),
    ...(unsavedKinds.peek().has(kind) ? { unsaved: true } : {}),
  };
  const tabs = strip.tabs.map((t) => {
    if (t.id !== strip.active) return t;
    const {
      source: _,
      saved: __,
      unsaved: ___,
      base: ____,
      baseKey: _____,
      typed: ______,
      ...rest
    } = t;
    return { ...rest, ...leaving };
  });
  strips.value = { ...strips.peek(), [kind]: { tabs, active: id } };
  restore(kind, target.view);
  setFileState(kind, {
    ...(target.source ? { source: target.source } : {}),
    ...(target.saved !== undefined ? { saved: target.saved } : {}),
    ...(target.base !== undefined ? { base: target.base } : {}),
    ...(target.baseKey !== undefined ? { baseKey: target.baseKey } : {}),
    ...(Array.isArray(target.typed) ? { typed: target.typed } : {}),
  });
  if (fromStorage.delete(id)) void refillKindFromFile(kind);
}

/** After a reload or restart: the shown tab of each kind takes withheld values from its file. */
export function refillShownKindTabs(): void {
  for (const kind of ["graphql", "ws", "sse", "grpc"] as const) void refillKindFromFile(kind);
}

/**
 * Opens an empty request tab of a kind.
 *
 * @param kind the tab kind
 */
export function newKindTab(kind: StreamKind): void {
  const id = `${kind[0]}${++counter}`;
  const strip = strips.peek()[kind];
  strips.value = { ...strips.peek(), [kind]: { ...strip, tabs: [...strip.tabs, { id }] } };
  switchKindTab(kind, id);
}

/**
 * Shows the next or previous request tab of a kind (Alt+] and Alt+[).
 *
 * @param kind the tab kind
 * @param step 1 for the next, -1 for the previous
 */
export function cycleKindTab(kind: StreamKind, step: number): void {
  const { tabs, active } = strips.peek()[kind];
  const at = tabs.findIndex((t) => t.id === active);
  switchKindTab(kind, tabs[(at + step + tabs.length) % tabs.length]!.id);
}

/**
 * Closes a request tab of a kind (the last one is emptied instead).
 *
 * @param kind the tab kind
 * @param id the request tab (default: the shown one)
 */
export function closeKindTab(kind: StreamKind, id: string = strips.peek()[kind].active): void {
  const strip = strips.peek()[kind];
  const at = strip.tabs.findIndex((t) => t.id === id);
  if (at < 0) return;
  if (strip.tabs.length === 1) {
    restore(kind, undefined);
    setFileState(kind, {});
    strips.value = { ...strips.peek(), [kind]: { tabs: [{ id }], active: id } };
    return;
  }
  if (id === strip.active) switchKindTab(kind, strip.tabs[at + 1]?.id ?? strip.tabs[at - 1]!.id);
  const now = strips.peek()[kind];
  strips.value = {
    ...strips.peek(),
    [kind]: { ...now, tabs: now.tabs.filter((t) => t.id !== id) },
  };
}

// A file's request: the tab that has it, else a new tab (the shown one is kept as it is,
// unless it is empty and from no file).
setBeforeOpen((kind, place) => {
  const strip = strips.peek()[kind];
  const holder = strip.tabs.find((t) =>
    t.id === strip.active
      ? kindSources.peek()[kind]?.path === place.path &&
        kindSources.peek()[kind]?.index === place.index
      : t.source?.path === place.path && t.source.index === place.index
  );
  if (holder) {
    switchKindTab(kind, holder.id);
    return "shown";
  }
  const shown = capture(kind);
  const empty = !kindSources.peek()[kind] && shown.url.trim() === "" &&
    (shown.text ?? "").trim() === "";
  if (!empty) newKindTab(kind);
  return "new";
});

function titleOf(kind: StreamKind, tab: KindTab, active: boolean): string {
  const source = active ? kindSources.value[kind] : tab.source;
  if (source) return source.name ?? `${source.path} #${source.index}`;
  const url = active ? capture(kind).url : tab.view?.url ?? "";
  return url.trim() === "" ? "Untitled" : url.replace(/^[a-z]+:\/\//i, "").slice(0, 40);
}

const LABEL: Record<StreamKind, string> = {
  graphql: "Open GraphQL requests",
  ws: "Open WebSocket requests",
  sse: "Open SSE requests",
  grpc: "Open gRPC requests",
};

/**
 * @param props the tab kind
 * @returns its strip of request tabs (only with a workspace, where requests come from files)
 */
export function KindTabs(props: { kind: StreamKind }): JSX.Element | null {
  const { kind } = props;
  if (!workspaceRoot.value) return null;
  const strip = strips.value[kind];
  // Read so that titles follow edits of the shown tab.
  void unsaved.value;
  return (
    <TabList
      label={LABEL[kind]}
      newLabel={`New ${LABEL[kind].replace("Open ", "").replace(" requests", "")} request tab`}
      idPrefix={`${kind}-request-tab-`}
      tabs={strip.tabs.map((tab) => {
        const active = tab.id === strip.active;
        return {
          id: tab.id,
          title: titleOf(kind, tab, active),
          edited: (active ? unsaved.value.has(kind) : tab.unsaved) === true,
        };
      })}
      active={strip.active}
      select={(id) => switchKindTab(kind, id)}
      close={(id) => closeKindTab(kind, id)}
      newTab={() => newKindTab(kind)}
    />
  );
}

const unsaved = computed(() => unsavedKinds.value);
