/**
 * The WebSocket composer: text, JSON (validated, Format) or binary (hex or base64), sent with
 * Ctrl/Cmd+Enter, and saved messages to resend.
 * @module
 */
import { computed, type Signal, signal } from "@preact/signals";
import type { JSX } from "preact";
import { json } from "@codemirror/lang-json";
import { prettyJson } from "../../../output/json.ts";
import { CodeEditor } from "../code_editor.tsx";
import { SelectField } from "../fields.tsx";
import { isString, jsonWithoutSecrets, persisted } from "../storage.ts";
import { parseBase64, parseHex } from "../stream/binary.ts";

/** How the composer's text is read. */
export type ComposeMode = "text" | "json" | "hex" | "base64";

const MODES: ReadonlyArray<[ComposeMode, string]> = [
  ["text", "Text"],
  ["json", "JSON"],
  ["hex", "Binary (hex)"],
  ["base64", "Binary (base64)"],
];

/** A message kept for resending. */
export interface SavedMessage {
  mode: ComposeMode;
  text: string;
}

const isMode = (v: unknown): v is ComposeMode => MODES.some(([m]) => m === v);
const isSaved = (v: unknown): v is SavedMessage[] =>
  Array.isArray(v) &&
  v.every((m) => typeof m === "object" && m !== null && isMode(m.mode) && isString(m.text));

const mode = persisted<ComposeMode>("ws.mode", "text", isMode);
// The draft stays in memory: a connection_init payload often carries a token. Saved messages
// are kept because the user asked for it (or a file holds them), under the drafts' rules.
const draft = signal("");

/**
 * @param messages saved messages
 * @returns them as browser storage keeps them: a credential-named member's literal value blanked
 *   (a file's request gets it back from its file), `{{references}}` and the rest as written
 */
export function messagesWithoutSecrets<M extends { mode: string; text: string }>(
  messages: M[],
): M[] {
  return messages.map((m) =>
    m.mode === "text" || m.mode === "json" ? { ...m, text: jsonWithoutSecrets(m.text) } : m
  );
}

/** The saved messages; a request file's WEBSOCKET messages fill them and are saved from them. */
export const savedMessages = persisted<SavedMessage[]>(
  "ws.saved",
  [],
  isSaved,
  messagesWithoutSecrets,
);
const saved = savedMessages;

/** What to put on the wire: `{text}` or `{base64}`. */
export type Outgoing = { text: string } | { base64: string };

/**
 * @param message a mode and its text
 * @returns the message to send, or an error in words
 */
export function encodeMessage(message: SavedMessage): Outgoing | { error: string } {
  try {
    switch (message.mode) {
      case "text":
        return { text: message.text };
      case "json":
        JSON.parse(message.text);
        return { text: message.text };
      case "hex":
        return { base64: parseHex(message.text).toBase64() };
      case "base64":
        return { base64: parseBase64(message.text).toBase64() };
    }
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { error: message.mode === "json" ? `Invalid JSON: ${why}` : why };
  }
}

const problem = computed(() => {
  if (draft.value === "") return undefined;
  const result = encodeMessage({ mode: mode.value, text: draft.value });
  return "error" in result ? result.error : undefined;
});

/**
 * @param props `canSend` (the connection is open) and `onSend`
 * @returns the composer and the saved messages
 */
export function WsComposer(props: {
  canSend: Signal<boolean>;
  onSend: (message: Outgoing) => void;
}): JSX.Element {
  const sendMessage = (message: SavedMessage): boolean => {
    const result = encodeMessage(message);
    if ("error" in result || !props.canSend.value) return false;
    props.onSend(result);
    return true;
  };
  const sendDraft = () => sendMessage({ mode: mode.value, text: draft.value });
  return (
    <section class="composer" aria-label="Compose">
      <div class="request-line">
        <SelectField label="Message type" value={mode} options={MODES} />
        <button
          type="button"
          class="primary"
          disabled={!props.canSend.value || problem.value !== undefined}
          title="Ctrl/Cmd+Enter"
          onClick={sendDraft}
        >
          Send message
        </button>
        {mode.value === "json" && (
          <button
            type="button"
            disabled={problem.value !== undefined || draft.value === ""}
            onClick={() => draft.value = prettyJson(draft.value, false)}
          >
            Format
          </button>
        )}
        <button
          type="button"
          disabled={draft.value === "" || problem.value !== undefined}
          onClick={() => saved.value = [...saved.value, { mode: mode.value, text: draft.value }]}
        >
          Save message
        </button>
      </div>
      <CodeEditor
        label="Message"
        value={draft}
        extensions={mode.value === "json" ? json() : []}
        keys={[{ key: "Mod-Enter", run: () => (sendDraft(), true) }]}
        class="body-editor"
      />
      {problem.value && <p class="error" role="status">{problem.value}</p>}
      {saved.value.length > 0 && (
        <details open>
          <summary>Saved messages ({saved.value.length})</summary>
          <ul class="saved" aria-label="Saved messages">
            {saved.value.map((message, i) => (
              <li key={i}>
                <button
                  type="button"
                  disabled={!props.canSend.value}
                  aria-label={`Send saved message ${i + 1}`}
                  onClick={() => sendMessage(message)}
                >
                  Send
                </button>
                <button
                  type="button"
                  aria-label={`Edit saved message ${i + 1}`}
                  onClick={() => {
                    mode.value = message.mode;
                    draft.value = message.text;
                  }}
                >
                  Edit
                </button>
                <button
                  type="button"
                  class="icon"
                  aria-label={`Remove saved message ${i + 1}`}
                  onClick={() => saved.value = saved.value.filter((_, j) => j !== i)}
                >
                  ×
                </button>
                <code>{message.mode}</code> <span class="data">{message.text.slice(0, 200)}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
