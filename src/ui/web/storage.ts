/**
 * Drafts remembered across reloads and restarts: in localStorage (keys `dial.*`, per origin)
 * and, through the server, in the workspace's `.dial/ui-state.json`, which a restart on any
 * port (a new origin, with empty storage) and every other tab of the same `dial ui` read.
 * `workspace_state.ts` seeds localStorage from the workspace before the tabs load and is the
 * {@link setDraftSink}. Nothing
 * secret goes to either: the auth panel keeps its values in memory only, and before a draft is
 * written the literal values ({@link isLiteralSecret}) of headers, query parameters (in the
 * table and in URLs), form fields and JSON members whose names look like credentials
 * ({@link isSecretName}) are blanked, as is a literal password in a URL. `{{…}}` references
 * are not credential values: they are kept verbatim. {@link clearDrafts} forgets everything.
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

/** A `{{…}}` reference: a variable, a dynamic variable, a named request's response. */
const REFERENCE = /\{\{[^{}]*\}\}/g;

/**
 * The authorization schemes a credential-named value may start with (IANA's registry and
 * common ones), as in `Bearer {{token}}`.
 */
const SCHEME =
  /^\s*(?:basic|bearer|digest|dpop|hoba|mutual|negotiate|ntlm|oauth|privatetoken|scram-sha-1|scram-sha-256|vapid|token|apikey|api-key|jwt|hawk|aws4-hmac-sha256|sso)\s+/i;

/**
 * What a value may hold outside its references and still not be a credential: whitespace,
 * punctuation and symbols (quotes, `:`, `;`, `,`), and `name=` (a cookie's or a pair's name).
 */
const NOT_SECRET = /^(?:\uE000|[\p{L}\p{N}_.-]+=|[\s\p{P}\p{S}])*$/u;

/**
 * Whether a value under a credential name holds a literal secret, which browser storage
 * must never hold. A value made only of `{{…}}` references, with nothing but an auth scheme
 * (`Bearer {{token}}`), punctuation (`{{user}}:{{password}}`, `"{{password}}"`) or `name=`
 * (`sid={{sid}}`) around them, is not one: a reference is not a credential value, and it is
 * kept verbatim. Anything else (`Bearer abc123`, `{{user}}:hunter2`, `1234`) is.
 *
 * @param value the value (a JSON member's raw token, quotes included)
 * @returns true when the value must not be stored
 */
export function isLiteralSecret(value: string): boolean {
  const outside = value.replace(REFERENCE, "\uE000").replace(SCHEME, "");
  return !NOT_SECRET.test(outside);
}

/**
 * Called for each credential-named value ("slot") of a draft; returns the value to put there.
 * A slot's key names it stably (`header:authorization#0`, `url?api_key#0`, `url@password`,
 * `body:password#0`, `form:token#0`: the kind, the lower-cased name and its occurrence).
 */
export type SlotVisitor = (slot: string, value: string) => string;

/**
 * @param withheld collects the keys of the slots that were blanked
 * @returns a visitor that blanks literal secrets and keeps everything else
 */
export function blankLiterals(withheld?: string[]): SlotVisitor {
  return (slot, value) => {
    if (!isLiteralSecret(value)) return value;
    withheld?.push(slot);
    return "";
  };
}

function counter(): (name: string) => number {
  const seen = new Map<string, number>();
  return (name) => {
    const n = seen.get(name) ?? 0;
    seen.set(name, n + 1);
    return n;
  };
}

/**
 * @param rows header, query or form rows
 * @param kind the slots' kind (`header`, `form`, `row`)
 * @param visit called for each credential-named row
 * @returns the rows with the visitor's values
 */
export function visitRows<R extends { name: string; value: string }>(
  rows: R[],
  kind: string,
  visit: SlotVisitor,
): R[] {
  const next = counter();
  return rows.map((row) => {
    if (!isSecretName(row.name)) return row;
    const name = row.name.trim().toLowerCase();
    const value = visit(`${kind}:${name}#${next(name)}`, row.value);
    return value === row.value ? row : { ...row, value };
  });
}

/**
 * @param text a URL as typed (it may not be a valid URL yet)
 * @param visit called for the password and each credential-named query value
 * @returns the text with the visitor's values, the rest as typed
 */
export function visitUrl(text: string, visit: SlotVisitor): string {
  const withPassword = text.replace(
    /^([a-z][a-z0-9+.-]*:\/\/[^/?#@:]*:)([^/?#@]*)@/i,
    (_, before: string, password: string) => `${before}${visit("url@password", password)}@`,
  ).replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#@:]*):@/i, "$1@");
  const query = withPassword.indexOf("?");
  if (query < 0) return withPassword;
  const hash = withPassword.indexOf("#", query);
  const end = hash < 0 ? withPassword.length : hash;
  const next = counter();
  const pairs = withPassword.slice(query + 1, end).split("&").map((pair) => {
    const eq = pair.indexOf("=");
    if (eq < 0) return pair;
    let name = pair.slice(0, eq);
    try {
      name = decodeURIComponent(name.replaceAll("+", " "));
    } catch {
      // keep it encoded
    }
    if (!isSecretName(name)) return pair;
    const key = name.trim().toLowerCase();
    return `${pair.slice(0, eq)}=${visit(`url?${key}#${next(key)}`, pair.slice(eq + 1))}`;
  });
  return `${withPassword.slice(0, query + 1)}${pairs.join("&")}${withPassword.slice(end)}`;
}

/** A JSON string, possibly not closed yet (half-typed). */
const STRING = /"(?:[^"\\\n]|\\.)*"?/y;
const COLON = /\s*:\s*/y;
/** A member's value: a string, a `{{reference}}`, or another scalar. */
const VALUE = /"(?:[^"\\\n]|\\.)*"?|\{\{[^{}]*\}\}|[^\s,{}[\]"]+/y;

/**
 * Visits the scalar values of credential-named members of a JSON text, at any depth, in text
 * that is not (yet) JSON too; nothing else changes (no re-indenting).
 *
 * @param text a JSON body or variables
 * @param visit called with each such value's raw token (a string with its quotes)
 * @param kind the slots' kind
 * @returns the text with the visitor's values
 */
export function visitJson(text: string, visit: SlotVisitor, kind = "body"): string {
  const next = counter();
  let out = "";
  let copied = 0;
  let at = 0;
  while (at < text.length) {
    if (text.startsWith("{{", at)) {
      const close = text.indexOf("}}", at + 2);
      at = close < 0 ? text.length : close + 2;
      continue;
    }
    if (text[at] !== '"') {
      at++;
      continue;
    }
    STRING.lastIndex = at;
    const key = STRING.exec(text)![0];
    at += key.length;
    COLON.lastIndex = at;
    const colon = key.length > 1 && key.endsWith('"') ? COLON.exec(text) : null;
    if (!colon) continue;
    at += colon[0].length;
    let name = key.slice(1, -1);
    try {
      name = JSON.parse(key);
    } catch {
      // an invalid escape: the raw name
    }
    if (!isSecretName(name)) continue;
    VALUE.lastIndex = at;
    const value = VALUE.exec(text)?.[0];
    if (value === undefined) continue;
    const slot = name.trim().toLowerCase();
    // A blanked value stays JSON: an empty string.
    const replaced = visit(`${kind}:${slot}#${next(slot)}`, value) || '""';
    if (replaced !== value) {
      out += text.slice(copied, at) + replaced;
      copied = at + value.length;
    }
    at += value.length;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * @param rows header, query or form rows
 * @returns the rows with literal credential values blanked ({@link isLiteralSecret}), for
 *   storage
 */
export function withoutSecrets<R extends { name: string; value: string }>(rows: R[]): R[] {
  return visitRows(rows, "row", blankLiterals());
}

/**
 * Blanks literal credential query values and a literal password in a URL, keeping the rest
 * of the text as typed (it may not be a valid URL yet) and every `{{…}}` reference.
 *
 * @param text a URL as typed
 * @returns the text to store
 */
export function urlWithoutSecrets(text: string): string {
  return visitUrl(text, blankLiterals());
}

/**
 * Blanks the literal values of credential-named members of a JSON text, at any depth; in
 * text that is not (yet) JSON, the string after each such key. Everything else, `{{…}}`
 * references among it, is kept as typed.
 *
 * @param text a JSON body or variables
 * @returns the text to store
 */
export function jsonWithoutSecrets(text: string): string {
  return visitJson(text, blankLiterals());
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
