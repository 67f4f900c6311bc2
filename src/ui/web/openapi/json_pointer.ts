/**
 * Where a JSON pointer's value is in a JSON text: the characters of the value, found by
 * scanning the text (any layout: pretty or raw), or those of its nearest ancestor that exists
 * (a required property that is missing is marked at the object that lacks it).
 * @see https://www.rfc-editor.org/rfc/rfc6901
 * @module
 */

/** A value's characters in the text. */
export interface PointerRange {
  from: number;
  to: number;
  /** Whether it is the pointer's own value (false: an ancestor's). */
  exact: boolean;
}

/**
 * @param text a JSON document (a cut one is read as far as it goes)
 * @param pointer an RFC 6901 pointer (`""`: the whole document)
 * @returns the value's range, the nearest existing ancestor's, or undefined when the text holds
 *   no value at all
 */
export function pointerRange(text: string, pointer: string): PointerRange | undefined {
  const start = skipSpace(text, 0);
  if (start >= text.length) return undefined;
  let current = { from: start, to: valueEnd(text, start) };
  const tokens = pointer === ""
    ? []
    : pointer.split("/").slice(1).map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
  for (const token of tokens) {
    const child = childRange(text, current.from, token);
    if (!child) return { ...current, exact: false };
    current = child;
  }
  return { ...current, exact: true };
}

/** The range of member `token` of the object or array at `at`, or undefined. */
function childRange(
  text: string,
  at: number,
  token: string,
): { from: number; to: number } | undefined {
  const open = text[at];
  if (open !== "{" && open !== "[") return undefined;
  const close = open === "{" ? "}" : "]";
  let i = skipSpace(text, at + 1);
  let index = 0;
  while (i < text.length && text[i] !== close) {
    let key: string | undefined;
    if (open === "{") {
      if (text[i] !== '"') return undefined;
      const end = valueEnd(text, i);
      try {
        key = JSON.parse(text.slice(i, end));
      } catch {
        return undefined;
      }
      i = skipSpace(text, end);
      if (text[i] !== ":") return undefined;
      i = skipSpace(text, i + 1);
    }
    const from = i;
    const to = valueEnd(text, from);
    if (to <= from) return undefined;
    if (open === "{" ? key === token : String(index) === token) return { from, to };
    index++;
    i = skipSpace(text, to);
    if (text[i] === ",") i = skipSpace(text, i + 1);
    else break;
  }
  return undefined;
}

/** Where the value starting at `at` ends (exclusive); the text's end for a cut value. */
function valueEnd(text: string, at: number): number {
  const first = text[at];
  if (first === '"') {
    for (let i = at + 1; i < text.length; i++) {
      if (text[i] === "\\") i++;
      else if (text[i] === '"') return i + 1;
    }
    return text.length;
  }
  if (first === "{" || first === "[") {
    let depth = 0;
    for (let i = at; i < text.length; i++) {
      const c = text[i];
      if (c === '"') i = valueEnd(text, i) - 1;
      else if (c === "{" || c === "[") depth++;
      else if (c === "}" || c === "]") {
        if (--depth === 0) return i + 1;
      }
    }
    return text.length;
  }
  let i = at;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (isSpace(c) || c === 0x2c || c === 0x5d || c === 0x7d) break; // , ] }
    i++;
  }
  return i;
}

function skipSpace(text: string, at: number): number {
  let i = at;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** JSON's whitespace: space, tab, line feed, carriage return. */
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}
