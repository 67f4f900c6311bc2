/**
 * HTTPie's nested JSON keys for request items: `a[b][0]=x`, `a[]=x` (append), `[0]=x` and
 * `[]=x` (a top-level array), `\[` for a literal bracket. Gaps in arrays are filled with null;
 * a key that would treat a string as an object (or an object as an array) is a usage error.
 * @see https://httpie.io/docs/cli/nested-json
 * @module
 */
import { UsageError } from "../errors/mod.ts";

/** One step of a key path: an object key, an array index, or an append. */
type Step = { kind: "key"; key: string } | { kind: "index"; index: number } | { kind: "append" };

/**
 * @param key a request item's key, as written (escapes kept)
 * @returns its steps
 * @throws {UsageError} on an unclosed bracket or text after a bracket
 */
export function parseKeyPath(key: string): Step[] {
  const steps: Step[] = [];
  let at = 0;
  const readUntil = (stops: string): { text: string; escaped: boolean } => {
    let text = "";
    let escaped = false;
    while (at < key.length && !stops.includes(key[at]!)) {
      if (key[at] === "\\" && at + 1 < key.length && /[[\]\\\d]/.test(key[at + 1]!)) {
        escaped = true;
        at++;
      }
      text += key[at++];
    }
    return { text, escaped };
  };
  const head = readUntil("[");
  if (head.text !== "" || at >= key.length) steps.push({ kind: "key", key: head.text });
  while (at < key.length) {
    if (key[at] !== "[") {
      throw new UsageError(`Cannot parse the JSON path "${key}": expected "[" at ${at + 1}`, {
        hint: "write a[b][0]=x; escape a literal bracket as \\[",
      });
    }
    at++;
    const inner = readUntil("]");
    if (key[at] !== "]") {
      throw new UsageError(`Cannot parse the JSON path "${key}": missing "]"`, {
        hint: "escape a literal bracket as \\[",
      });
    }
    at++;
    if (inner.text === "" && !inner.escaped) steps.push({ kind: "append" });
    else if (/^\d+$/.test(inner.text) && !inner.escaped) {
      steps.push({ kind: "index", index: Number(inner.text) });
    } else steps.push({ kind: "key", key: inner.text });
  }
  return steps;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Builds the JSON body of request items in order, as HTTPie does.
 *
 * @param fields each item's key (escapes kept) and value
 * @returns the JSON value: an object, or an array when the paths start with `[`
 * @throws {UsageError} when two paths disagree on a value's type
 */
export function buildNestedJson(fields: ReadonlyArray<{ key: string; value: unknown }>): unknown {
  let root: Json | undefined;
  for (const { key, value } of fields) {
    const steps = parseKeyPath(key);
    const first = steps[0]!;
    root ??= first.kind === "key" ? {} : [];
    root = put(root, steps, value as Json, key, 0);
  }
  return root ?? {};
}

function put(target: Json | undefined, steps: Step[], value: Json, key: string, at: number): Json {
  if (at === steps.length) return value;
  const step = steps[at]!;
  if (step.kind === "key") {
    const object = target ?? {};
    if (typeof object !== "object" || object === null || Array.isArray(object)) {
      throw typeError(key, steps, at, object, "object");
    }
    object[step.key] = put(object[step.key], steps, value, key, at + 1);
    return object;
  }
  const array = target ?? [];
  if (!Array.isArray(array)) throw typeError(key, steps, at, array, "array");
  const index = step.kind === "append" ? array.length : step.index;
  while (array.length < index) array.push(null);
  array[index] = put(array[index], steps, value, key, at + 1);
  return array;
}

function typeError(
  key: string,
  steps: Step[],
  at: number,
  found: Json,
  wanted: "object" | "array",
): UsageError {
  const where = at === 0 ? "the top level" : `"${pathText(steps.slice(0, at))}"`;
  const kind = Array.isArray(found) ? "array" : found === null ? "null" : typeof found;
  return new UsageError(
    `Cannot set the JSON path "${key}": ${where} is ${
      kind === "array" || kind === "object" ? "an" : "a"
    } ${kind}, not ${wanted === "array" ? "an array" : "an object"}`,
    { hint: "paths that share a prefix must agree on its type (a[b] and a[0] do not)" },
  );
}

function pathText(steps: Step[]): string {
  return steps.map((s, i) =>
    s.kind === "key" ? (i === 0 ? s.key : `[${s.key}]`) : s.kind === "index" ? `[${s.index}]` : "[]"
  ).join("");
}
