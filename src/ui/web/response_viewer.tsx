/**
 * The response body viewer of the HTTP and GraphQL tabs: a focusable read-only CodeMirror
 * (Tab reaches it, Ctrl/Cmd+F searches), Copy, Save (the whole body, streamed from the
 * server when it keeps it), a Pretty/Raw toggle, a "preview" label when only the first 5 MiB
 * are shown, and a mode by content type (JSON, text, images shown, binary as hex). A large JSON
 * body is formatted in a worker as its parts arrive and appended to the editor in pieces; its
 * first screen is formatted on the page's thread, in the task after its first part arrives.
 * @module
 */
import { type Signal, useComputed, useSignal } from "@preact/signals";
import type { JSX } from "preact";
import { useEffect, useLayoutEffect, useMemo } from "preact/hooks";
import { json } from "@codemirror/lang-json";
import { bracketMatching } from "@codemirror/language";
import type { EditorView } from "@codemirror/view";
import { type Extension, Text, Transaction } from "@codemirror/state";
import { BODY_PART, MAX_KEPT_BODY } from "../protocol.ts";
import { formatSize, nextTask, post } from "./api.ts";
import { CodeEditor, warmEditorCode } from "./code_editor.tsx";
import { prettyIfJson } from "./response_meta.tsx";
import { firstScreen, type FormatAnswer, type FormatRequest } from "./json_worker.ts";
import { visibleJsonMarks } from "./json_marks.ts";

/**
 * A long body arriving in parts (an answer's `bodyParts`): the viewer formats each part as it
 * comes, so the first screen does not wait for the last part, and no task of the page holds
 * the whole body.
 */
export class BodyParts {
  /** The parts so far, in order. */
  readonly parts: string[] = [];
  /** How many parts the body has. */
  readonly count: number;
  readonly #listeners = new Set<() => void>();
  #text: string | undefined;

  /** @param count how many parts the body has */
  constructor(count: number) {
    this.count = count;
  }

  /**
   * @param text a whole body
   * @returns it in parts, all arrived
   */
  static of(text: string): BodyParts {
    const parts = new BodyParts(Math.max(1, Math.ceil(text.length / BODY_PART)));
    for (let at = 0; parts.parts.length < parts.count; at += BODY_PART) {
      parts.parts.push(text.slice(at, at + BODY_PART));
    }
    parts.#text = text;
    return parts;
  }

  /** Whether every part has arrived. */
  get done(): boolean {
    return this.parts.length >= this.count;
  }

  /** @param part the next part, told to each listener */
  add(part: string): void {
    this.parts.push(part);
    for (const listener of this.#listeners) listener();
  }

  /** @returns the parts joined (once they have all arrived: the body) */
  text(): string {
    if (this.#text !== undefined) return this.#text;
    const text = this.parts.join("");
    if (!this.done) return text;
    this.#text = text;
    // From now on the parts are slices of the body (which share its memory), not copies of it.
    let at = 0;
    this.parts.forEach((part, i) => this.parts[i] = text.slice(at, at += part.length));
    return text;
  }

  /**
   * @param onPart called after each part added
   * @returns stops listening
   */
  listen(onPart: () => void): () => void {
    this.#listeners.add(onPart);
    return () => this.#listeners.delete(onPart);
  }
}

/** What the viewer shows. */
export interface ViewedBody {
  /** The body text (undefined for binary bodies, and while its {@link parts} arrive). */
  text?: string;
  /** A long body's parts: the viewer starts on them before the last one (and `text`) is in. */
  parts?: BodyParts;
  /** The response's Content-Type. */
  contentType: string;
  /** The full size in bytes. */
  size: number;
  /** Whether `text` holds only the start of the body. */
  truncated: boolean;
  /** The server's id of the full body (`POST /api/http/body`). */
  bodyId?: string;
  /** File name for Save. */
  fileName: string;
}

type Mode = "json" | "text" | "image" | "binary";

function modeOf(body: ViewedBody): Mode {
  const type = body.contentType.toLowerCase();
  if (type.startsWith("image/")) return "image";
  if (body.text === undefined && body.parts === undefined) return "binary";
  const start = body.text ?? body.parts?.parts[0] ?? "";
  if (/[/+]json\b/.test(type) || /^\s*[[{]/.test(start)) return "json";
  return "text";
}

/**
 * @param body a body
 * @returns its length in characters; of a body still arriving, the most it can have (exact on
 *   either side of {@link SLICE_CHARS}, a whole number of parts)
 */
function lengthOf(body: ViewedBody): number {
  return body.text?.length ?? (body.parts ? body.parts.count * BODY_PART : 0);
}

const JSON_EXTENSIONS = json();
const NO_EXTENSIONS: Extension = [];
/**
 * A large body: colours of the lines in view only (no parse of the whole document), and a
 * bracket's match looked for up to 2,000 characters away, not 10,000: with no syntax tree the
 * match is found by reading the text from the cursor, and this was done again at each append.
 */
const LARGE_JSON_EXTENSIONS = [visibleJsonMarks, bracketMatching({ maxScanDistance: 2_000 })];

/**
 * @param props the body (a signal: undefined while there is none), the editor's label
 * @returns the viewer with its toolbar
 */
export function ResponseViewer(
  props: {
    body: Signal<ViewedBody | undefined>;
    label: string;
    placeholder: string;
    /** Marks on the body (a Send's OpenAPI violations). */
    marks?: Extension;
  },
): JSX.Element {
  const view = useSignal<EditorView | null>(null);
  const state = useViewerState(props.body, view);
  // Started with the viewer: a large body's first screen does not wait for the worker's load.
  useEffect(() => void jsonWorker(), []);
  const body = props.body.value;
  const mode = body ? modeOf(body) : "text";
  const language = mode === "json" && !state.raw.value
    ? body && lengthOf(body) > SLICE_CHARS ? LARGE_JSON_EXTENSIONS : JSON_EXTENSIONS
    : NO_EXTENSIONS;
  // The same extensions from one render to the next: the editor reconfigures only on a change.
  const extensions = useMemo(
    () => props.marks ? [language, props.marks] : language,
    [language, props.marks],
  );
  return (
    <div class="response-viewer" data-formatting={state.formatting.value ? "true" : undefined}>
      <div class="bar viewer-bar" role="toolbar" aria-label="Viewer tools">
        {body?.truncated && (
          <span class="preview-label" role="note">
            Preview: the first {formatSize(lengthOf(body))} of {formatSize(body.size)}
          </span>
        )}
        {(mode === "json" || mode === "text") && (
          <button
            type="button"
            aria-pressed={state.raw.value}
            onClick={() => state.raw.value = !state.raw.value}
            disabled={body?.text === undefined}
          >
            Raw
          </button>
        )}
        <button
          type="button"
          // A large body is in the editor only (appended as it was formatted).
          onClick={() => void copy(view.peek()?.state.doc.toString() ?? state.shown.peek())}
          // Not a half-formatted document: Copy waits for the whole of it.
          disabled={!body || state.formatting.value}
        >
          Copy
        </button>
        <button
          type="button"
          onClick={() => body && void save(body)}
          // A body still arriving is saved once it is in.
          disabled={!body || (body.parts !== undefined && body.text === undefined)}
        >
          Save
        </button>
        {state.note.value && <span class="note" role="status">{state.note.value}</span>}
      </div>
      {mode === "image" && body?.bodyId && <BodyImage id={body.bodyId} />}
      {mode !== "image" && (
        <CodeEditor
          label={props.label}
          value={state.shown}
          readOnly
          extensions={extensions}
          class="viewer"
          placeholder={props.placeholder}
          onView={(v) => view.value = v}
        />
      )}
    </div>
  );

  async function copy(text: string) {
    await navigator.clipboard?.writeText(text).catch(() => {});
    state.note.value = "Copied";
  }

  async function save(b: ViewedBody) {
    const blob = b.bodyId
      ? await (await post("/api/http/body", { id: b.bodyId })).blob()
      : new Blob([b.text ?? ""], { type: b.contentType || "text/plain" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = b.fileName;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
    // A body over the server's cap is not kept: only its preview can be saved, and the page says so.
    state.note.value = b.truncated && !b.bodyId
      ? `Saved the ${formatSize(blob.size)} preview only: dial ui keeps bodies up to ${
        formatSize(MAX_KEPT_BODY)
      } (use dial -o for the whole body)`
      : `Saved ${formatSize(blob.size)}`;
  }
}

function useViewerState(
  body: Signal<ViewedBody | undefined>,
  view: Signal<EditorView | null>,
) {
  const raw = useSignal(false);
  const note = useSignal<string | undefined>(undefined);
  const shown = useSignal("");
  const hex = useSignal<string | undefined>(undefined);
  /** Whether a large JSON body is still being formatted (its first screen shown). */
  const formatting = useSignal(false);
  // What to show, and for a large JSON body the text to format in slices.
  const text = useComputed((): { now: string; large?: ViewedBody } => {
    const b = body.value;
    if (!b) return { now: "" };
    if (modeOf(b) === "binary") {
      return { now: hex.value ?? `(binary body of ${formatSize(b.size)})` };
    }
    // A body that is not formatted in the worker is shown once all of it is in.
    if (raw.value || modeOf(b) !== "json") return { now: b.text ?? "" };
    if (lengthOf(b) <= SLICE_CHARS) {
      return { now: b.text === undefined ? "" : prettyIfJson(b.text, b.truncated) };
    }
    return { now: "", large: b };
  });
  // The editor too: a body may come before the editor is made (the effects' order).
  const job = useComputed(() => ({ t: text.value, editor: view.value }));
  // Subscribed before the first paint: a body's first part goes to the worker at once.
  useLayoutEffect(() => {
    let stop: (() => void) | undefined;
    /** The parts being formatted. */
    let feeding: BodyParts | undefined;
    const unsubscribe = job.subscribe(({ t, editor }) => {
      // The same body, now whole (its last part came): its formatting goes on.
      if (t.large?.parts !== undefined && t.large.parts === feeding) return;
      stop?.();
      stop = undefined;
      feeding = undefined;
      note.value = undefined;
      if (!t.large) {
        formatting.value = false;
        shown.value = t.now;
        return;
      }
      formatting.value = true;
      shown.value = "";
      if (!editor) return;
      // The document is built in pieces: each is appended as the worker sends it.
      // Out of the undo history: a read-only viewer's appends are not edits to undo.
      const replace = (text: string | Text, from = 0) =>
        editor.dispatch({
          changes: { from, to: editor.state.doc.length, insert: text },
          annotations: Transaction.addToHistory.of(false),
        });
      const parts = feeding = t.large.parts ?? BodyParts.of(t.large.text ?? "");
      replace("");
      // The first screen, formatted here (the worker's first message is the same text), shown in
      // the next task: the editor may have been made in this one.
      const screen = firstScreen(parts.parts[0] ?? "");
      let early: string | undefined;
      const showing = screen === undefined
        ? undefined
        : setTimeout(() => replace(lines(early = screen)));
      const stopWorker = formatInWorker(parts, t.large.truncated, (answer) => {
        clearTimeout(showing);
        if ("failed" in answer) replace(parts.text());
        else if (early === undefined) replace(lines(answer.chunk), editor.state.doc.length);
        else if (answer.chunk !== early) replace(lines(answer.chunk));
        early = undefined;
        if ("failed" in answer || answer.done) formatting.value = false;
      });
      stop = () => {
        clearTimeout(showing);
        stopWorker();
      };
    });
    return () => {
      stop?.();
      unsubscribe();
    };
  }, []);
  useEffect(() =>
    body.subscribe((b) => {
      hex.value = undefined;
      if (b?.text === undefined && b?.bodyId && modeOf(b) === "binary") {
        void hexPreview(b.bodyId).then((h) => hex.value = h);
      }
    }), []);
  return { raw, note, shown, formatting };
}

/**
 * @param text formatted JSON (its lines end in "\n" only)
 * @returns it as a document: split by a string, not by the pattern CodeMirror splits a string
 *   with (which took as long as the rest of an append)
 */
function lines(text: string): Text {
  return Text.of(text.split("\n"));
}

/**
 * JSON bodies longer than this are formatted in the worker, their first screen shown first (a
 * multiple of `BODY_PART`: a body still in parts is known to be longer or not).
 */
export const SLICE_CHARS = 4 * BODY_PART;

let worker: Worker | undefined;
let lastId = 0;

let warmed = false;

/**
 * Readies the viewer for a body, as a request is sent: starts the viewers' worker (a long body's
 * first part then does not wait for it) and, once per page, in tasks of its own, runs the large
 * viewer's editor code on a sample (a long body's first screen, its editor made and its first
 * piece appended in the first part's task, then runs compiled code).
 */
export function prepareViewer(): void {
  jsonWorker();
  if (warmed) return;
  warmed = true;
  void (async () => {
    await nextTask();
    const sample = Array.from({ length: 150 }, (_, i) => ({ id: i, name: `item ${i}`, ok: true }));
    const screen = firstScreen(JSON.stringify(sample)) ?? "";
    await nextTask();
    // A few lines: an editor off the page draws every line (it has no screen to measure).
    const few = screen.split("\n").slice(0, 24).join("\n");
    await warmEditorCode(LARGE_JSON_EXTENSIONS, few, nextTask);
  })();
}

/** @returns the viewers' one worker, started at the first call */
function jsonWorker(): Worker {
  if (worker) return worker;
  const started = worker = new Worker("/json_worker.js", { type: "module" });
  // One that failed is started again for the next body.
  started.addEventListener("error", () => worker === started && (worker = undefined));
  return started;
}

/**
 * Pretty-prints a large JSON body in the viewer's worker (`json_worker.ts`, the CLI's
 * streaming printer), each part as it arrives: the page's thread only hands over parts and
 * appends the pieces the worker sends, the first screen first. A body that turns out not to be
 * JSON is shown as it is once all of it is in.
 *
 * @param parts the body (its text is JSON, or starts like it)
 * @param truncated whether the body is only the start of the response's
 * @param take called with each piece, in order
 * @returns stops formatting (another body, or Raw)
 */
function formatInWorker(
  parts: BodyParts,
  truncated: boolean,
  take: (answer: FormatAnswer) => void,
): () => void {
  const id = ++lastId;
  const running = jsonWorker();
  let done = false;
  let failed = false;
  let sent = 0;
  const finish = () => {
    done = true;
    running.removeEventListener("message", listen);
    running.removeEventListener("error", fail);
    unlisten();
  };
  // Each part goes to the worker as it arrives; after a failure, the body is shown once whole.
  const feed = () => {
    if (failed) {
      if (parts.done && !done) {
        finish();
        take({ id, failed: true });
      }
      return;
    }
    while (sent < parts.parts.length) {
      const part = parts.parts[sent]!;
      const request: FormatRequest = { id, part, last: ++sent === parts.count, truncated };
      running.postMessage(request);
    }
  };
  const fail = () => {
    failed = true;
    feed();
  };
  const listen = (event: MessageEvent<FormatAnswer>) => {
    if (event.data.id !== id) return;
    if ("failed" in event.data) return fail();
    if (event.data.done === true) finish();
    take(event.data);
  };
  running.addEventListener("message", listen);
  // A worker that cannot load or run: the body is shown as it is.
  running.addEventListener("error", fail, { once: true });
  const unlisten = parts.listen(feed);
  feed();
  return () => {
    const stopped = !done;
    finish();
    // A body still being formatted is dropped with its worker: the next body starts at once.
    if (stopped && worker === running) {
      running.terminate();
      worker = undefined;
    }
  };
}

async function hexPreview(id: string): Promise<string> {
  const bytes = new Uint8Array(await (await post("/api/http/body", { id })).arrayBuffer());
  const lines: string[] = [];
  const shown = bytes.subarray(0, 64 * 1024);
  for (let i = 0; i < shown.length; i += 16) {
    const row = shown.subarray(i, i + 16);
    const hexPart = [...row].map((b) => b.toString(16).padStart(2, "0")).join(" ");
    const ascii = [...row].map((b) => b >= 32 && b < 127 ? String.fromCharCode(b) : ".").join("");
    lines.push(`${i.toString(16).padStart(8, "0")}  ${hexPart.padEnd(47)}  ${ascii}`);
  }
  if (bytes.length > shown.length) lines.push(`… ${formatSize(bytes.length)} in all`);
  return lines.join("\n");
}

function BodyImage(props: { id: string }): JSX.Element {
  const src = useSignal<string | undefined>(undefined);
  useEffect(() => {
    let url: string | undefined;
    void post("/api/http/body", { id: props.id }).then((r) => r.blob()).then((blob) => {
      url = URL.createObjectURL(blob);
      src.value = url;
    });
    return () => url && URL.revokeObjectURL(url);
  }, [props.id]);
  return src.value ? <img class="body-image" src={src.value} alt="Response image" /> : <p>…</p>;
}
