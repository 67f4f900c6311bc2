/**
 * `--help` text, derived from the declarations.
 * @module
 */
import type { ArgDecl, Command, FlagDecl } from "./declare.ts";
import { HELP_FLAG, VERSION_FLAG } from "./parse.ts";

const MAX_LEFT = 36;

/**
 * @param path the command and its parents, root first
 * @returns the help text
 */
export function helpText(path: readonly Command[]): string {
  const command = path[path.length - 1]!;
  const name = path.map((c) => c.name).join(" ");
  const usage = (command.usage ?? defaultUsage(command)).split("\n");
  const lines = [
    `Usage: ${name} ${usage[0]}`,
    ...usage.slice(1).map((line) =>
      `       ${line.trim().startsWith("dial") ? "" : `${name} `}${line.trim()}`
    ),
    "",
    command.summary,
  ];
  const argRows = command.args.filter((a) => a.help).map((a) => [a.name, argHelp(a)] as const);
  const flagRows = [
    ...command.flags.map((f) => [flagLeft(f), flagHelp(f)] as const),
    ...(path.length === 1 ? [[flagLeft(VERSION_FLAG), VERSION_FLAG.help] as const] : []),
    [flagLeft(HELP_FLAG), HELP_FLAG.help] as const,
  ];
  const commandRows = command.commands.map((c) => [commandLeft(c), c.summary] as const);
  if (command.commands.length > 0 && !command.run) {
    commandRows.push(["help [command]", "show help for a command"]);
  }
  const width = Math.min(
    MAX_LEFT,
    Math.max(...[...argRows, ...flagRows, ...commandRows].map(([left]) => left.length)),
  );
  const section = (title: string, rows: ReadonlyArray<readonly [string, string]>) => {
    if (rows.length === 0) return;
    lines.push("", `${title}:`);
    for (const [left, right] of rows) {
      if (left.length > width) {
        lines.push(`  ${left}`, `  ${" ".repeat(width)}  ${right}`);
      } else {
        lines.push(`  ${left.padEnd(width)}  ${right}`);
      }
    }
  };
  section("Arguments", argRows);
  section("Flags", flagRows);
  section("Commands", commandRows);
  if (command.epilog) lines.push(command.epilog.replace(/^\n?/, "\n"));
  return lines.join("\n") + "\n";
}

function defaultUsage(command: Command): string {
  if (command.commands.length > 0 && !command.run) return "<command> [flags]";
  return [...command.args.map(argLeft), "[flags]"].join(" ");
}

function commandLeft(command: Command): string {
  return [command.name, ...command.args.map(argLeft)].join(" ");
}

function argLeft(arg: ArgDecl): string {
  const name = arg.variadic ? `${arg.name}…` : arg.name;
  return arg.required ? `<${name}>` : `[${name}]`;
}

/**
 * @param flag a flag
 * @returns how help spells it, e.g. `-o, --output <file>`
 */
export function flagLeft(flag: FlagDecl): string {
  const shorts = [...(flag.short ? [flag.short] : []), ...(flag.shortAliases ?? [])];
  const names = shorts.length
    ? `${shorts.map((s) => `-${s}, `).join("")}--${flag.long}`
    : `    --${flag.long}`;
  if (flag.value === undefined) return names;
  const placeholder = flag.choices ? flag.choices.join("|") : flag.value;
  return flag.optionalValue ? `${names} [${placeholder}]` : `${names} <${placeholder}>`;
}

function flagHelp(flag: FlagDecl): string {
  const notes: string[] = [];
  if (flag.default !== undefined) notes.push(`default ${flag.default}`);
  if (flag.aliases?.length) notes.push(`also ${flag.aliases.map((a) => `--${a}`).join(", ")}`);
  return notes.length > 0 ? `${flag.help} (${notes.join(", ")})` : flag.help;
}

function argHelp(arg: ArgDecl): string {
  return arg.choices ? `${arg.help} (${arg.choices.join(", ")})` : arg.help;
}
