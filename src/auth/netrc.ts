/**
 * The netrc format (`machine`, `default`, `login`, `password`, `account`, `macdef`), as curl,
 * HTTPie and xh read it: credentials for a host name.
 * @module
 */
import { Secret } from "../secret.ts";

/** One `machine` (or the `default`) entry. */
export interface NetrcEntry {
  /** The host name; undefined for `default`. */
  machine?: string;
  /** The user name. */
  login: string;
  /** The password. */
  password: Secret;
}

/**
 * Parses netrc text. Tokens are separated by white space; a token may be double-quoted
 * (with `\"` and `\\`); `macdef` bodies run to the next blank line and are skipped.
 *
 * @param text the file's contents
 * @returns the entries in file order
 * @example
 * ```ts
 * parseNetrc("machine api.example.com login ann password s3cret")[0]?.login; // "ann"
 * ```
 */
export function parseNetrc(text: string): NetrcEntry[] {
  const entries: NetrcEntry[] = [];
  let current: { machine?: string; login?: string; password?: string } | undefined;
  const finish = () => {
    if (current && (current.login !== undefined || current.password !== undefined)) {
      entries.push({
        ...(current.machine !== undefined ? { machine: current.machine } : {}),
        login: current.login ?? "",
        password: new Secret(current.password ?? ""),
      });
    }
    current = undefined;
  };
  const tokens = tokenize(text);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const next = () => tokens[++i]?.value ?? "";
    switch (token.value) {
      case "machine":
        finish();
        current = { machine: next() };
        break;
      case "default":
        finish();
        current = {};
        break;
      case "login":
        if (current) current.login = next();
        else next();
        break;
      case "password":
        if (current) current.password = next();
        else next();
        break;
      case "account":
        next();
        break;
      case "macdef": {
        finish();
        next();
        // The body runs to the first blank line after the macdef line.
        const blank = text.indexOf("\n\n", token.end);
        const stop = blank < 0 ? text.length : blank;
        while (i + 1 < tokens.length && tokens[i + 1]!.start < stop) i++;
        break;
      }
    }
  }
  finish();
  return entries;
}

/**
 * @param entries parsed netrc entries
 * @param host the request's host name (no port)
 * @returns the first `machine` entry for the host, else the `default` entry
 */
export function netrcLookup(entries: NetrcEntry[], host: string): NetrcEntry | undefined {
  const name = host.toLowerCase();
  return entries.find((e) => e.machine?.toLowerCase() === name) ??
    entries.find((e) => e.machine === undefined);
}

interface Token {
  value: string;
  start: number;
  end: number;
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (i >= text.length) break;
    const start = i;
    let value = "";
    if (text[i] === '"') {
      i++;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === "\\" && i + 1 < text.length) i++;
        value += text[i++];
      }
      i++;
    } else if (text[i] === "#") {
      // A comment runs to the end of the line.
      while (i < text.length && text[i] !== "\n") i++;
      continue;
    } else {
      while (i < text.length && !/\s/.test(text[i]!)) value += text[i++];
    }
    tokens.push({ value, start, end: i });
  }
  return tokens;
}
