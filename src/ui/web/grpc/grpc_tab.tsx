/**
 * The gRPC tab, on the tab skeleton (`tab_core.tsx`; its fields in `grpc_fields.ts`): the server (`host:port`, `grpcs://` for
 * TLS, as request files write it), the method picked from what the server offers by reflection
 * or what `.proto` files of the workspace describe, a JSON message editor with a template from
 * the method's request type, metadata, and the shared auth. Replies stream into a log as they
 * arrive; the status, headers and trailers follow. The calls run on the dial server
 * (`src/ui/api/grpc_api.ts`), as `dial grpc` makes them.
 * @module
 */
import { batch, computed, signal } from "@preact/signals";
import type { JSX } from "preact";
import { json, jsonParseLinter } from "@codemirror/lang-json";
import { linter } from "@codemirror/lint";
import { ApiError, isRecord, ndjson, ndjsonError, post, timeoutMs } from "../api.ts";
import { CodeEditor } from "../code_editor.tsx";
import { type HistoryEntry, HistoryList } from "../history.tsx";
import { jsonWithoutSecrets } from "../storage.ts";
import { TextField } from "../fields.tsx";
import type { LogEntry, LogStore } from "../stream/log_store.ts";
import { pageLog, StreamLog } from "../stream/stream_log.tsx";
import { ensureStreamStyles } from "../stream/stream_styles.ts";
import { loginIfNeeded, refreshTokenState } from "../token_state.tsx";
import { authFor } from "../auth_scope.tsx";
import { HeadersSection, RequestLine, TabNotices, UrlField } from "../tab_core.tsx";
import type { GrpcCallEvent, GrpcMethodJson } from "../../grpc_protocol.ts";
import {
  core,
  deadline,
  importPaths,
  message,
  method,
  pathList,
  protoFiles,
} from "./grpc_fields.ts";
import { callOpened, GrpcComposer, openCall } from "./grpc_composer.tsx";
import { type FileRun, readRunEvent, RunLines } from "../http/http_response.tsx";

const { failure } = core;

/** What the server or the files offer, once loaded. */
const methods = signal<GrpcMethodJson[]>([]);
const loading = signal(false);
/** The Proto files section stays open while its fields are emptied. */
const protosOpen = signal(false);
/** How the last call ended, and how many replies came. */
const ended = signal<
  (Extract<GrpcCallEvent, { type: "end" }> & { replies: number; sent?: number }) | undefined
>(undefined);

/** What running a file's request added: what ran first, its scripts' lines, its tests. */
const fileRun = signal<FileRun | undefined>(undefined);

/** The replies of the last call (exported for tests and benches). */
export const grpcLog: LogStore = pageLog();

const picked = computed(() => methods.value.find((m) => m.name === method.value));
const EXTENSIONS = [json(), linter(jsonParseLinter())];

/**
 * The server as the auth panel's scope knows origins: `grpcs://host:port` is
 * `https://host:port`, `host:port` and `grpc://host:port` are `http://host:port`.
 */
function originUrl(text: string): string {
  const trimmed = text.trim();
  const scheme = /^grpcs:\/\//i.test(trimmed) ? "https://" : "http://";
  return scheme + trimmed.replace(/^grpcs?:\/\//i, "").replace(/\/.*$/, "");
}

/** The server, metadata, auth and files of a listing or call. */
function target(): Record<string, unknown> {
  const base = core.target();
  // The panel's credentials go to the origins it was used for, as the HTTP tab's do.
  const auth = base.file !== undefined
    ? base.auth
    : authFor(originUrl(core.url.value), core.authSkipped);
  return {
    ...base,
    auth,
    protos: pathList(protoFiles.value),
    importPaths: pathList(importPaths.value),
    timeoutMs: timeoutMs(deadline.value),
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Asks the server (or reads the `.proto` files) for the methods to pick from. */
async function loadMethods(): Promise<void> {
  failure.value = undefined;
  loading.value = true;
  try {
    if (!(await loginIfNeeded())) throw new ApiError("Log in first: the login did not complete", 0);
    const response = await post("/api/grpc/methods", target());
    for await (const event of ndjson(response)) {
      const failed = ndjsonError(event);
      if (failed) throw failed;
      if (isRecord(event) && event.type === "methods" && Array.isArray(event.methods)) {
        methods.value = event.methods as GrpcMethodJson[];
        if (!picked.value && methods.value[0]) choose(methods.value[0].name);
      }
    }
  } catch (error) {
    failure.value = { message: describe(error) };
  } finally {
    loading.value = false;
    void refreshTokenState();
  }
}

/** Picks a method; an empty or untouched message becomes its request's template. */
function choose(name: string): void {
  const before = picked.value;
  method.value = name;
  const now = picked.value;
  if (!now) return;
  const text = message.value.trim();
  if (text === "" || text === "{}" || (before && text === before.template.trim())) {
    message.value = now.template;
  }
}

/** A message in or out, or a line about the call, in the log. */
function logged(kind: LogEntry["kind"], label: string, text: string, time?: unknown): void {
  const size = kind === "in" || kind === "out" ? { size: text.length } : {};
  grpcLog.append([{ time: Number(time) || Date.now(), kind, label, text, ...size }]);
}

/**
 * Makes the call; replies go to the log as they arrive.
 *
 * @param open client and bidi streaming: keep the call open for the composer's messages
 *   (the message editor's are not sent)
 */
async function call(open = false): Promise<void> {
  const mine = core.begin();
  batch(() => {
    failure.value = undefined;
    ended.value = undefined;
    fileRun.value = undefined;
    grpcLog.clear();
  });
  const name = method.value.trim();
  const entry = core.historyEntry((stored) => `${name} ${stored}`, {
    method: name,
    body: jsonWithoutSecrets(message.peek()),
    protos: protoFiles.peek(),
    importPaths: importPaths.peek(),
  });
  const run: FileRun = { ran: [], logs: [], tests: [] };
  try {
    if (!(await loginIfNeeded())) throw new ApiError("Log in first: the login did not complete", 0);
    if (mine.signal.aborted) return;
    const response = await post(
      "/api/grpc/call",
      // An open stream lasts until End sending, Cancel or the server's end, as a WebSocket
      // session does: no deadline.
      { ...target(), method: name, body: message.value, ...(open ? { open, timeoutMs: 0 } : {}) },
      mine.signal,
    );
    const size = await readCall(response, open, run);
    // A file's request: its tests, scripts' lines and a handler's failure (or the call's).
    if (run.error && !ended.value) throw run.error;
    if (run.ran.length || run.logs.length || run.tests.length || run.error) fileRun.value = run;
    const end = ended.value;
    if (!end) throw new ApiError("The dial server ended the answer early", 0);
    // The history line shows the status as the tab does: `OK (0)`, `NOT_FOUND (5): …`.
    const status = `${end.statusName} (${end.status})`;
    if (end.status === 0) entry.done({ status: 0, statusLabel: status, size, timeMs: end.timeMs });
    else entry.failed(`${status}${end.statusMessage ? `: ${end.statusMessage}` : ""}`);
  } catch (error) {
    if (!mine.signal.aborted) {
      failure.value = { message: describe(error) };
      entry.failed(describe(error));
    } else if (openCall.peek()) logged("info", "cancel", "Cancelled");
  } finally {
    openCall.value = undefined;
    core.end(mine);
    void refreshTokenState();
  }
}

/**
 * Reads a call's answer: messages to the log, the status, what running a file's request added.
 *
 * @returns the size of the replies, in bytes of their JSON
 */
async function readCall(response: Response, open: boolean, run: FileRun): Promise<number> {
  let [replies, sent, size] = [0, 0, 0];
  for await (const event of ndjson(response)) {
    const failed = ndjsonError(event);
    if (failed) throw failed;
    if (!isRecord(event)) continue;
    readRunEvent(event, run);
    if (event.type === "reply" && typeof event.json === "string") {
      replies++;
      size += new TextEncoder().encode(event.json).length;
      logged("in", "", event.json, event.time);
    } else if (event.type === "sent" && typeof event.json === "string") {
      sent++;
      logged("out", "", event.json, event.time);
    } else if (event.type === "open" && typeof event.call === "string") {
      callOpened(event.call, String(event.kind), message.peek());
      logged("info", "open", "Stream open: send messages below", event.time);
    } else if (event.type === "half-closed") {
      logged("info", "end", "Sending ended", event.time);
    } else if (event.type === "end") {
      const end = event as unknown as NonNullable<typeof ended.value>;
      ended.value = { ...end, replies, ...(open ? { sent } : {}) };
    }
  }
  return size;
}

/** Ctrl/Cmd+Enter outside an editor: calls, unless a call is under way. */
export function callFromAnywhere(): void {
  if (!core.busy.peek()) void call();
}

/** Puts a call of the history back in the tab. */
function restore(entry: HistoryEntry): void {
  const s = entry.snapshot;
  core.restore(entry);
  if (typeof s.method === "string") method.value = s.method;
  if (typeof s.body === "string") message.value = s.body;
  if (typeof s.protos === "string") protoFiles.value = s.protos;
  if (typeof s.importPaths === "string") importPaths.value = s.importPaths;
}

/** @returns the gRPC panel */
export function GrpcTab(): JSX.Element {
  ensureStreamStyles();
  const busy = core.busy.value;
  const kind = picked.value?.kind;
  return (
    <div class="stream grpc">
      <RequestLine onSubmit={() => busy ? core.cancel() : void call()}>
        <UrlField core={core} label="Server" placeholder="localhost:50051 or grpcs://host:port" />
        <TextField label="RPC" value={method} placeholder="package.Service/Method" />
        <button type="button" onClick={() => void loadMethods()} disabled={loading.value}>
          {loading.value ? "Loading…" : "Load methods"}
        </button>
        <button type="submit" class="primary">{busy ? "Cancel" : "Call"}</button>
        {!busy &&
          (kind === undefined || kind === "client_streaming" || kind === "bidi_streaming") && (
          <button
            type="button"
            title="Client and bidi streaming: send the messages one at a time while the call is open"
            onClick={() => void call(true)}
          >
            Open stream
          </button>
        )}
      </RequestLine>
      <MethodPicker />
      <TabNotices core={core} />
      <details
        open={protosOpen.value || protoFiles.value !== ""}
        onToggle={(e) => protosOpen.value = e.currentTarget.open}
      >
        <summary>Proto files (instead of reflection)</summary>
        <div class="options">
          <TextField label=".proto files" value={protoFiles} placeholder="protos/greeter.proto" />
          <TextField label="Import paths" value={importPaths} placeholder="protos, shared" />
          <TextField label="Deadline (seconds)" value={deadline} class="narrow" />
        </div>
      </details>
      <HeadersSection core={core} summary="Metadata" label="Metadata" />
      <section class="composer" aria-label="gRPC message" hidden={openCall.value !== undefined}>
        <div class="request-line">
          <span>
            Message{kind ? ` (${picked.value!.input}, ${kind.replace("_", " ")})` : ""}
            {kind === "client_streaming" || kind === "bidi_streaming"
              ? ": one JSON document per message, all sent by Call (Open stream: one at a time)"
              : ""}
          </span>
          <button
            type="button"
            disabled={!picked.value}
            onClick={() => message.value = picked.value!.template}
          >
            Template
          </button>
        </div>
        <CodeEditor
          value={message}
          label="gRPC message"
          extensions={EXTENSIONS}
          keys={[{ key: "Mod-Enter", run: () => (void call(), true) }]}
          class="body-editor"
        />
      </section>
      <GrpcComposer />
      <CallStatus />
      {fileRun.value && <RunLines run={fileRun.value} />}
      <HistoryList history={core.history} onRestore={restore} />
      <StreamLog store={grpcLog} label="Replies" />
    </div>
  );
}

/** @returns the list of loaded methods, when there is one */
function MethodPicker(): JSX.Element | null {
  if (!methods.value.length) return null;
  return (
    <div class="field">
      <label for="grpc-methods">RPCs</label>
      <select
        id="grpc-methods"
        value={picked.value ? method.value : ""}
        onChange={(e) => choose(e.currentTarget.value)}
      >
        {!picked.value && <option value="">(choose)</option>}
        {methods.value.map((m) => (
          <option key={m.name} value={m.name}>
            {m.name} ({m.kind.replace("_", " ")})
          </option>
        ))}
      </select>
    </div>
  );
}

/** @returns how the last call ended: status, time, replies, headers and trailers */
function CallStatus(): JSX.Element | null {
  const end = ended.value;
  if (!end) return null;
  const rows = [
    ...end.headers.map(([n, v]) => ["header", n, v]),
    ...end.trailers.map(([n, v]) => ["trailer", n, v]),
  ];
  return (
    <div>
      <p role="status" data-testid="grpc-status" class={end.status === 0 ? "" : "error"}>
        {end.statusName} ({end.status}){end.statusMessage ? `: ${end.statusMessage}` : ""}
        {` · ${end.timeMs} ms${end.sent !== undefined ? ` · ${end.sent} sent` : ""}`}
        {` · ${end.replies} ${end.replies === 1 ? "reply" : "replies"}`}
      </p>
      {rows.length > 0 && (
        <details>
          <summary>Headers and trailers</summary>
          <table>
            <tbody>
              {rows.map(([where, name, value]) => (
                <tr key={`${where}:${name}`}>
                  <td>{where}</td>
                  <td>{name}</td>
                  <td>{value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </div>
  );
}
