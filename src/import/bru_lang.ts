/**
 * Bruno's `.bru` files read into their blocks: dictionary blocks (`headers { name: value }`,
 * `~name` disabled, `@annotations` skipped, `'''…'''` values over several lines), text blocks
 * (`body:json { … }`, `script:pre-request { … }`, `tests { … }`, `docs { … }`, their content
 * indented by two spaces) and list blocks (`vars:secret [ a, b ]`).
 *
 * @see https://docs.usebruno.com/bru-lang/overview
 * @module
 */

/** One `name: value` of a dictionary block. */
export interface BruPair {
  name: string;
  value: string;
  /** `~name`: kept in the file, not sent. */
  disabled: boolean;
}

/** A `.bru` file's blocks, by block name (`meta`, `get`, `headers`, `body:json` …). */
export interface BruFile {
  /** Dictionary blocks. */
  dicts: Map<string, BruPair[]>;
  /** Text blocks, their two-space indent removed. */
  texts: Map<string, string>;
  /** List blocks. */
  lists: Map<string, string[]>;
}

const TEXT_BLOCK = /^(body(:(json|text|xml|sparql|graphql|graphql:vars))?|script:.*|tests|docs)$/;

/**
 * Reads a `.bru` file.
 *
 * @param text the file
 * @returns its blocks (a block dial does not know is kept by its kind)
 */
export function parseBru(text: string): BruFile {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const file: BruFile = { dicts: new Map(), texts: new Map(), lists: new Map() };
  for (let i = 0; i < lines.length; i++) {
    const open = /^([A-Za-z][\w:-]*)\s*([{[])\s*$/.exec(lines[i]!);
    if (!open) continue;
    const [, name, bracket] = open as unknown as [string, string, string];
    const close = bracket === "{" ? "}" : "]";
    const body: string[] = [];
    for (i++; i < lines.length && lines[i]!.trimEnd() !== close; i++) body.push(lines[i]!);
    if (bracket === "[") {
      file.lists.set(
        name,
        body.flatMap((l) => l.split(",")).map((s) => s.trim()).filter(Boolean),
      );
    } else if (TEXT_BLOCK.test(name)) {
      file.texts.set(name, body.map((l) => l.startsWith("  ") ? l.slice(2) : l).join("\n"));
    } else file.dicts.set(name, pairs(body));
  }
  return file;
}

function pairs(body: string[]): BruPair[] {
  const out: BruPair[] = [];
  for (let i = 0; i < body.length; i++) {
    const line = body[i]!.trim();
    if (line === "") continue;
    if (line.startsWith("@")) {
      // An annotation (`@number`, `@description('''…''')`, which may span lines).
      if (line.includes("('''") && !line.endsWith("''')")) {
        while (i + 1 < body.length && !body[i + 1]!.trim().endsWith("''')")) i++;
        i++;
      }
      continue;
    }
    const m = /^(~?)("(?:[^"\\]|\\.)*"|[^:]+?)\s*:\s?(.*)$/.exec(line);
    if (!m) continue;
    const name = m[2]!.startsWith('"') ? JSON.parse(m[2]!) as string : m[2]!.trim();
    let value = m[3]!;
    if (value.trim() === "'''") {
      // A value over several lines, indented below its name.
      const block: string[] = [];
      for (i++; i < body.length && body[i]!.trim() !== "'''"; i++) block.push(body[i]!);
      const indent = Math.min(
        ...block.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length),
      );
      value = block.map((l) => l.slice(Number.isFinite(indent) ? indent : 0)).join("\n");
    }
    out.push({ name, value, disabled: m[1] === "~" });
  }
  return out;
}

/**
 * @param file a parsed file
 * @param block a dictionary block's name
 * @returns its enabled pairs as a record (the last one of a name wins)
 */
export function dict(file: BruFile, block: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of file.dicts.get(block) ?? []) if (!p.disabled) out[p.name] = p.value;
  return out;
}
