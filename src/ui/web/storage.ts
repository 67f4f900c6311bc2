/**
 * Drafts remembered across reloads and restarts: in localStorage (keys `dial.*`, per origin)
 * and, through the server, in the workspace's `.dial/ui-state.json`, which a restart on any
 * port (a new origin, with empty storage) and every other tab of the same `dial ui` read.
 * `workspace_state.ts` seeds localStorage from the workspace before the tabs load and is the
 * {@link setDraftSink}. Nothing
 * secret goes to either: the auth panel keeps its values in memory only, and before a draft is written the
 * values of headers, query parameters (in the table and in URLs), form fields and JSON members
 * whose names look like credentials ({@link isSecretName}) are blanked, as is a password in a
 * URL. {@link clearDrafts} forgets everything.
 * @module
 */
import { effect, type Signal, signal } from "@preact/signals";
import { isCredentialName } from "../../credential_name.ts";
import type { Row as ProtocolRow } from "../protocol.ts";

/** The prefix of every key this app writes to localStorage. */
const PREFIX = "dial.";

/** Set by {@link clearDrafts}: nothing is written until the page reloads. */
let cleared = false;

/** Where changed drafts also go (the workspace, through the server); set by the app. */
let sink: ((key: string, text: string) => void) | undefined;

/**
 * @param send called with each changed draft's key (without prefix) and JSON text
 */
export function setDraftSink(send: (key: string, text: string) => void): void {
  sink = send;
}

/**
 * A signal loaded from and saved to localStorage.
 *
 * @param key the storage key (prefixed with `dial.`)
 * @param initial the value when nothing is stored
 * @param check validates what was stored (it may be old or edited)
 * @param save what to store, e.g. without secrets; default the value itself
 * @returns the signal
 */
export function persisted<T>(
  key: string,
  initial: T,
  check: (value: unknown) => value is T,
  save: (value: T) => T = (value) => value,
): Signal<T> {
  let start = initial;
  try {
    const text = localStorage.getItem(`${PREFIX}${key}`);
    if (text !== null) {
      const value: unknown = JSON.parse(text);
      if (check(value)) start = value;
    }
  } catch {
    // storage unavailable or corrupt: start fresh
  }
  const state = signal(start);
  let first = true;
  effect(() => {
    const text = JSON.stringify(save(state.value));
    if (cleared) return;
    // The first run only writes back what was loaded (or the default): nothing changed.
    if (!first) sink?.(key, text);
    first = false;
    try {
      localStorage.setItem(`${PREFIX}${key}`, text);
    } catch {
      // quota or privacy mode: nothing to do
    }
  });
  return state;
}

/** A name/value row of a table (headers, query parameters, form fields). */
export type Row = Required<ProtocolRow>;

/**
 * @param value anything
 * @returns whether it is a list of rows
 */
export function isRows(value: unknown): value is Row[] {
  return Array.isArray(value) &&
    value.every((row) =>
      typeof row === "object" && row !== null && typeof row.name === "string" &&
      typeof row.value === "string" && typeof row.enabled === "boolean"
    );
}

/**
 * @param value anything
 * @returns whether it is a string
 */
export function isString(value: unknown): value is string {
  return typeof value === "string";
}

/**
 * The credential rule for drafts: the one rule the HTTP client uses for redaction and
 * redirects ({@link isCredentialName}).
 *
 * @param name a header, query parameter, form field or JSON member name
 * @returns whether its value must not be stored
 */
export function isSecretName(name: string): boolean {
  return isCredentialName(name);
}

/**
 * @param rows header, query or form rows
 * @returns the rows with credential-looking values blanked, for storage
 */
export function withoutSecrets(rows: Row[]): Row[] {
  return rows.map((row) => isSecretName(row.name) ? { ...row, value: "" } : row);
}

/**
 * Blanks credential-looking query values and a password in a URL, keeping the rest of the
 * text as typed (it may not be a valid URL yet).
 *
 * @param text a URL as typed
 * @returns the text to store
 */
export function urlWithoutSecrets(text: string): string {
  const withoutPassword = text.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#@:]*):[^/?#@]*@/i, "$1@");
  const query = withoutPassword.indexOf("?");
  if (query < 0) return withoutPassword;
  const hash = withoutPassword.indexOf("#", query);
  const end = hash < 0 ? withoutPassword.length : hash;
  const pairs = withoutPassword.slice(query + 1, end).split("&").map((pair) => {
    const eq = pair.indexOf("=");
    if (eq < 0) return pair;
    let name = pair.slice(0, eq);
    try {
      name = decodeURIComponent(name.replaceAll("+", " "));
    } catch {
      // keep it encoded
    }
    return isSecretName(name) ? `${pair.slice(0, eq)}=` : pair;
  });
  return `${withoutPassword.slice(0, query + 1)}${pairs.join("&")}${withoutPassword.slice(end)}`;
}

/**
 * Blanks the values of credential-looking members of a JSON text, at any depth; in text that
 * is not (yet) JSON, the string after each such key. Text without one is kept as typed.
 *
 * @param text a JSON body or variables
 * @returns the text to store
 */
export function jsonWithoutSecrets(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Half-typed JSON: blank the string after each credential-named key, closed or not.
    return text.replace(
      /("((?:[^"\\]|\\.)*)"\s*:\s*)"(?:[^"\\]|\\.)*"?/g,
      (pair, prefix: string, name: string) => isSecretName(name) ? `${prefix}""` : pair,
    );
  }
  let found = false;
  const scrub = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(scrub);
    if (typeof node !== "object" || node === null) return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, member]) => {
        if (isSecretName(key) && (typeof member !== "object" || member === null)) {
          found = true;
          return [key, ""];
        }
        return [key, scrub(member)];
      }),
    );
  };
  const scrubbed = scrub(value);
  return found ? JSON.stringify(scrubbed, null, 2) : text;
}

/**
 * "Clear saved drafts": removes every `dial.*` key from localStorage and stops writing until
 * the page reloads, so what is on screen now is not saved again.
 */
export function clearDrafts(): void {
  cleared = true;
  for (let i = localStorage.length - 1; i >= 0; i--) {
    const key = localStorage.key(i);
    if (key?.startsWith(PREFIX)) localStorage.removeItem(key);
  }
}
