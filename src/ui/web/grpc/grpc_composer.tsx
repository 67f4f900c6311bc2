/**
 * The gRPC tab's composer for a client- or bidi-streaming call left open ("Open stream"), as
 * `dial grpc -d @-` reads a terminal: each message is sent when you say so while the call runs
 * (`POST /api/grpc/send`; several JSON documents are several messages), the server's replies
 * come in between, "End sending" half-closes (`POST /api/grpc/end`) and the status follows.
 * A message that does not fit the request type is refused in words and the call goes on.
 * @module
 */
import { signal } from "@preact/signals";
import type { JSX } from "preact";
import { json, jsonParseLinter } from "@codemirror/lang-json";
import { linter } from "@codemirror/lint";
import { postJson } from "../api.ts";
import { CodeEditor } from "../code_editor.tsx";

/** The call that takes messages now: its id, method kind, and whether sending has ended. */
export const openCall = signal<{ id: string; kind: string; ended: boolean } | undefined>(
  undefined,
);
// The draft stays in memory (it may hold a token), as the WebSocket composer's does.
const draft = signal("");
const problem = signal<string | undefined>(undefined);
const pending = signal(false);
const EXTENSIONS = [json(), linter(jsonParseLinter())];

/**
 * The call is open: the composer starts from the tab's message when it has no draft yet.
 *
 * @param id the call
 * @param kind its method's kind
 * @param message the tab's message
 */
export function callOpened(id: string, kind: string, message: string): void {
  openCall.value = { id, kind, ended: false };
  problem.value = undefined;
  if (draft.peek().trim() === "") draft.value = message;
}

async function act(path: string, body: Record<string, unknown>): Promise<void> {
  const call = openCall.peek();
  if (!call || call.ended || pending.peek()) return;
  pending.value = true;
  problem.value = undefined;
  try {
    await postJson(path, { ...body, call: call.id });
  } catch (error) {
    problem.value = error instanceof Error ? error.message : String(error);
  } finally {
    pending.value = false;
  }
}

const send = () => act("/api/grpc/send", { body: draft.peek() });

async function endSending(): Promise<void> {
  await act("/api/grpc/end", {});
  const call = openCall.peek();
  if (call && problem.peek() === undefined) openCall.value = { ...call, ended: true };
}

/** @returns the composer while a call is open, else nothing */
export function GrpcComposer(): JSX.Element | null {
  const call = openCall.value;
  if (!call) return null;
  const idle = call.ended || pending.value;
  return (
    <section class="composer" aria-label="Stream messages">
      <div class="request-line">
        <span>
          {call.ended
            ? "Sending ended: the replies and the status follow"
            : "Stream open: send messages one at a time"}
        </span>
        <button
          type="button"
          class="primary"
          title="Ctrl/Cmd+Enter"
          disabled={idle}
          onClick={() => void send()}
        >
          Send message
        </button>
        <button type="button" disabled={idle} onClick={() => void endSending()}>
          End sending
        </button>
      </div>
      <CodeEditor
        value={draft}
        label="Stream message"
        extensions={EXTENSIONS}
        keys={[{ key: "Mod-Enter", run: () => (void send(), true) }]}
        class="body-editor"
      />
      {problem.value && <p class="error" role="alert">{problem.value}</p>}
    </section>
  );
}
