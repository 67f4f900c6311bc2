/**
 * The declaration model of dial's command line. A command is one {@link CommandDecl}: its
 * arguments, its flags and how it runs. Parsing (./parse.ts), `--help` (./help.ts), value
 * validation, "did you mean" and the shell completions (./completion/) are all derived from
 * these declarations, and so is the TypeScript type of the parsed flags ({@link FlagValues}).
 *
 * Adding a flag is one entry in a command's `flags` list, then reading the typed field:
 *
 * ```ts
 * { long: "max-time", value: "seconds", kind: "seconds", help: "give up after this long" }
 * // → flags.maxTime: number | undefined (milliseconds)
 * ```
 * @module
 */
import type { CliContext } from "./context.ts";

/**
 * How a flag's or argument's value is read. `text` is kept as written; the others are
 * validated before anything runs and arrive as numbers.
 *
 * - `count`: a whole number of at least `min` (default 0)
 * - `seconds`: a positive decimal number of seconds, delivered in **milliseconds**
 * - `port`: a TCP port, 1 to 65535
 */
export type ValueKind = "text" | "count" | "seconds" | "port";

/** One flag. Without `value` it is a switch (`boolean`). */
export interface FlagDecl {
  /** The long name without dashes, e.g. `max-redirects`; `no-x` declares a negation of `x`. */
  readonly long: string;
  /** The one-letter short name without the dash, e.g. `L`. */
  readonly short?: string;
  /** Other one-letter names of the same flag (HTTPie's `-a` for `-u`); help shows `short`. */
  readonly shortAliases?: readonly string[];
  /** Other long names that mean the same flag (curl's spellings), e.g. `location`. */
  readonly aliases?: readonly string[];
  /** The value's placeholder in help, e.g. `seconds`; a flag with one takes a value. */
  readonly value?: string;
  /** How the value is validated and typed (default `text`). */
  readonly kind?: ValueKind;
  /** For `kind: "count"`: the least value allowed. */
  readonly min?: number;
  /** The only values allowed; the parsed type is their union. Completions offer them. */
  readonly choices?: readonly string[];
  /** The value when the flag is not given (as it would be typed). */
  readonly default?: string;
  /** The flag may be given many times; the values keep their order (`string[]`). */
  readonly repeatable?: boolean;
  /** The value may be left out: bare, the flag reads as `true` (`""` when repeatable). */
  readonly optionalValue?: boolean;
  /** With `optionalValue`: the next word is its value only when it matches this. */
  readonly valueShape?: RegExp;
  /** The value names a file (completions offer files). */
  readonly file?: boolean;
  /** One line for `--help` and completions. */
  readonly help: string;
  /** The `--oauth2` flows the flag belongs to; given with another flow it is refused. */
  readonly flows?: readonly string[];
}

/** One positional argument. */
export interface ArgDecl {
  /** Its name, the key in the parsed `args`. */
  readonly name: string;
  /** Whether it must be given. */
  readonly required?: boolean;
  /** The last argument only: it takes every remaining word (`string[]`, maybe empty). */
  readonly variadic?: boolean;
  /** The only values allowed (completions offer them). */
  readonly choices?: readonly string[];
  /** One line for `--help` and completions. */
  readonly help: string;
}

/** Flags of which at most one may be given. */
export interface ConflictDecl {
  /** Long names. */
  readonly flags: readonly string[];
  /** What to do instead, after "Conflicting flags A and B: " (default "give one"). */
  readonly reason?: string;
  /** A hint line. */
  readonly hint?: string;
}

/** What a command's implementation receives. */
export interface Parsed<As extends readonly ArgDecl[], Fs extends readonly FlagDecl[]> {
  /** The positional arguments by name. */
  args: ArgValues<As>;
  /** The flags by camel-cased long name. */
  flags: FlagValues<Fs>;
  /** Every flag given, in the order of the command line (curl joins its data flags so). */
  order: readonly FlagUse[];
}

/** One command, as declared. */
export interface CommandDecl<As extends readonly ArgDecl[], Fs extends readonly FlagDecl[]> {
  /** The word that selects it (the root's is `dial`). */
  readonly name: string;
  /** One line, for the parent's command list, completions and the top of `--help`. */
  readonly summary: string;
  /** The usage line(s) after `Usage: dial …`; derived from the arguments when absent. */
  readonly usage?: string;
  /** Positional arguments, in order. */
  readonly args?: As;
  /** Flags. */
  readonly flags?: Fs;
  /** Groups of flags that exclude each other. */
  readonly conflicts?: readonly ConflictDecl[];
  /** Flags of other tools (curl) it does not have, each with a hint naming its own way. */
  readonly flagHints?: Readonly<Record<string, string>>;
  /** Text after the flags in `--help`: examples, exit codes. */
  readonly epilog?: string;
  /** Subcommands. A command with subcommands and no `run` is a group. */
  readonly commands?: readonly Command[];
  /** Every word after the command is an operand (for its variadic argument), none a flag. */
  readonly passthrough?: boolean;
  /** Runs it: import the implementation here (lazily), return the exit code. */
  readonly run?: (parsed: Parsed<As, Fs>, context: CliContext) => Promise<number>;
}

/** A command with its types erased, as the parser, help and completions see it. */
export interface Command {
  /** See {@link CommandDecl.name}. */
  readonly name: string;
  /** See {@link CommandDecl.summary}. */
  readonly summary: string;
  /** See {@link CommandDecl.usage}. */
  readonly usage?: string;
  /** See {@link CommandDecl.args}. */
  readonly args: readonly ArgDecl[];
  /** See {@link CommandDecl.flags}. */
  readonly flags: readonly FlagDecl[];
  /** See {@link CommandDecl.conflicts}. */
  readonly conflicts: readonly ConflictDecl[];
  /** See {@link CommandDecl.flagHints}. */
  readonly flagHints?: Readonly<Record<string, string>>;
  /** See {@link CommandDecl.epilog}. */
  readonly epilog?: string;
  /** See {@link CommandDecl.commands}. */
  readonly commands: readonly Command[];
  /** See {@link CommandDecl.passthrough}. */
  readonly passthrough?: boolean;
  /** Runs it with values the parser checked against this command's declarations. */
  readonly run?: (values: ParsedValues, context: CliContext) => Promise<number>;
}

/** Parsed values before they are seen through a command's types. */
export interface ParsedValues {
  /** Positional arguments by name (a variadic one as a list). */
  args: Record<string, string | string[] | undefined>;
  /** Flags by camel-cased long name. */
  flags: Record<string, FlagValue>;
  /** Every flag given, in the order of the command line. */
  order: readonly FlagUse[];
}

/** One flag as given: its long name (whatever spelling was typed) and its value as typed. */
export interface FlagUse {
  /** The flag's long name. */
  readonly long: string;
  /** The value as typed; `true` for a switch or a bare optional-value flag. */
  readonly value: string | true;
}

/** A runtime flag value. */
export type FlagValue = string | number | boolean | undefined | Array<string | number>;

/**
 * Declares a command. `const` type parameters keep the literal names, so the parsed flags and
 * arguments are typed from the declaration itself.
 *
 * @param decl the declaration
 * @returns the command, types erased for the tree
 */
export function command<
  const As extends readonly ArgDecl[] = readonly [],
  const Fs extends readonly FlagDecl[] = readonly [],
>(decl: CommandDecl<As, Fs>): Command {
  const run = decl.run;
  return {
    name: decl.name,
    summary: decl.summary,
    ...(decl.usage !== undefined ? { usage: decl.usage } : {}),
    args: decl.args ?? [],
    flags: decl.flags ?? [],
    conflicts: decl.conflicts ?? [],
    ...(decl.flagHints !== undefined ? { flagHints: decl.flagHints } : {}),
    ...(decl.epilog !== undefined ? { epilog: decl.epilog } : {}),
    commands: decl.commands ?? [],
    ...(decl.passthrough ? { passthrough: true } : {}),
    ...(run
      ? {
        // The one place runtime values meet their declared types: the parser built `values`
        // from exactly these declarations (./parse.ts), so their shape is FlagValues<Fs>.
        run: (values: ParsedValues, context: CliContext) =>
          run(values as unknown as Parsed<As, Fs>, context),
      }
      : {}),
  };
}

/**
 * Declares a list of flags to share between commands, keeping their literal types.
 *
 * @param flags the flags
 * @returns the same list
 */
export function flags<const Fs extends readonly FlagDecl[]>(flags: Fs): Fs {
  return flags;
}

/** What a flag declares besides its name, placeholder and help (see {@link FlagDecl}). */
export type FlagExtras = Omit<FlagDecl, "long" | "value" | "help">;

/** A declaration made by {@link flag}: its literal types kept for {@link FlagValues}. */
type Declared<L extends string, V, M> = { readonly long: L; readonly help: string } & V & M;

/** A maker of flags whose value has this placeholder and kind. */
const valued =
  <const V extends string, const K extends ValueKind>(value: V, kind: K) =>
  <const L extends string, const M extends FlagExtras = Record<never, never>>(
    long: L,
    help: string,
    more?: M,
  ): Declared<L, { readonly value: V; readonly kind: K }, M> =>
    ({ long, value, kind, help, ...more }) as Declared<
      L,
      { readonly value: V; readonly kind: K },
      M
    >;

/**
 * Flag declarations on one line each, for lists of {@link flags}; `more` is the rest of the
 * declaration (`short`, `aliases`, `default`, `repeatable`, `choices`, `min`, `file` …):
 *
 * ```ts
 * flag.on("dry-run", "write nothing")                          // a switch
 * flag.value("out", "file", "write to this file", { file: true })
 * flag.seconds("timeout", "give up after this long", { default: "30" })  // → milliseconds
 * flag.count("max-events", "exit after N events", { min: 1 })  // placeholder `n`
 * flag.verbose("print the handshake to stderr")                // -v
 * ```
 */
export const flag = {
  /** A switch. */
  on: <const L extends string, const M extends FlagExtras = Record<never, never>>(
    long: L,
    help: string,
    more?: M,
  ): Declared<L, unknown, M> => ({ long, help, ...more }) as Declared<L, unknown, M>,
  /** A flag taking text, shown as `value` in help. */
  value: <const L extends string, const M extends FlagExtras = Record<never, never>>(
    long: L,
    value: string,
    help: string,
    more?: M,
  ): Declared<L, { readonly value: string }, M> =>
    ({ long, value, help, ...more }) as Declared<L, { readonly value: string }, M>,
  /** Decimal seconds, delivered in milliseconds. */
  seconds: valued("seconds", "seconds"),
  /** A whole number. */
  count: valued("n", "count"),
  /** `-v`/`--verbose`, saying what it prints. */
  verbose: (help: string): Declared<"verbose", { readonly short: "v" }, unknown> => ({
    long: "verbose",
    short: "v",
    help,
  }),
};

// --- types derived from declarations --------------------------------------------------------

/** `max-redirects` → `maxRedirects`. */
export type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

/** The property name of a flag: its camel-cased long name, without a leading `no-`. */
export type FlagKey<F extends FlagDecl> = F["long"] extends `no-${infer Rest}` ? CamelCase<Rest>
  : CamelCase<F["long"]>;

type Scalar<F extends { readonly kind?: ValueKind; readonly choices?: readonly string[] }> =
  F extends { readonly choices: readonly (infer C)[] } ? C
    : F extends { readonly kind: "count" | "seconds" | "port" } ? number
    : string;

/** The parsed type of one flag. */
export type FlagValueOf<F extends FlagDecl> = F extends { readonly value: string }
  ? F extends { readonly repeatable: true } ? Scalar<F>[]
  : F extends { readonly optionalValue: true } ? Scalar<F> | true | undefined
  : F extends { readonly default: string } ? Scalar<F>
  : Scalar<F> | undefined
  : boolean;

/** The parsed flags of a command, from its declarations. */
export type FlagValues<Fs extends readonly FlagDecl[]> = {
  [F in Fs[number] as FlagKey<F>]: FlagValueOf<F>;
};

/** The parsed positional arguments of a command, from its declarations. */
export type ArgValues<As extends readonly ArgDecl[]> = {
  [A in As[number] as A["name"]]: A extends { readonly variadic: true } ? string[]
    : A extends { readonly required: true } ? Scalar<A>
    : Scalar<A> | undefined;
};

/**
 * @param long a long flag name
 * @returns the property name it parses into
 */
export function flagKey(long: string): string {
  // Called for every flag of a command on each run: a loop, not a replace with a callback
  // (that cost `dial GET` ~0.5 ms of its start-up).
  const name = long.startsWith("no-") ? long.slice(3) : long;
  let key = "";
  let from = 0;
  for (let dash = name.indexOf("-"); dash >= 0 && dash < name.length - 1;) {
    key += name.slice(from, dash) + name[dash + 1]!.toUpperCase();
    from = dash + 2;
    dash = name.indexOf("-", from);
  }
  return key + name.slice(from);
}

/**
 * @param values parsed flags
 * @param flag one of their declarations
 * @returns whether the flag is set: a switch on, a repeatable used, a value present (a flag
 *   with a default always has one)
 */
export function isGiven(values: { readonly [key: string]: unknown }, flag: FlagDecl): boolean {
  const value = values[flagKey(flag.long)];
  if (flag.value === undefined) return value === !flag.long.startsWith("no-");
  if (Array.isArray(value)) return value.length > 0;
  return value !== undefined;
}
