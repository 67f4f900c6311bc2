/**
 * The response body viewer of the HTTP and GraphQL tabs: a focusable read-only CodeMirror
 * (Tab reaches it, Ctrl/Cmd+F searches), Copy, Save (the whole body, streamed from the
 * server when it keeps it), a Pretty/Raw toggle, a "preview" label when only the first 5 MiB
 * are shown, and a mode by content type (JSON, text, images shown, binary as hex).
 * @module
 */
import { type Signal, useComputed, useSignal } from "@preact/signals";
import type { JSX } from "preact";
import { useEffect } from "preact/hooks";
import { json } from "@codemirror/lang-json";
import { MAX_KEPT_BODY } from "../protocol.ts";
import { formatSize, post } from "./api.ts";
import { CodeEditor } from "./code_editor.tsx";
import { prettyIfJson } from "./response_meta.tsx";
import { JsonPrettyPrinter } from "../../output/json_stream.ts";

/** What the viewer shows. */
export interface ViewedBody {
  /** The body text (undefined for binary bodies). */
  text?: string;
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
  if (body.text === undefined) return "binary";
  if (/[/+]json\b/.test(type) || /^\s*[[{]/.test(body.text)) return "json";
  return "text";
}

const JSON_EXTENSIONS = json();

/**
 * @param props the body (a signal: undefined while there is none), the editor's label
 * @returns the viewer with its toolbar
 */
export function ResponseViewer(
  props: { body: Signal<ViewedBody | undefined>; label: string; placeholder: string },
): JSX.Element {
  const state = useViewerState(props.body);
  const body = props.body.value;
  const mode = body ? modeOf(body) : "text";
  return (
    <div class="response-viewer" data-formatting={state.formatting.value ? "true" : undefined}>
      <div class="bar viewer-bar" role="toolbar" aria-label="Viewer tools">
        {body?.truncated && (
          <span class="preview-label" role="note">
            Preview: the first {formatSize(body.text?.length ?? 0)} of {formatSize(body.size)}
          </span>
        )}
        {(mode === "json" || mode === "text") && (
          <button
            type="button"
            aria-pressed={state.raw.value}
            onClick={() => state.raw.value = !state.raw.value}
            disabled={!body}
          >
            Raw
          </button>
        )}
        <button type="button" onClick={() => void copy(state.shown.peek())} disabled={!body}>
          Copy
        </button>
        <button type="button" onClick={() => body && void save(body)} disabled={!body}>
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
          extensions={mode === "json" && !state.raw.value ? JSON_EXTENSIONS : []}
          class="viewer"
          placeholder={props.placeholder}
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

function useViewerState(body: Signal<ViewedBody | undefined>) {
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
    if (b.text === undefined) return { now: hex.value ?? `(binary body of ${formatSize(b.size)})` };
    if (raw.value || modeOf(b) !== "json") return { now: b.text };
    if (b.text.length <= SLICE_CHARS) return { now: prettyIfJson(b.text, b.truncated) };
    return { now: "", large: b };
  });
  useEffect(() => {
    let stop: (() => void) | undefined;
    const unsubscribe = text.subscribe((t) => {
      stop?.();
      stop = undefined;
      note.value = undefined;
      if (!t.large) {
        formatting.value = false;
        shown.value = t.now;
        return;
      }
      formatting.value = true;
      stop = formatInSlices(t.large, (formatted, done) => {
        shown.value = formatted;
        if (done) formatting.value = false;
      });
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

/** JSON bodies longer than this are formatted in slices, off the frames the page paints. */
const SLICE_CHARS = 256 * 1024;
/** The most time one slice may take (a long task is 50 ms). */
const SLICE_MS = 20;

/**
 * Pretty-prints a large JSON body by the CLI's streaming printer in slices of at most
 * {@link SLICE_MS}, each in its own task: the first screen (what the first slice printed) is
 * shown at once, the whole text when the last slice is done. A body that turns out not to be
 * JSON is shown as it is.
 *
 * @param body the body (its text is JSON, or starts like it)
 * @param show called with the first screen, then with the whole formatted text (`done`)
 * @returns stops formatting (another body, or Raw)
 */
function formatInSlices(
  body: ViewedBody,
  show: (text: string, done: boolean) => void,
): () => void {
  const source = body.text ?? "";
  const bytes = new TextEncoder().encode(source);
  const printer = new JsonPrettyPrinter({ color: false });
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let at = 0;
  let first = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const step = () => {
    const started = performance.now();
    try {
      while (at < bytes.length && performance.now() - started < SLICE_MS) {
        parts.push(
          decoder.decode(printer.push(bytes.subarray(at, at + 64 * 1024)), { stream: true }),
        );
        at += 64 * 1024;
      }
      if (at < bytes.length) {
        if (first) show(parts.join(""), false);
        first = false;
        timer = setTimeout(step);
        return;
      }
      if (!body.truncated) parts.push(decoder.decode(printer.end()));
      show(parts.join(""), true);
    } catch {
      show(source, true);
    }
  };
  step();
  return () => clearTimeout(timer);
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
