/**
 * `deno task docs`: writes the generated tables of `docs/cli.md` between their marker comments:
 * every command's flags from the typed command declarations (`src/cli/`, the tree `dial --help`
 * and the completions come from), the exit codes from `ExitCode` and the error codes from the
 * one error table (`ErrorCode` and `ERRORS`), each row's words from the JSDoc of its member.
 *
 * ```sh
 * deno task docs             # rewrite the tables
 * deno task docs --check     # exit 1 naming each stale table (tests/e2e/docs_flags_test.ts)
 * ```
 *
 * A region is `<!-- BEGIN GENERATED name (deno task docs) -->` … `<!-- END GENERATED name -->`;
 * the text between is replaced, everything else in the file is left alone.
 * @module
 */
import type { ArgDecl, Command, FlagDecl } from "../src/cli/declare.ts";
import { HELP_FLAG, VERSION_FLAG } from "../src/cli/parse.ts";
import { ROOT } from "../src/cli/program.ts";
import { ErrorCode, ERRORS, ExitCode } from "../mod.ts";

/** The page that holds the generated tables. */
export const CLI_DOC: URL = new URL("../docs/cli.md", import.meta.url);

/** A generated region: its name and its Markdown. */
export interface Region {
  /** The name in the marker comments. */
  name: string;
  /** The text between the markers. */
  text: string;
}

/** Escapes a table cell's text: `|` would end the cell, a line break the row. */
function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

/** Escapes plain text (a help line) for Markdown: `<port>` would read as an HTML tag. */
function plain(text: string): string {
  return cell(text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;"));
}

/** A Markdown table; the cells are already Markdown. */
function table(head: string[], rows: string[][]): string {
  return [
    `| ${head.join(" | ")} |`,
    `| ${head.map(() => "---").join(" | ")} |`,
    ...rows.map((row) => `| ${row.join(" | ")} |`),
  ].join("\n");
}

/** Text in a code span, with a space pad when it holds a backtick. */
function code(text: string): string {
  return text.includes("`") ? `\`\` ${text} \`\`` : `\`${text}\``;
}

function flagNames(flag: FlagDecl): string {
  const names = [
    ...(flag.short ? [`-${flag.short}`] : []),
    ...(flag.shortAliases ?? []).map((s) => `-${s}`),
    `--${flag.long}`,
  ];
  return names.map(code).join(", ");
}

function flagValue(flag: FlagDecl): string {
  if (flag.value === undefined) return "";
  const placeholder = flag.choices ? flag.choices.join("|") : flag.value;
  return cell(code(flag.optionalValue ? `[${placeholder}]` : `<${placeholder}>`));
}

function flagMeaning(flag: FlagDecl): string {
  const notes: string[] = [];
  if (flag.repeatable && !flag.help.includes("repeatable")) notes.push("repeatable");
  if (flag.aliases?.length) {
    notes.push(`also ${flag.aliases.map((a) => code(`--${a}`)).join(", ")}`);
  }
  if (flag.flows?.length) notes.push(`flows: ${flag.flows.map(code).join(", ")}`);
  const help = plain(flag.help);
  return notes.length > 0 ? `${help} (${notes.join("; ")})` : help;
}

function argName(arg: ArgDecl): string {
  const name = arg.variadic ? `${arg.name}…` : arg.name;
  return arg.required ? `<${name}>` : `[${name}]`;
}

function usage(path: readonly Command[], command: Command): string {
  const name = path.map((c) => c.name).join(" ");
  if (command.usage !== undefined) {
    return command.usage.split("\n").map((line) => line.trim())
      .map((line) => line.startsWith("dial") ? line : `${name} ${line}`).join("\n");
  }
  if (command.commands.length > 0 && !command.run) return `${name} <command> [flags]`;
  return [name, ...command.args.map(argName), "[flags]"].join(" ");
}

/** Every command with its path from the root, root first, depth first. */
function commands(path: readonly Command[] = [ROOT]): Array<readonly Command[]> {
  const command = path[path.length - 1]!;
  return [path, ...command.commands.flatMap((c) => commands([...path, c]))];
}

/** The flag reference: one section per command, its usage, arguments and flags. */
export function flagTables(): string {
  const sections: string[] = [];
  for (const path of commands()) {
    const command = path[path.length - 1]!;
    const name = path.map((c) => c.name).join(" ");
    const parts = [
      `### ${code(name)}`,
      plain(command.summary),
      ["```", usage(path, command), "```"].join("\n"),
    ];
    const args = command.args.filter((a) => a.help);
    if (args.length > 0) {
      parts.push(table(
        ["argument", "meaning"],
        args.map((a) => [
          cell(code(argName(a))),
          plain(a.choices ? `${a.help} (${a.choices.join(", ")})` : a.help),
        ]),
      ));
    }
    const flags = [
      ...command.flags,
      ...(path.length === 1 ? [VERSION_FLAG] : []),
      HELP_FLAG,
    ];
    parts.push(table(
      ["flag", "value", "default", "meaning"],
      flags.map((f) => [
        flagNames(f),
        flagValue(f),
        f.default === undefined ? "" : cell(code(f.default)),
        flagMeaning(f),
      ]),
    ));
    if (command.passthrough) {
      parts.push("Every word after the command is its operand, none a flag of dial's.");
    }
    sections.push(parts.join("\n\n"));
  }
  return sections.join("\n\n");
}

/** The JSDoc of each member of an exported object (`ExitCode`, `ErrorCode`), from `deno doc`. */
async function memberDocs(name: string): Promise<Map<string, string>> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", new URL("../mod.ts", import.meta.url).pathname],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!output.success) throw new Error("deno doc --json mod.ts failed");
  const doc = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    nodes: Record<string, { symbols?: DocSymbol[] }>;
  };
  const symbol = Object.values(doc.nodes).flatMap((n) => n.symbols ?? [])
    .find((s) => s.name === name);
  const properties = symbol?.declarations[0]?.def?.tsType?.value?.properties;
  if (!properties) throw new Error(`deno doc lists no members of ${name}`);
  return new Map(properties.map((p) => [p.name, (p.jsDoc?.doc ?? "").replace(/\s+/g, " ")]));
}

interface DocSymbol {
  name: string;
  declarations: Array<{
    def?: {
      tsType?: {
        value?: { properties?: Array<{ name: string; jsDoc?: { doc?: string } }> };
      };
    };
  }>;
}

/** Drops the closing period of a sentence for a table cell. */
function phrase(text: string): string {
  return text.replace(/\.$/, "");
}

/** The exit codes, from `ExitCode` and the JSDoc of each. */
export async function exitCodeTable(): Promise<string> {
  const docs = await memberDocs("ExitCode");
  const rows = Object.entries(ExitCode).sort(([, a], [, b]) => a - b)
    .map(([key, value]) => [String(value), cell(phrase(docs.get(key) ?? ""))]);
  return table(["code", "meaning"], rows);
}

/** The error codes, from `ErrorCode`, the exits of `ERRORS` and the JSDoc of each code. */
export async function errorCodeTable(): Promise<string> {
  const docs = await memberDocs("ErrorCode");
  const rows = Object.entries(ErrorCode).map(([key, value]) => {
    const kind = ERRORS[value];
    const exit = kind.byStatus ? `3/4/5 by HTTP status, else ${kind.exit}` : String(kind.exit);
    const meaning = phrase((docs.get(key) ?? "").replace(/ \(exit \d+\)(?=\.?$)/, ""));
    return [code(value), code(key), exit, cell(meaning)];
  });
  return table(["`code`", "`ErrorCode.`", "exit", "kind of failure"], rows);
}

/**
 * Markdown as `deno fmt` writes it (tables aligned), so that formatting docs/cli.md by hand
 * leaves the generated regions as they are.
 */
async function formatted(markdown: string): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--ext", "md", "-"],
    cwd: new URL("../", import.meta.url).pathname,
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(markdown));
  await writer.close();
  const output = await child.output();
  if (!output.success) throw new Error("deno fmt could not format the generated Markdown");
  return new TextDecoder().decode(output.stdout).trimEnd();
}

/** Every generated region of docs/cli.md, formatted as `deno fmt` does. */
export async function regions(): Promise<Region[]> {
  const texts = {
    "exit-codes": await exitCodeTable(),
    "error-codes": await errorCodeTable(),
    flags: flagTables(),
  };
  return await Promise.all(
    Object.entries(texts).map(async ([name, text]) => ({ name, text: await formatted(text) })),
  );
}

/**
 * Replaces each region's text in a page.
 *
 * @param page the page's Markdown
 * @param generated the regions
 * @returns the new page and the names of the regions that changed
 * @throws {Error} when a region's markers are missing
 */
export function fill(page: string, generated: Region[]): { page: string; stale: string[] } {
  const stale: string[] = [];
  for (const { name, text } of generated) {
    const begin = `<!-- BEGIN GENERATED ${name} (deno task docs) -->\n`;
    const end = `<!-- END GENERATED ${name} -->`;
    const from = page.indexOf(begin);
    const to = page.indexOf(end, from);
    if (from < 0 || to < 0) throw new Error(`docs/cli.md has no markers for "${name}"`);
    const before = page.slice(from + begin.length, to);
    const after = `\n${text}\n\n`;
    if (before !== after) stale.push(name);
    page = page.slice(0, from + begin.length) + after + page.slice(to);
  }
  return { page, stale };
}

function say(text: string): void {
  Deno.stderr.writeSync(new TextEncoder().encode(`${text}\n`));
}

if (import.meta.main) {
  const check = Deno.args.includes("--check");
  const page = await Deno.readTextFile(CLI_DOC);
  const result = fill(page, await regions());
  if (check) {
    if (result.stale.length > 0) {
      say(
        `docs/cli.md is stale (${result.stale.join(", ")}): run \`deno task docs\``,
      );
      Deno.exit(1);
    }
  } else if (result.page !== page) {
    await Deno.writeTextFile(CLI_DOC, result.page);
    say(`docs/cli.md: regenerated ${result.stale.join(", ")}`);
  }
}
