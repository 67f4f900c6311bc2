/**
 * No function in `src/` runs over 100 lines (issue 42): every function, method, arrow function
 * and accessor is measured with the TypeScript compiler's own parser, from its first token (its
 * doc comment left out) to its closing brace. The few that are still longer are named in
 * {@link ALLOWED} with their length; the list only shrinks: a listed function that is now short
 * enough, or gone, fails the test until its entry is removed.
 * @module
 */
import assert from "node:assert/strict";
import ts from "typescript";

/** The most lines a function may take. */
const LIMIT = 100;

/**
 * Functions still over the limit, as `path:name`, each with the length it may not exceed. Remove
 * an entry when its function is split (the test fails until it is removed).
 */
const ALLOWED: Readonly<Record<string, number>> = {};

/** A function's place, name and length in lines. */
interface Measured {
  path: string;
  name: string;
  line: number;
  lines: number;
}

const ROOT = new URL("../../", import.meta.url);

async function* sources(dir: URL): AsyncGenerator<URL> {
  for await (const entry of Deno.readDir(dir)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    if (entry.isDirectory && entry.name !== "dist" && entry.name !== "node_modules") {
      yield* sources(url);
    } else if (entry.isFile && /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) {
      yield url;
    }
  }
}

/** The name a function is known by: its own, or the variable, property or class member it is. */
function nameOf(node: ts.Node, file: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name && !ts.isComputedPropertyName(named.name)) return named.name.getText(file);
  if (ts.isConstructorDeclaration(node)) return `${nameOf(node.parent, file)}.constructor`;
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))) {
    return parent.name.getText(file);
  }
  if (parent && ts.isPropertyDeclaration(parent)) return parent.name.getText(file);
  const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
  return `(anonymous at line ${line + 1})`;
}

/** Every function of a source file with its length in lines. */
function measureFunctions(path: string, text: string): Measured[] {
  const kind = path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const found: Measured[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ path, name: nameOf(node, file), line: start + 1, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

async function measureSrc(): Promise<Measured[]> {
  const all: Measured[] = [];
  for await (const url of sources(new URL("src/", ROOT))) {
    const path = url.href.slice(ROOT.href.length);
    all.push(...measureFunctions(path, await Deno.readTextFile(url)));
  }
  return all;
}

Deno.test("function length: the measure counts a function from its first token to its closing brace, nested ones apart", () => {
  const body = Array.from({ length: 101 }, (_, i) => `  const v${i} = ${i};`).join("\n");
  const text = [
    "/** A doc comment is not counted. */",
    "export function long(): void {",
    body,
    "}",
    "const short = (a: number) => a + 1;",
    "class C {",
    "  method() {",
    "    return [1].map((x) => {",
    "      return x;",
    "    });",
    "  }",
    "}",
  ].join("\n");
  const measured = measureFunctions("x.ts", text);
  assert.deepEqual(
    measured.map(({ name, line, lines }) => ({ name, line, lines })),
    [
      { name: "long", line: 2, lines: 103 },
      { name: "short", line: 105, lines: 1 },
      { name: "method", line: 107, lines: 5 },
      { name: "(anonymous at line 108)", line: 108, lines: 3 },
    ],
  );
});

Deno.test(`function length: no function in src/ runs over ${LIMIT} lines (the allowlist only shrinks)`, async () => {
  const measured = await measureSrc();
  const over = measured.filter((m) => m.lines > LIMIT);
  const unlisted = over.filter((m) => {
    const key = `${m.path}:${m.name}`;
    const allowed = ALLOWED[key];
    return allowed === undefined || m.lines > allowed;
  });
  assert.deepEqual(
    unlisted.map((m) => `${m.path}:${m.line} ${m.name} (${m.lines} lines)`),
    [],
    "split these functions (one screen each)",
  );
  const stale = Object.keys(ALLOWED).filter((key) =>
    !over.some((m) => `${m.path}:${m.name}` === key)
  );
  assert.deepEqual(stale, [], "no longer over the limit: remove from ALLOWED");
});
