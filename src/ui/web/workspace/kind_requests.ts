/**
 * The requests of a `.http` file that open in the GraphQL, WebSocket and SSE tabs, and back:
 * `GRAPHQL` (or REST Client's `X-Request-Type: GraphQL`), `WEBSOCKET` with its messages, and
 * a request that accepts `text/event-stream` (how `dial run` reads an SSE request). Each of
 * those tabs holds one request of a file at a time (its source is remembered with the drafts):
 * Ctrl/Cmd+S writes it back in place with the request files' writer, keeping an unchanged body
 * as written and every other line of the file byte for byte; "Save as" appends it to a file.
 * @module
 */
import { batch, computed, effect, signal } from "@preact/signals";
import { emptySlots, notKept, refillDraft, typedSecrets, withheldDraft } from "./draft_secrets.ts";
import type { HttpRequest } from "../../../files/http_file_types.ts";
import {
  graphqlBodyText,
  splitGraphqlBody,
  websocketBodyText,
  websocketMessages,
} from "../../../files/stream_bodies.ts";
import { isRecord, toApiError } from "../api.ts";
import { selectedTab } from "../main_tab.ts";
import { persisted } from "../storage.ts";
import type { RequestKind } from "../request_extras.ts";
import { endpoint, headers as graphqlHeaders, queryText, variablesText } from "../graphql/state.ts";
import { wsFields } from "../ws/ws_tab.tsx";
import { savedMessages } from "../ws/ws_composer.tsx";
import { sseFields } from "../sse/sse_tab.tsx";
import {
  grpcDraft,
  grpcFields,
  grpcFill,
  grpcFillDraft,
  grpcProtoLinesIn,
  grpcSaveProtos,
} from "../grpc/grpc_fields.ts";
import { appendRequest } from "../../../files/write_http_file.ts";
import type { ConflictChoice } from "./request_tabs.tsx";
import {
  draftOfRequest,
  type HttpDraft,
  replaceInPlace,
  requestText,
  writeDraft,
  writeOver,
} from "./request_edit.ts";
import {
  findRequest,
  freeName,
  onFileRead,
  type OpenedFile,
  readFile,
  type RequestPlace,
  writeFile,
} from "./files.ts";

/** The tabs other than HTTP. */
export type StreamKind = Exclude<RequestKind, "http">;

const KINDS: readonly StreamKind[] = ["graphql", "ws", "sse", "grpc"];

function isSources(value: unknown): value is Partial<Record<StreamKind, RequestPlace>> {
  return isRecord(value) &&
    Object.entries(value).every(([kind, place]) =>
      KINDS.includes(kind as StreamKind) && isRecord(place) && typeof place.path === "string" &&
      typeof place.index === "number" &&
      (place.name === undefined || typeof place.name === "string")
    );
}

/** The file and request each of the GraphQL, WebSocket and SSE tabs holds, if any. */
export const kindSources = persisted<Partial<Record<StreamKind, RequestPlace>>>(
  "tabs.kinds",
  {},
  isSources,
);

/** Each tab's fields as last opened from or saved to its file (in memory: "unsaved"). */
const savedDrafts = signal<Partial<Record<StreamKind, string>>>({});

/**
 * Each tab's request as its file had it when the tab was opened, followed the file or saved
 * (its text): a save is a compare-and-swap against it. None after a reload until the file is
 * read (then the file as it is).
 */
const bases: Partial<Record<StreamKind, string>> = {};

function isKeys(value: unknown): value is Partial<Record<StreamKind, string>> {
  return isRecord(value) &&
    Object.entries(value).every(([kind, key]) =>
      KINDS.includes(kind as StreamKind) && typeof key === "string"
    );
}

/**
 * Each shown tab's base as browser storage may hold it (across a reload or restart): its
 * request's keyed digest ({@link baseKey}).
 */
const baseKeys = persisted<Partial<Record<StreamKind, string>>>("tabs.kindBases", {}, isKeys);

/**
 * @param file a request file as the server read or wrote it
 * @param request one of its requests
 * @returns the request's keyed digest (what storage holds of a base: its text, credential
 *   values, comments and whitespace included, never the text itself), from the server
 */
function baseKey(file: OpenedFile, request: HttpRequest): string | undefined {
  return file.digests[request.index];
}

/**
 * @param stored a tab's stored base
 * @param file its request's file as read now
 * @param request its request in it
 * @returns whether the request is as the tab's base was. A base stored before keyed digests (its
 *   fields as JSON, literal credential values withheld) is compared that way once: when the
 *   request still equals it, the tab takes the file's digest silently (no false conflict after
 *   an upgrade); when not, it changed on disk.
 */
function sameBase(stored: string, file: OpenedFile, request: HttpRequest): boolean {
  if (stored === baseKey(file, request)) return true;
  return stored.startsWith("{") &&
    stored === JSON.stringify(withheldDraft(draftOfRequest(request)).draft);
}

/** A tab's base is now its request as `file` has it (and its stored key follows). */
function setBase(kind: StreamKind, file: OpenedFile, request: HttpRequest): void {
  bases[kind] = requestText(file.text, request);
  const keys = { ...baseKeys.peek() };
  const key = baseKey(file, request);
  if (key !== undefined) keys[kind] = key;
  else delete keys[kind];
  baseKeys.value = keys;
}

/** A save of a tab that found its request changed on disk: both versions, until a choice. */
export interface KindConflict {
  kind: StreamKind;
  path: string;
  /** The request as its file has it now. */
  theirs: string;
  /** The request as the tab would write it. */
  mine: string;
}

/** The conflict shown, if any. */
export const kindConflict = signal<KindConflict | undefined>(undefined);

function fingerprint(kind: StreamKind): string | undefined {
  try {
    return JSON.stringify(draftOfKind(kind));
  } catch {
    return undefined;
  }
}

function remember(kind: StreamKind): void {
  const text = fingerprint(kind);
  const next = { ...savedDrafts.peek() };
  if (text === undefined) delete next[kind];
  else next[kind] = text;
  savedDrafts.value = next;
}

/** Each tab's fields as a request of a file, as they change (undefined: not writable). */
export const kindDrafts = computed(() => {
  // Read as values, so an edit of any field is seen.
  void [endpoint.value, graphqlHeaders.value, queryText.value, variablesText.value];
  void [wsFields.url.value, wsFields.headers.value, savedMessages.value];
  void Object.values(sseFields).map((field) => field.value);
  void Object.values(grpcFields).map((field) => field.value);
  const drafts: Partial<Record<StreamKind, HttpDraft>> = {};
  for (const kind of KINDS) {
    try {
      drafts[kind] = draftOfKind(kind);
    } catch {
      // a binary message: not writable, and not compared
    }
  }
  return drafts;
});

/** The tabs whose fields differ from what they last opened or saved. */
export const unsavedKinds = computed(() => {
  const drafts = kindDrafts.value;
  const saved = savedDrafts.value;
  return new Set(
    KINDS.filter((kind) =>
      saved[kind] !== undefined && saved[kind] !== JSON.stringify(drafts[kind])
    ),
  );
});

function isTyped(value: unknown): value is Partial<Record<StreamKind, string[]>> {
  return isRecord(value) &&
    Object.entries(value).every(([kind, slots]) =>
      KINDS.includes(kind as StreamKind) && Array.isArray(slots) &&
      slots.every((slot) => typeof slot === "string")
    );
}

/**
 * Each shown tab's credential slots whose literal value it changed from its file's (names,
 * never values): storage withholds the tab's, so after a reload they stay blank and the tab
 * says so, instead of taking the file's value silently.
 */
const typedSlots = persisted<Partial<Record<StreamKind, string[]>>>(
  "tabs.kindTyped",
  {},
  isTyped,
);

effect(() => {
  const drafts = kindDrafts.value;
  const saved = savedDrafts.value;
  const now = { ...typedSlots.peek() };
  let changed = false;
  for (const kind of KINDS) {
    const file = saved[kind];
    const draft = drafts[kind];
    // Not read yet after a reload, or its file is gone: what storage said stays.
    if (file === undefined || file === "" || !draft) continue;
    let typed: string[] = [];
    try {
      typed = typedSecrets(draft, JSON.parse(file) as HttpDraft);
    } catch {
      continue;
    }
    if (JSON.stringify(typed) === JSON.stringify(now[kind] ?? [])) continue;
    changed = true;
    if (typed.length > 0) now[kind] = typed;
    else delete now[kind];
  }
  if (changed) typedSlots.value = now;
});

const rows = (request: HttpRequest) =>
  request.headers.map((h) => ({ name: h.name, value: h.value, enabled: true }));

/**
 * @param request a parsed request
 * @returns the tab it opens in
 */
export function kindOf(request: HttpRequest): RequestKind {
  const header = (name: string) =>
    request.headers.find((h) => h.name.toLowerCase() === name)?.value.trim() ?? "";
  if (request.method === "WEBSOCKET") return "ws";
  if (request.method === "GRPC") return "grpc";
  if (request.method === "GRAPHQL" || /^graphql$/i.test(header("x-request-type"))) {
    return "graphql";
  }
  if (
    (request.method === "GET" || request.method === "POST") &&
    /text\/event-stream/i.test(header("accept"))
  ) {
    return "sse";
  }
  return "http";
}

/**
 * Opens a GRAPHQL, WEBSOCKET or event-stream request in its tab, `{{variables}}` as written
 * (the server fills them in when it sends).
 *
 * @param file the file
 * @param request one of its requests
 * @returns whether it was one of those (false: it belongs in the HTTP tab)
 */
export function openKindRequest(file: OpenedFile, request: HttpRequest): boolean {
  const kind = kindOf(request);
  if (kind === "http") return false;
  const place: RequestPlace = {
    path: file.path,
    index: request.index,
    ...(request.name ? { name: request.name } : {}),
  };
  selectedTab.value = kind;
  // The request tabs show the tab that holds it already, or open a new one for it.
  if (beforeOpen(kind, place) === "shown") return true;
  fill(kind, request, file);
  kindSources.value = { ...kindSources.peek(), [kind]: place };
  remember(kind);
  setBase(kind, file, request);
  return true;
}

let beforeOpen: (kind: StreamKind, place: RequestPlace) => "shown" | "new" = () => "new";

/**
 * @param hook called before a file's request opens in a tab: "shown" when a request tab holds
 *   it already (and is now shown), "new" when the fields are to be filled (a new tab is shown)
 */
export function setBeforeOpen(
  hook: (kind: StreamKind, place: RequestPlace) => "shown" | "new",
): void {
  beforeOpen = hook;
}

/**
 * What a request tab keeps of the tab's file state while another is shown.
 *
 * @param kind the tab
 * @returns its source and its fields as last opened or saved
 */
export function fileStateOf(kind: StreamKind): KindFileState {
  const source = kindSources.peek()[kind];
  const saved = savedDrafts.peek()[kind];
  const base = bases[kind];
  const key = baseKeys.peek()[kind];
  const typed = typedSlots.peek()[kind];
  return {
    ...(source ? { source } : {}),
    ...(saved !== undefined ? { saved } : {}),
    ...(base !== undefined ? { base } : {}),
    ...(key !== undefined ? { baseKey: key } : {}),
    ...(typed !== undefined ? { typed } : {}),
  };
}

/** A tab's file state: its request's place, its fields and its request as last opened or saved. */
export interface KindFileState {
  source?: RequestPlace;
  /** Its fields as last opened or saved (for "unsaved"). */
  saved?: string;
  /** Its request's text in the file as last opened or saved (for a save's compare-and-swap). */
  base?: string;
  /** Its base as browser storage may hold it: the keyed digest of its request's text. */
  baseKey?: string;
  /** The credential slots it changed from its file's (names only). */
  typed?: string[];
}

/**
 * Shows a request tab's file state.
 *
 * @param kind the tab
 * @param state its source and its fields as last opened or saved
 */
export function setFileState(kind: StreamKind, state: KindFileState): void {
  const sources = { ...kindSources.peek() };
  const saved = { ...savedDrafts.peek() };
  if (state.source) sources[kind] = state.source;
  else delete sources[kind];
  if (state.saved !== undefined) saved[kind] = state.saved;
  else delete saved[kind];
  kindSources.value = sources;
  savedDrafts.value = saved;
  if (state.base !== undefined) bases[kind] = state.base;
  else delete bases[kind];
  const keys = { ...baseKeys.peek() };
  if (state.baseKey !== undefined) keys[kind] = state.baseKey;
  else delete keys[kind];
  baseKeys.value = keys;
  const typed = { ...typedSlots.peek() };
  if (Array.isArray(state.typed) && state.typed.length > 0) typed[kind] = state.typed;
  else delete typed[kind];
  typedSlots.value = typed;
  if (kindConflict.peek()?.kind === kind) kindConflict.value = undefined;
  const notes = { ...kindNotes.peek() };
  delete notes[kind];
  kindNotes.value = notes;
}

/** Shows a request's fields in its tab. */
function fill(kind: StreamKind, request: HttpRequest, file?: OpenedFile): void {
  const body = draftOfRequest(request).body;
  if (kind === "grpc") {
    grpcFill(request, body, file);
  } else if (kind === "graphql") {
    const { query, variablesText: variables } = splitGraphqlBody(body);
    endpoint.value = request.url;
    graphqlHeaders.value = rows(request).filter((h) => h.name.toLowerCase() !== "x-request-type");
    queryText.value = query;
    variablesText.value = variables ?? "{}";
  } else if (kind === "ws") {
    wsFields.url.value = request.url;
    wsFields.headers.value = rows(request);
    savedMessages.value = websocketMessages(body).flatMap((m) =>
      m === null ? [] : [{ mode: "text" as const, text: m }]
    );
  } else {
    sseFields.method.value = request.method === "POST" ? "POST" : "GET";
    sseFields.url.value = request.url;
    sseFields.headers.value = rows(request);
    sseFields.body.value = body;
    sseFields.bodyKind.value = /^\s*[[{]/.test(body) ? "json" : "text";
  }
}

/** Shows fields written as a request of a file (the inverse of {@link draftOfKind}). */
function fillDraft(kind: StreamKind, draft: HttpDraft): void {
  if (kind === "graphql") {
    const { query, variablesText: variables } = splitGraphqlBody(draft.body);
    endpoint.value = draft.url;
    graphqlHeaders.value = draft.headers;
    queryText.value = query;
    variablesText.value = variables ?? "{}";
  } else if (kind === "ws") {
    wsFields.url.value = draft.url;
    wsFields.headers.value = draft.headers;
    // The messages' texts (a withheld value back from the file), each keeping its mode.
    const texts = websocketMessages(draft.body).filter((m) => m !== null);
    const shown = savedMessages.peek();
    if (texts.length === shown.length) {
      savedMessages.value = shown.map((m, i) => ({ ...m, text: texts[i]! }));
    }
  } else if (kind === "grpc") {
    grpcFillDraft(draft);
  } else {
    sseFields.url.value = draft.url;
    sseFields.headers.value = draft.headers;
    if (sseFields.method.peek() === "POST") sseFields.body.value = draft.body;
  }
}

/**
 * After a reload or restart: a tab's request of a file gets back the literal credential values
 * browser storage withheld (a header's `Bearer abc123`, an API key in the URL or the body),
 * from its file as it is now, as the HTTP tab's do; its edits stay, and its unsaved mark
 * compares with the file; a tab restored with its fields as opened takes the file as it is now
 * as what its save compares with. (The file's read does it: see the reader below.)
 *
 * @param kind the tab
 */
export async function refillKindFromFile(kind: StreamKind): Promise<void> {
  const source = kindSources.peek()[kind];
  if (!source || (savedDrafts.peek()[kind] !== undefined && bases[kind] !== undefined)) return;
  await readFile(source.path).catch((error) => {
    const refused = toApiError(error);
    // The file is gone (renamed, moved or deleted outside): no file holds the tab's request,
    // so it is unsaved, and says why (a save writes nothing; Save as keeps it).
    if (refused.status !== 400 || kindSources.peek()[kind] !== source) return;
    if (savedDrafts.peek()[kind] === undefined) {
      savedDrafts.value = { ...savedDrafts.peek(), [kind]: "" };
    }
    noteKind(kind, refused.message);
  });
}

/** The tabs whose withheld values come back from the file. */
const REFILLED: readonly StreamKind[] = ["graphql", "ws", "sse", "grpc"];

/**
 * The refill of {@link refillKindFromFile}, from the request as its file has it.
 *
 * @returns whether the tab was refilled (false: a kind this does not know, or a binary message)
 */
function refillFrom(kind: StreamKind, request: HttpRequest, file: OpenedFile): boolean {
  if (!REFILLED.includes(kind)) return false;
  let mine: HttpDraft;
  try {
    mine = draftOfKind(kind);
  } catch {
    return false;
  }
  // What the draft does not hold as typed: the messages' modes, the SSE method and body, the
  // gRPC Proto fields.
  const messages = savedMessages.peek();
  const protos = [grpcFields.protoFiles.peek(), grpcFields.importPaths.peek()] as const;
  const { method, bodyKind, body } = sseFields;
  const [sseMethod, sseBodyKind, sseBody] = [method.peek(), bodyKind.peek(), body.peek()];
  batch(() => {
    // The file's request as the tab would show it, then the tab's fields again.
    fill(kind, request, file);
    const fromFile = draftOfKind(kind);
    const blank = new Set(emptySlots(mine));
    // A value the tab changed from the file's is not the file's to give back.
    const typed = new Set(typedSlots.peek()[kind] ?? []);
    const withheld = withheldDraft(fromFile).withheld.filter((slot) =>
      blank.has(slot) && !typed.has(slot)
    );
    savedMessages.value = messages;
    method.value = sseMethod;
    bodyKind.value = sseBodyKind;
    body.value = sseBody;
    [grpcFields.protoFiles.value, grpcFields.importPaths.value] = protos;
    fillDraft(kind, refillDraft(mine, withheld, fromFile).draft);
    savedDrafts.value = { ...savedDrafts.peek(), [kind]: JSON.stringify(fromFile) };
  });
  restoreBase(kind, file, request);
  let blankAfter = new Set<string>();
  try {
    blankAfter = new Set(emptySlots(draftOfKind(kind)));
  } catch {
    // not writable: nothing to say
  }
  const typed = (typedSlots.peek()[kind] ?? []).filter((slot) => blankAfter.has(slot));
  if (typed.length > 0) {
    const before = kindNotes.peek()[kind];
    noteKind(kind, before ? `${before}. ${notKept(typed)}` : notKept(typed));
  }
  return true;
}

/**
 * A restored tab's base (a reload, a restart), from its request as its file has it now: that
 * text when the stored key says the request is as it was; none when the request changed on
 * disk since (a save then finds the change and writes nothing until the person chooses).
 */
function restoreBase(kind: StreamKind, file: OpenedFile, request: HttpRequest): void {
  const stored = baseKeys.peek()[kind];
  if (stored === undefined || sameBase(stored, file, request)) {
    return setBase(kind, file, request);
  }
  delete bases[kind];
  noteKind(kind, `${file.path} changed on disk; your edits are kept`);
}

/** @returns whether a save of the tab would leave its file as it is */
function savesNothing(kind: StreamKind, file: OpenedFile, request: HttpRequest): boolean {
  try {
    const draft = draftOfKind(kind);
    let text = replaceInPlace(file.text, request, draft, sameBody(kind, request, draft));
    if (kind === "grpc") text = grpcSaveProtos(text, file, request);
    return text === file.text;
  } catch {
    return false;
  }
}

/** What the last save or reload of each tab said. */
export const kindNotes = signal<Partial<Record<StreamKind, string>>>({});

/**
 * @param kind the tab
 * @param text what to say in its line
 */
export function noteKind(kind: StreamKind, text: string): void {
  kindNotes.value = { ...kindNotes.peek(), [kind]: text };
}

// A file read again (changed on disk): a tab holding one of its requests, without unsaved
// edits, shows the new text; with edits it keeps them and says so.
onFileRead((file) => {
  for (const kind of KINDS) {
    const place = kindSources.peek()[kind];
    if (place?.path !== file.path) continue;
    const request = findRequest(file, place);
    if (!request || kindOf(request) !== kind) continue;
    // Restored from storage (a reload, a restart): what the file's version was is not known.
    if (savedDrafts.peek()[kind] === undefined && refillFrom(kind, request, file)) continue;
    const text = requestText(file.text, request);
    if (bases[kind] === undefined) restoreBase(kind, file, request);
    if (unsavedKinds.peek().has(kind)) {
      if (savesNothing(kind, file, request)) {
        // The file has the tab's edits now (another window saved them): nothing is unsaved.
        remember(kind);
        setBase(kind, file, request);
        const notes = { ...kindNotes.peek() };
        delete notes[kind];
        kindNotes.value = notes;
      } else if (text !== bases[kind]) {
        noteKind(kind, `${file.path} changed on disk; your edits are kept`);
      }
      continue;
    }
    const before = savedDrafts.peek()[kind];
    fill(kind, request, file);
    remember(kind);
    setBase(kind, file, request);
    if (savedDrafts.peek()[kind] !== before) {
      noteKind(kind, `Reloaded: ${file.path} changed on disk`);
    }
  }
});

/**
 * @param kind a tab
 * @returns its fields as a request of a file (its method, URL, headers and body)
 * @throws {Error} when a part cannot be written in a request file (a binary message)
 */
export function draftOfKind(kind: StreamKind): HttpDraft {
  let method: string, url: string, body: string;
  let headers: HttpDraft["headers"];
  if (kind === "grpc") return grpcDraft();
  if (kind === "graphql") {
    method = "GRAPHQL";
    url = endpoint.peek();
    headers = graphqlHeaders.peek();
    body = graphqlBodyText(queryText.peek(), variablesText.peek());
  } else if (kind === "ws") {
    method = "WEBSOCKET";
    url = wsFields.url.peek();
    headers = wsFields.headers.peek();
    const messages = savedMessages.peek().map((m) => {
      if (m.mode === "hex" || m.mode === "base64") {
        throw new Error("A binary message cannot be saved in a request file: remove it first");
      }
      return m.text;
    });
    body = websocketBodyText(messages);
  } else {
    method = sseFields.method.peek();
    url = sseFields.url.peek();
    headers = sseFields.headers.peek();
    // `dial run` reads a request accepting an event stream as an SSE request.
    if (!headers.some((h) => h.enabled && h.name.trim().toLowerCase() === "accept")) {
      headers = [...headers, { name: "Accept", value: "text/event-stream", enabled: true }];
    }
    body = method === "POST" ? sseFields.body.peek() : "";
  }
  return { method, url, headers, bodyKind: body === "" ? "none" : "text", body, form: [] };
}

/** Whether the tab's body means what the file's does (then the file's text is kept). */
function sameBody(kind: StreamKind, request: HttpRequest, draft: HttpDraft): boolean {
  const before = draftOfRequest(request).body;
  if (kind === "graphql") {
    const a = splitGraphqlBody(before);
    const b = splitGraphqlBody(draft.body);
    const vars = (text: string | undefined) => (text ?? "{}").replace(/\s+/g, "");
    return a.query === b.query && vars(a.variablesText) === vars(b.variablesText);
  }
  if (kind === "ws") {
    const texts = (text: string) => websocketMessages(text).filter((m) => m !== null);
    return JSON.stringify(texts(before)) === JSON.stringify(texts(draft.body));
  }
  return before.trim() === draft.body.trim();
}

/**
 * Ctrl/Cmd+S in the GraphQL, WebSocket, SSE or gRPC tab: writes its request back into its
 * file, in place, only if the request is still as it was when the tab was opened, followed the
 * file or was saved (a compare-and-swap); when it changed on disk nothing is written and both
 * versions are shown ({@link kindConflict}) until the person chooses to overwrite, to keep both
 * (the tab's request added to the file under a new name) or to take the file's.
 *
 * @param kind the tab
 * @param choice the person's choice after a conflict
 * @returns what happened, in words
 */
export async function saveKind(kind: StreamKind, choice?: ConflictChoice): Promise<string> {
  const source = kindSources.peek()[kind];
  if (!source) return "This tab's request is not from a file: use Save as";
  try {
    const file = await readFile(source.path);
    const request = findRequest(file, source);
    if (!request && choice === undefined) {
      throw new Error(`The request is no longer in ${source.path}`);
    }
    const draft = draftOfKind(kind);
    if (!request || choice === "keep-both") return await keepBoth(kind, file, source, request);
    const theirs = requestText(file.text, request);
    const base = bases[kind];
    // Restored, and changed on disk since: only the stored key knows the base.
    const stored = baseKeys.peek()[kind];
    const changed = base !== undefined
      ? theirs !== base
      : stored !== undefined && !sameBase(stored, file, request);
    if (choice === undefined && changed) {
      const mine = writeOver(file.text, request, draft, {
        sameBody: sameBody(kind, request, draft),
      });
      kindConflict.value = { kind, path: file.path, theirs, mine };
      return `Not saved: ${file.path} changed this request on disk since the tab was opened`;
    }
    let text = replaceInPlace(file.text, request, draft, sameBody(kind, request, draft));
    if (kind === "grpc") text = grpcSaveProtos(text, file, request);
    const written = await writeFile(file.path, text, file.mtime);
    remember(kind);
    if (kindConflict.peek()?.kind === kind) kindConflict.value = undefined;
    const again = findRequest(written, source);
    if (again) {
      kindSources.value = { ...kindSources.peek(), [kind]: { ...source, index: again.index } };
      setBase(kind, written, again);
    }
    return `Saved to ${file.path}`;
  } catch (error) {
    return `Not saved: ${toApiError(error).message}`;
  }
}

/**
 * "Keep both": the tab's request appended to its file under a new name, written as a save in
 * place over the file's version of it would write it; the tab now holds it.
 */
async function keepBoth(
  kind: StreamKind,
  file: OpenedFile,
  source: RequestPlace,
  request: HttpRequest | undefined,
): Promise<string> {
  const name = freeName(file, `${source.name ?? "request"}-mine`);
  const written = await writeFile(
    file.path,
    appendRequest(file.text, kindRequestText(kind, file.path, name, request && { file, request })),
    file.mtime,
  );
  if (kindConflict.peek()?.kind === kind) kindConflict.value = undefined;
  const added = "error" in written.parsed ? undefined : written.parsed.requests.at(-1);
  if (added) adoptSource(kind, written, added);
  return `Saved to ${file.path} as a new request, ${name}`;
}

/**
 * @param kind a tab
 * @param path the request file it goes into (a gRPC tab's `.proto` files are named from it)
 * @param name the request's name, if any
 * @param over the file holding the request the tab was opened from ("Keep both"): the lines
 *   the tab did not change are written as that file has them
 * @returns the tab's request as the text appended to a file ("Save as", "Keep both")
 * @throws {Error} when a part cannot be written in a request file (a binary message)
 */
export function kindRequestText(
  kind: StreamKind,
  path: string,
  name?: string,
  over?: { file: OpenedFile; request: HttpRequest },
): string {
  const draft = draftOfKind(kind);
  const text = over
    ? writeOver(over.file.text, over.request, draft, {
      name,
      sameBody: sameBody(kind, over.request, draft),
    })
    : writeDraft(draft, name);
  return kind === "grpc" ? grpcProtoLinesIn(path, text) : text;
}

/**
 * After a conflict: drops the tab's edits and shows its request as its file has it now.
 *
 * @param kind the tab
 * @returns what happened, in words
 */
export async function takeTheirsKind(kind: StreamKind): Promise<string> {
  kindConflict.value = undefined;
  const source = kindSources.peek()[kind];
  if (!source) return "";
  try {
    const file = await readFile(source.path);
    const request = findRequest(file, source);
    if (!request) return `The request is no longer in ${source.path}`;
    fill(kind, request, file);
    remember(kind);
    setBase(kind, file, request);
    return `Reloaded from ${file.path}: your edits were dropped`;
  } catch (error) {
    return toApiError(error).message;
  }
}

/**
 * Detaches a tab from its file: it keeps its fields, and Ctrl/Cmd+S no longer writes them.
 *
 * @param kind the tab
 */
export function detachKind(kind: StreamKind): void {
  setFileState(kind, {});
}

/**
 * After "Save as": the tab now holds the request appended to `file`.
 *
 * @param kind the tab
 * @param file the file as written
 * @param request the appended request
 */
export function adoptSource(kind: StreamKind, file: OpenedFile, request: HttpRequest): void {
  remember(kind);
  setBase(kind, file, request);
  kindSources.value = {
    ...kindSources.peek(),
    [kind]: {
      path: file.path,
      index: request.index,
      ...(request.name ? { name: request.name } : {}),
    },
  };
}
