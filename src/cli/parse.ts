/**
 * The parser derived from command declarations: argv in, the command to run and its checked
 * values out. No library: `-abc` clusters, `--flag=value` and `--flag value`, `--` ends the
 * flags, repeatable flags keep their order, a value may start with `-` (`--max-results -1`).
 * Every mistake is a {@link UsageError} (exit 2) before anything runs.
 * @module
 */
import { editDistance } from "../edit_distance.ts";
import { UsageError } from "../errors/mod.ts";
import type { Command, FlagDecl, FlagUse, FlagValue, ParsedValues } from "./declare.ts";
import { flagKey } from "./declare.ts";
import type { CliContext } from "./context.ts";
import { parseCount, parseSeconds } from "./flag_values.ts";
import { parsePort } from "../http/values.ts";

/** What the command line asks for. */
export type Invocation =
  | {
    kind: "run";
    path: Command[];
    values: ParsedValues;
    run: (values: ParsedValues, context: CliContext) => Promise<number>;
  }
  | { kind: "help"; path: Command[]; error: boolean }
  | { kind: "version" };

/** The flags every command has; the root also has `-V, --version`. */
export const HELP_FLAG: FlagDecl = { long: "help", short: "h", help: "show this help" };
/** The root's version flag. */
export const VERSION_FLAG: FlagDecl = { long: "version", short: "V", help: "print the version" };

/**
 * @param root the root command
 * @param argv the arguments after the program name
 * @returns what to do
 * @throws {UsageError} on an unknown flag or command, a bad value or a missing argument
 */
export function parseArgv(root: Command, argv: readonly string[]): Invocation {
  const path: Command[] = [root];
  let command = root;
  let rest = [...argv];
  for (;;) {
    const step = scan(command, rest, path.map((c) => c.name).join(" "));
    if (step.kind !== "sub") return step.kind === "run" ? finish(path, step) : step.result(path);
    path.push(step.sub);
    command = step.sub;
    rest = step.rest;
  }
}

type Scanned = {
  kind: "run";
  positionals: string[];
  raw: Map<FlagDecl, Array<string | true>>;
  given: string[];
  order: FlagUse[];
};
type Step =
  | Scanned
  | { kind: "sub"; sub: Command; rest: string[] }
  | { kind: "done"; result: (path: Command[]) => Invocation };

/** What one command's scan has read so far, and the flags it knows. */
interface ScanState {
  command: Command;
  /** The command's path as typed (`dial`, `dial auth`): flags of the root go after a subcommand. */
  name: string;
  isRoot: boolean;
  positionals: string[];
  raw: Map<FlagDecl, Array<string | true>>;
  given: string[];
  order: FlagUse[];
  readonly longs: Map<string, FlagDecl>;
  readonly shorts: Map<string, FlagDecl>;
}

/** An argument read: how many of the following arguments it took, or the end of the scan. */
type Read = number | Stop;
/** A step that ends a command's scan early: its subcommand, or help or the version asked for. */
type Stop = Exclude<Step, Scanned>;

/** Reads one command's flags and operands; stops at its subcommand's name. */
function scan(command: Command, argv: string[], name: string): Step {
  // The flag tables are built when a flag is read: `dial GET URL` needs none of them.
  let longs: Map<string, FlagDecl> | undefined;
  let shorts: Map<string, FlagDecl> | undefined;
  const state: ScanState = {
    command,
    name,
    isRoot: !name.includes(" "),
    positionals: [],
    raw: new Map(),
    given: [],
    order: [],
    get longs() {
      return longs ??= new Map(
        command.flags.flatMap((f) => [f.long, ...(f.aliases ?? [])].map((long) => [long, f])),
      );
    },
    get shorts() {
      return shorts ??= new Map(
        command.flags.flatMap((f) =>
          [...(f.short ? [f.short] : []), ...(f.shortAliases ?? [])].map((short) => [short, f])
        ),
      );
    },
  };
  const done = (): Step => ({
    kind: "run",
    positionals: state.positionals,
    raw: state.raw,
    given: state.given,
    order: state.order,
  });
  if (command.passthrough) {
    if (argv[0] === "--help" || argv[0] === "-h") return help();
    state.positionals.push(...argv);
    return done();
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      state.positionals.push(...argv.slice(i + 1));
      break;
    }
    const next = argv[i + 1];
    const read: Read = !arg.startsWith("-") || arg === "-" || isNegativeNumber(arg, state)
      ? readOperand(state, arg, argv.slice(i + 1))
      : arg.startsWith("--")
      ? readLong(state, arg, next)
      : readShorts(state, arg, next);
    if (typeof read !== "number") return read;
    i += read;
  }
  return done();
}

const help = (): Stop => ({
  kind: "done",
  result: (path) => ({ kind: "help", path, error: false }),
});
const version = (): Stop => ({ kind: "done", result: () => ({ kind: "version" }) });

function add(state: ScanState, flag: FlagDecl, value: string | true): void {
  state.raw.set(flag, [...(state.raw.get(flag) ?? []), value]);
  state.given.push(flag.long);
  state.order.push({ long: flag.long, value });
}

/** An operand: a subcommand's name (first operand only), `help`, or a positional argument. */
function readOperand(state: ScanState, arg: string, rest: string[]): Read {
  const { command } = state;
  if (state.positionals.length === 0 && command.commands.length > 0) {
    const sub = command.commands.find((c) => c.name === arg);
    if (sub) {
      if (state.isRoot && state.given.length > 0) {
        throw new UsageError(`Flags must come after the command: dial ${arg} … ${state.given[0]}`, {
          hint: `write dial ${arg} [flags]`,
        });
      }
      return { kind: "sub", sub, rest };
    }
    const next = rest[0];
    if (
      arg === "help" &&
      (!command.run || next === undefined || command.commands.some((c) => c.name === next))
    ) {
      return helpFor(command, next);
    }
    if (!command.run) throw unknownCommand(command, arg);
  }
  state.positionals.push(arg);
  return 0;
}

/** `--flag`, `--flag=value`, `--flag value`, and a flag whose value may be left out. */
function readLong(state: ScanState, arg: string, next: string | undefined): Read {
  const eq = arg.indexOf("=");
  const long = arg.slice(2, eq < 0 ? undefined : eq);
  const inline = eq < 0 ? undefined : arg.slice(eq + 1);
  if (long === "help" && inline === undefined) return help();
  if (long === "version" && state.isRoot && inline === undefined) return version();
  const flag = state.longs.get(long);
  if (!flag) throw unknownFlag(state.command, `--${long}`, state.name);
  if (flag.value === undefined) {
    if (inline !== undefined) {
      throw new UsageError(`Flag --${long} takes no value, got "${inline}"`, {
        hint: `write --${long} alone`,
      });
    }
    add(state, flag, true);
    return 0;
  }
  if (inline !== undefined) {
    add(state, flag, inline);
    return 0;
  }
  return readValue(state, flag, next);
}

/** The value of a flag in the next word; a flag whose value may be left out takes it only
 * when it looks like one (not a flag, unless it is a `-` its shape allows: curl's `-C -`). */
function readValue(state: ScanState, flag: FlagDecl, next: string | undefined): number {
  if (flag.optionalValue) {
    const takes = next !== undefined && (!next.startsWith("-") || next === "-") &&
      (flag.valueShape?.test(next) ?? next !== "-");
    add(state, flag, takes ? next : true);
    return takes ? 1 : 0;
  }
  if (next === undefined) throw missingValue(flag);
  add(state, flag, next);
  return 1;
}

/** A cluster of short flags: `-abc`, `-ofile`, `-o file`. */
function readShorts(state: ScanState, arg: string, next: string | undefined): Read {
  for (let j = 1; j < arg.length; j++) {
    const letter = arg[j]!;
    if (letter === "h") return help();
    if (letter === "V" && state.isRoot) return version();
    const flag = state.shorts.get(letter);
    if (!flag) {
      throw unknownFlag(state.command, j === 1 ? arg.slice(0, 2) : `-${letter}`, state.name, arg);
    }
    if (flag.value === undefined) {
      add(state, flag, true);
      continue;
    }
    const attached = arg.slice(j + 1);
    if (attached !== "") {
      add(state, flag, attached);
      return 0;
    }
    return readValue(state, flag, next);
  }
  return 0;
}

function helpFor(command: Command, name: string | undefined): Stop {
  const sub = name === undefined ? undefined : command.commands.find((c) => c.name === name);
  if (name !== undefined && !sub) throw unknownCommand(command, name);
  return {
    kind: "done",
    result: (path) => ({ kind: "help", path: sub ? [...path, sub] : path, error: false }),
  };
}

function finish(path: Command[], scanned: Scanned): Invocation {
  const command = path[path.length - 1]!;
  const run = command.run;
  if (!run) return { kind: "help", path, error: true };
  const { positionals, raw, given, order } = scanned;
  const variadic = command.args.at(-1)?.variadic === true;
  if (!variadic && positionals.length > command.args.length) {
    const expected = command.args.length;
    // The extra words are not echoed: an unquoted `-H Authorization Bearer …` spills a
    // token into them.
    throw new UsageError(
      `Too many arguments: expected ${
        expected === 0 ? "none" : `at most ${expected}`
      }, got ${positionals.length}`,
      { hint: `quote values with spaces; ${usageName(path)} --help shows the usage` },
    );
  }
  const args: Record<string, string | string[] | undefined> = {};
  command.args.forEach((decl, index) => {
    if (decl.variadic) {
      args[decl.name] = positionals.slice(index);
      return;
    }
    const value = positionals[index];
    if (value === undefined && decl.required) {
      throw new UsageError(`Missing required argument <${decl.name}>`, {
        hint: `${usageName(path)} --help shows the usage`,
      });
    }
    if (value !== undefined && decl.choices && !decl.choices.includes(value)) {
      throw new UsageError(
        `'${value}' is invalid for argument '${decl.name}'. Allowed choices are ${
          decl.choices.join(", ")
        }.`,
      );
    }
    args[decl.name] = value;
  });
  const flags: Record<string, FlagValue> = {};
  for (const flag of command.flags) {
    const values = raw.get(flag);
    flags[flagKey(flag.long)] = flagValue(flag, values);
  }
  for (const conflict of command.conflicts) {
    const present = conflict.flags.filter((long) => given.includes(long));
    if (present.length > 1) {
      const names = present.map((long) => displayName(command, long));
      throw new UsageError(
        `Conflicting flags ${names.join(" and ")}: ${conflict.reason ?? "give one"}`,
        conflict.hint ? { hint: conflict.hint } : {},
      );
    }
  }
  return { kind: "run", path, values: { args, flags, order }, run };
}

/** Switches and bare optional-value flags are recorded as `true`. */
function flagValue(flag: FlagDecl, values: Array<string | true> | undefined): FlagValue {
  if (flag.value === undefined) {
    const negation = flag.long.startsWith("no-");
    return values === undefined ? negation : !negation;
  }
  if (flag.repeatable) {
    return (values ?? []).map((v) => checkValue(flag, v === true ? "" : v));
  }
  if (values === undefined) {
    return flag.default === undefined ? undefined : checkValue(flag, flag.default);
  }
  const last = values[values.length - 1]!;
  return last === true ? true : checkValue(flag, last);
}

/**
 * @param flag a flag
 * @param text a value given for it
 * @returns the value, checked against the flag's choices and kind
 */
export function checkValue(flag: FlagDecl, text: string): string | number {
  const name = `--${flag.long}`;
  if (flag.choices && !flag.choices.includes(text)) {
    throw new UsageError(`Invalid ${name} "${text}": expected ${orList(flag.choices)}`);
  }
  switch (flag.kind ?? "text") {
    case "count":
      return parseCount(text, name, flag.min ?? 0);
    case "seconds":
      return parseSeconds(text, name);
    case "port":
      return parsePort(text, name);
    case "text":
      return text;
  }
}

function orList(items: readonly string[]): string {
  return items.length < 2
    ? items.join("")
    : `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

function isNegativeNumber(arg: string, state: ScanState): boolean {
  return /^-\d+(\.\d+)?$/.test(arg) && !state.shorts.has(arg[1]!);
}

function displayName(command: Command, long: string): string {
  const flag = command.flags.find((f) => f.long === long);
  return flag?.short ? `-${flag.short}` : `--${long}`;
}

function usageName(path: Command[]): string {
  return path.map((c) => c.name).join(" ");
}

function missingValue(flag: FlagDecl): UsageError {
  const spelled = flag.short ? `-${flag.short}, --${flag.long}` : `--${flag.long}`;
  return new UsageError(`Missing value for ${spelled}`, {
    hint: `write --${flag.long} <${flag.value}>`,
  });
}

function unknownFlag(command: Command, name: string, path: string, cluster?: string) {
  const isRoot = !path.includes(" ");
  const inCluster = cluster && cluster !== name ? ` (in "${cluster}")` : "";
  const elsewhere = command.flagHints?.[name];
  if (elsewhere) {
    return new UsageError(`unknown option '${name}'${inCluster}`, { hint: elsewhere });
  }
  const known = [
    ...command.flags.flatMap((f) => [
      `--${f.long}`,
      ...(f.aliases ?? []).map((a) => `--${a}`),
      ...(f.short ? [`-${f.short}`] : []),
      ...(f.shortAliases ?? []).map((a) => `-${a}`),
    ]),
    "--help",
    ...(isRoot ? ["--version"] : []),
  ];
  const suggestion = closest(
    name,
    known.filter((k) => k.startsWith("--") === name.startsWith("--")),
  );
  const where = `${path} --help`;
  return new UsageError(`unknown option '${name}'${inCluster}`, {
    hint: suggestion
      ? `did you mean ${suggestion}? (${where} lists the flags)`
      : `${where} lists the flags`,
  });
}

function unknownCommand(command: Command, word: string): UsageError {
  const names = command.commands.map((c) => c.name);
  const suggestion = closest(word, names);
  return new UsageError(`Unknown command "${word}" for "${command.name}"`, {
    hint: suggestion ? `did you mean "${suggestion}"?` : `commands: ${names.join(", ")}`,
  });
}

/**
 * @param word what was typed
 * @param candidates what exists
 * @returns the closest candidate within a few edits, if any
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  const bare = word.replace(/^-+/, "");
  for (const candidate of candidates) {
    const name = candidate.replace(/^-+/, "");
    // One letter is never "close" to another: -X is not a typo of -H.
    if (bare.length < 2 || name.length < 2) continue;
    const d = editDistance(bare, name);
    const limit = Math.max(1, Math.floor(name.length / 4));
    if (d <= limit && d < bestDistance) {
      best = candidate;
      bestDistance = d;
    } else if (d < bestDistance && bare.length >= 3 && name.startsWith(bare)) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}
