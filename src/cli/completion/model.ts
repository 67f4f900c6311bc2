/**
 * The shape of the command tree that completion scripts need, read from commander at runtime
 * so that every flag any command declares is covered without a second list to maintain.
 * @module
 */
import type { CommandUnknownOpts } from "@commander-js/extra-typings";

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

type AnyCommand = CommandUnknownOpts;

/**
 * Walks a commander tree.
 *
 * @param root the root command (`dial`)
 * @returns every visible command, root first, parents before children
 */
export function completionModel(root: AnyCommand): CommandModel[] {
  const models: CommandModel[] = [];
  const visit = (command: AnyCommand, path: string[]) => {
    const help = command.createHelp();
    const subcommands = help.visibleCommands(command);
    const words = path.length === 1
      ? COMMON_METHODS.map((name) => ({ name, description: "HTTP method" }))
      : [];
    const first = command.registeredArguments[0];
    for (const choice of first?.argChoices ?? []) {
      words.push({ name: choice, description: first?.description || first?.name() || "" });
    }
    models.push({
      path,
      flags: help.visibleOptions(command).map((option) => ({
        ...(option.short ? { short: option.short } : {}),
        ...(option.long ? { long: option.long } : {}),
        takesValue: option.required || option.optional,
        file: /<(?:file|path|dir)>/.test(option.flags),
        choices: option.argChoices ?? [],
        description: option.description,
      })),
      subcommands: subcommands.map((sub) => ({ name: sub.name(), description: sub.description() })),
      words,
    });
    for (const sub of subcommands) {
      // commander's implicit `help` command is listed but has no tree of its own.
      if (command.commands.includes(sub)) visit(sub, [...path, sub.name()]);
    }
  };
  visit(root, [root.name()]);
  return models;
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
