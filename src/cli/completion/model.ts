/**
 * The shape of the command tree that completion scripts need, read from the command
 * declarations so that every flag any command declares is covered without a second list.
 * @module
 */
import type { Command, FlagDecl } from "../declare.ts";
import { HELP_FLAG, VERSION_FLAG } from "../parse.ts";

/** One flag of a command. */
export interface FlagModel {
  /** e.g. `-o`, when there is a short form. */
  short?: string;
  /** e.g. `--output`, when there is a long form. */
  long?: string;
  /** Whether the flag takes a value (`<x>` or `[x]`). */
  takesValue: boolean;
  /** Whether the value names a file (`<file>`, `<path>`, `<dir>`). */
  file: boolean;
  /** The allowed values, when the command declares them. */
  choices: string[];
  /** The help text. */
  description: string;
}

/** One command of the tree. */
export interface CommandModel {
  /** The words that select it, e.g. `["dial", "auth", "token"]`. */
  path: string[];
  /** Its flags, including `--help`. */
  flags: FlagModel[];
  /** Its subcommands, by name, with descriptions. */
  subcommands: Array<{ name: string; description: string }>;
  /** Words offered as its first operand besides subcommands (methods, argument choices). */
  words: Array<{ name: string; description: string }>;
}

/** The methods offered at `dial <TAB>`; any other token is accepted as written. */
export const COMMON_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

/**
 * Walks the declarations.
 *
 * @param root the root command (`dial`)
 * @returns every command, root first, parents before children
 */
export function completionModel(root: Command): CommandModel[] {
  const models: CommandModel[] = [];
  const visit = (command: Command, path: string[]) => {
    const words = path.length === 1
      ? COMMON_METHODS.map((name) => ({ name, description: "HTTP method" }))
      : [];
    const first = command.args[0];
    for (const choice of first?.choices ?? []) {
      words.push({ name: choice, description: first?.help || first?.name || "" });
    }
    const flags = [...command.flags, ...(path.length === 1 ? [VERSION_FLAG] : []), HELP_FLAG];
    models.push({
      path,
      // curl's spellings (`--fail`, `--max-time`) and HTTPie's (`-a`) are offered as well.
      flags: flags.flatMap((flag) => {
        const { short: _short, ...long } = flag;
        const { long: _long, ...model } = flagModel(flag);
        return [
          flagModel(flag),
          ...(flag.aliases ?? []).map((alias) => flagModel({ ...long, long: alias })),
          ...(flag.shortAliases ?? []).map((short): FlagModel => ({
            ...model,
            short: `-${short}`,
          })),
        ];
      }),
      subcommands: command.commands.map((sub) => ({ name: sub.name, description: sub.summary })),
      words,
    });
    for (const sub of command.commands) visit(sub, [...path, sub.name]);
  };
  visit(root, [root.name]);
  return models;
}

function flagModel(flag: FlagDecl): FlagModel {
  return {
    ...(flag.short ? { short: `-${flag.short}` } : {}),
    long: `--${flag.long}`,
    takesValue: flag.value !== undefined,
    file: flag.file === true || /^(?:file|path|dir)$/.test(flag.value ?? ""),
    choices: [...(flag.choices ?? [])],
    description: flag.help,
  };
}

/**
 * @param flag a flag
 * @returns its spellings, e.g. `["-o", "--output"]`
 */
export function spellings(flag: FlagModel): string[] {
  return [flag.short, flag.long].filter((s): s is string => s !== undefined);
}

/**
 * @param text any text
 * @returns the text as a single-quoted POSIX shell word
 */
export function shellWord(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * The two lookup functions the bash and zsh scripts define: `_dial_spec PATH` sets a command's
 * variables (flags, subcommands, first words), `_dial_values "PATH|FLAG"` sets `values` to a
 * flag's choices.
 *
 * @param models the command tree
 * @param shell how the shell assigns: a command's variables (indented lines) and the words of
 *   a choice list, and what each function sets when nothing matches
 * @returns the two functions' text
 */
export function lookupFunctions(models: CommandModel[], shell: {
  spec: (model: CommandModel) => string;
  values: (choices: readonly string[]) => string;
  unknown: { spec: string; values: string };
}): string {
  const specs = models.map((model) =>
    `    ${shellWord(model.path.join(" "))})\n${shell.spec(model)} ;;`
  );
  const choices = models.flatMap((model) =>
    model.flags.filter((f) => f.choices.length > 0).flatMap((f) =>
      spellings(f).map((s) =>
        `    ${shellWord(`${model.path.join(" ")}|${s}`)}) values=${shell.values(f.choices)} ;;`
      )
    )
  );
  return `_dial_spec() {
  case $1 in
${specs.join("\n")}
    *) ${shell.unknown.spec} ;;
  esac
}

_dial_values() {
  case "$1|$2" in
${choices.join("\n")}
    *) values=${shell.unknown.values} ;;
  esac
}`;
}
