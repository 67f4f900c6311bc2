/**
 * The response body viewer of the HTTP and GraphQL tabs: a focusable read-only CodeMirror
 * (Tab reaches it, Ctrl/Cmd+F searches), Copy, Save (the whole body, streamed from the
 * server when it keeps it), a Pretty/Raw toggle, a "preview" label when only the first 5 MiB
 * are shown, and a mode by content type (JSON, text, images shown, binary as hex). A large JSON
 * body is formatted in a worker as its parts arrive and shown in a window of its lines
 * (`body_window.tsx`); its first screen is formatted on the page's thread, in the task after its
 * first part arrives.
 * @module
 */
import { type Signal, useComputed, useSignal } from "@preact/signals";
import type { JSX } from "preact";
import { useEffect, useMemo, useRef } from "preact/hooks";
import { json } from "@codemirror/lang-json";
import type { EditorView } from "@codemirror/view";
import type { Extension } from "@codemirror/state";
import { BODY_PART, MAX_KEPT_BODY } from "../protocol.ts";
import { formatSize, post } from "./api.ts";
import { CodeEditor } from "./code_editor.tsx";
import { prettyIfJson } from "./response_meta.tsx";
import { BodyWindow, type BodyWindowEvents } from "./body_window.tsx";

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
  const state = useViewerState(props.body);
  const body = props.body.value;
  const mode = body ? modeOf(body) : "text";
  const large = body && !state.raw.value && state.large.value;
  const language = mode === "json" && !state.raw.value ? JSON_EXTENSIONS : NO_EXTENSIONS;
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
          // A large body's whole text, not the window the editor holds.
          onClick={() =>
            void copy(
              large
                ? state.whole()
                : Promise.resolve(view.peek()?.state.doc.toString() ?? state.shown.peek()),
            )}
          // Not a half-formatted document: Copy waits for the whole of it.
          disabled={!body || state.formatting.value}
        >
          Copy
        </button>
        <button
          type="button"
          onClick={() => body && void save(body).then((saved) => state.note.value = saved)}
          // A body still arriving is saved once it is in.
          disabled={!body || (body.parts !== undefined && body.text === undefined)}
        >
          Save
        </button>
        {state.note.value && <span class="note" role="status">{state.note.value}</span>}
      </div>
      {mode === "image" && body?.bodyId && <BodyImage id={body.bodyId} />}
      {large && (
        <BodyWindow
          parts={state.large.value!}
          truncated={body.truncated}
          label={props.label}
          events={state.events}
        />
      )}
      {mode !== "image" && !large && (
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

  async function copy(text: Promise<string>) {
    await navigator.clipboard?.writeText(await text).catch(() => {});
    state.note.value = "Copied";
  }
}

/**
 * Saves a body: the whole of it, streamed from the server when it keeps it.
 *
 * @param b the body
 * @returns what to tell the user
 */
async function save(b: ViewedBody): Promise<string> {
  const blob = b.bodyId
    ? await (await post("/api/http/body", { id: b.bodyId })).blob()
    : new Blob([b.text ?? ""], { type: b.contentType || "text/plain" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = b.fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  // A body over the server's cap is not kept: only its preview can be saved, and the page says so.
  return b.truncated && !b.bodyId
    ? `Saved the ${formatSize(blob.size)} preview only: dial ui keeps bodies up to ${
      formatSize(MAX_KEPT_BODY)
    } (use dial -o for the whole body)`
    : `Saved ${formatSize(blob.size)}`;
}

function useViewerState(body: Signal<ViewedBody | undefined>) {
  const raw = useSignal(false);
  const note = useSignal<string | undefined>(undefined);
  const shown = useSignal("");
  const hex = useSignal<string | undefined>(undefined);
  /** Whether a large JSON body is still being formatted (its first screen shown). */
  const formatting = useSignal(false);
  /** The large body whose text turned out not to be JSON (shown as it is). */
  const failed = useSignal<BodyParts | undefined>(undefined);
  /** A large JSON body (its parts, the same object while it arrives and once whole). */
  const large = useComputed((): BodyParts | undefined => {
    const b = body.value;
    if (!b || modeOf(b) !== "json" || lengthOf(b) <= SLICE_CHARS) return undefined;
    const parts = b.parts ?? partsOf(b.text ?? "");
    return parts === failed.value ? undefined : parts;
  });
  /** What gives a large body's whole formatted text, once formatted. */
  const whole = useRef(() => Promise.resolve(""));
  const events = useMemo((): BodyWindowEvents => ({
    formatting: (text) => {
      whole.current = text ?? (() => Promise.resolve(""));
      formatting.value = text === undefined;
    },
    failed: () => {
      formatting.value = false;
      failed.value = large.peek();
    },
    copied: () => note.value = "Copied",
  }), []);
  // What the editor shows when the body is not in a window.
  const text = useComputed((): string => {
    const b = body.value;
    if (!b) return "";
    if (modeOf(b) === "binary") return hex.value ?? `(binary body of ${formatSize(b.size)})`;
    if (
      raw.value || modeOf(b) !== "json" || large.value === undefined && lengthOf(b) > SLICE_CHARS
    ) {
      // A body not formatted in the worker (or not JSON after all) is shown once all of it is in.
      return b.text ?? "";
    }
    return large.value || b.text === undefined ? "" : prettyIfJson(b.text, b.truncated);
  });
  useEffect(() => text.subscribe((t) => shown.value = t), []);
  useEffect(() => body.subscribe(() => note.value = undefined), []);
  useEffect(() =>
    body.subscribe((b) => {
      hex.value = undefined;
      if (b?.text === undefined && b?.bodyId && modeOf(b) === "binary") {
        void hexPreview(b.bodyId).then((h) => hex.value = h);
      }
    }), []);
  return { raw, note, shown, formatting, large, events, whole: () => whole.current() };
}

/** The parts of a whole body's text, the same object for the same text. */
let lastParts: { text: string; parts: BodyParts } | undefined;
function partsOf(text: string): BodyParts {
  if (lastParts?.text !== text) lastParts = { text, parts: BodyParts.of(text) };
  return lastParts.parts;
}

/**
 * JSON bodies longer than this are formatted in the worker, their first screen shown first (a
 * multiple of `BODY_PART`: a body still in parts is known to be longer or not).
 */
export const SLICE_CHARS = 4 * BODY_PART;

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
