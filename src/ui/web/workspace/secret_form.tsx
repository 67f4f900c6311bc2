/**
 * "Set a secret": a variable of the chosen environment written into
 * `http-client.private.env.json` beside the active request's file, as a value or as a
 * reference (`@env:NAME` of dial ui's environment, `@path` of a file in the workspace). The
 * value goes to the server once and is forgotten: it is never kept in the page's storage, in
 * `.dial/` or in the public, committed file.
 * @module
 */
import { signal } from "@preact/signals";
import type { JSX } from "preact";
import { isRecord, postJson, toApiError } from "../api.ts";
import { Disclosure, type FormMessage, MessageLine, SelectField, TextField } from "../fields.tsx";
import { activeSource } from "./request_tabs.tsx";

type Kind = "value" | "env" | "path";
const KINDS: ReadonlyArray<[Kind, string]> = [
  ["value", "Value (kept in the private file)"],
  ["env", "Environment variable of dial ui (@env:NAME)"],
  ["path", "File in the workspace (@path)"],
];

const open = signal(false);
const name = signal("");
const kind = signal<Kind>("value");
const value = signal("");
const message = signal<FormMessage>(undefined);
/** The request file whose private env file is written (Set beside a tab's variable). */
const forFile = signal<string | undefined>(undefined);

/**
 * Opens the form for a variable.
 *
 * @param variable its name
 * @param file the request file it is used by (default: the HTTP tab's active one)
 */
export function setSecret(variable: string, file?: string): void {
  forFile.value = file;
  name.value = variable;
  value.value = "";
  message.value = undefined;
  open.value = true;
}

async function save(environment: string, reload: () => Promise<void>): Promise<void> {
  const file = forFile.peek() ?? activeSource.peek()?.path;
  // The last answer goes at once: what shows next is this save's.
  message.value = undefined;
  const text = value.peek();
  try {
    const answer = await postJson("/api/workspace/environments/secret", {
      environment,
      name: name.peek(),
      ...(file ? { file } : {}),
      ...(kind.peek() === "value" ? { value: text } : { [kind.peek()]: text }),
    });
    value.value = "";
    const saved = isRecord(answer) ? String(answer.saved) : "the private file";
    const note = isRecord(answer) && typeof answer.note === "string" ? ` (${answer.note})` : "";
    message.value = { text: `Saved {{${name.peek()}}} to ${saved}${note}`, error: false };
    await reload();
  } catch (error) {
    const e = toApiError(error);
    message.value = { text: `Not saved: ${e.message}${e.hint ? ` (${e.hint})` : ""}`, error: true };
  }
}

/**
 * @param props the chosen environment and how to read the environments again
 * @returns the Set a secret button and, when open, its form
 */
export function SecretForm(
  props: { environment: string; reload: () => Promise<void> },
): JSX.Element {
  return (
    <Disclosure
      class="secret-form"
      label="Set a secret"
      open={open}
      onOpen={() => forFile.value = undefined}
    >
      <section aria-label="Set a secret">
        {!props.environment && <p class="note">Choose an environment first.</p>}
        <TextField label="Variable" value={name} placeholder="token" />
        <SelectField label="Kept as" value={kind} options={KINDS} />
        <TextField
          label={kind.value === "value"
            ? "Secret value"
            : kind.value === "env"
            ? "Variable name"
            : "File path"}
          type={kind.value === "value" ? "password" : "text"}
          value={value}
        />
        <button
          type="button"
          disabled={!props.environment}
          onClick={() => void save(props.environment, props.reload)}
        >
          Save to private env file
        </button>
        <MessageLine message={message} />
      </section>
    </Disclosure>
  );
}
