import assert from "node:assert/strict";
import { testContext } from "../_run_cli.ts";
import { command, type FlagValues } from "../../src/cli/declare.ts";
import { helpText } from "../../src/cli/help.ts";
import { type Invocation, parseArgv } from "../../src/cli/parse.ts";
import { ROOT } from "../../src/cli/program.ts";
import { SUBCOMMANDS } from "../../src/cli/flag_values.ts";
import { UsageError } from "../../src/errors/mod.ts";

const FLAGS = [
  { long: "verbose", short: "v", help: "talk" },
  { long: "include", short: "i", help: "heads" },
  { long: "output", short: "o", value: "file", help: "to a file" },
  { long: "header", short: "H", value: "header", repeatable: true, help: "a header" },
  { long: "count", value: "n", kind: "count", min: 1, help: "how many" },
  { long: "offset", value: "n", help: "any text" },
  { long: "wait", value: "seconds", kind: "seconds", default: "1", help: "wait" },
  { long: "port", value: "port", kind: "port", help: "a port" },
  { long: "mode", value: "mode", choices: ["a", "b"], help: "a or b" },
  { long: "no-reconnect", help: "stop at the end" },
] as const;

let last: { args: Record<string, string | undefined>; flags: FlagValues<typeof FLAGS> };
const TEST = command({
  name: "dial",
  summary: "test",
  args: [{ name: "first", help: "" }, { name: "second", help: "" }],
  flags: FLAGS,
  conflicts: [{ flags: ["verbose", "include"], reason: "pick one", hint: "a hint" }],
  commands: [command({ name: "sub", summary: "a sub", run: () => Promise.resolve(0) })],
  run: ({ args, flags }) => {
    last = { args, flags };
    return Promise.resolve(0);
  },
});

async function parse(argv: string[]) {
  const invocation: Invocation = parseArgv(TEST, argv);
  assert.equal(invocation.kind, "run");
  if (invocation.kind === "run") {
    await invocation.run(invocation.values, testContext());
  }
  return last;
}

function usage(argv: string[], message: RegExp, root = TEST) {
  assert.throws(() => parseArgv(root, argv), (error: unknown) => {
    assert.ok(error instanceof UsageError, String(error));
    assert.match(`${error.message}\nhint: ${error.hint ?? ""}`, message);
    return true;
  });
}

Deno.test("cli parse: defaults and typed values", async () => {
  const { args, flags } = await parse([]);
  // The types come from the declarations: these lines fail deno check if they drift.
  const typed: [number | undefined, number, "a" | "b" | undefined, string[], boolean] = [
    flags.count,
    flags.wait,
    flags.mode,
    flags.header,
    flags.reconnect,
  ];
  assert.equal(typed.length, 5);
  assert.deepEqual(args, { first: undefined, second: undefined });
  assert.deepEqual(flags, {
    verbose: false,
    include: false,
    output: undefined,
    header: [],
    count: undefined,
    offset: undefined,
    wait: 1000,
    port: undefined,
    mode: undefined,
    reconnect: true,
  });
});

Deno.test("cli parse: short clusters, attached values, --flag=value and --flag value", async () => {
  const { flags } = await parse(["-vofile.txt", "--count=3", "--port", "8080", "--no-reconnect"]);
  assert.equal(flags.verbose, true);
  assert.equal(flags.output, "file.txt");
  assert.equal(flags.count, 3);
  assert.equal(flags.port, 8080);
  assert.equal(flags.reconnect, false);
  assert.equal((await parse(["-vo", "x"])).flags.output, "x");
});

Deno.test("cli parse: repeatable flags keep order; -- ends flags; values may start with -", async () => {
  const { args, flags } = await parse(["-H", "B: 2", "a", "--header=A: 1", "-H", "-x", "--", "-v"]);
  assert.deepEqual(flags.header, ["B: 2", "A: 1", "-x"]);
  assert.deepEqual(args, { first: "a", second: "-v" });
  assert.equal(flags.verbose, false);
  assert.equal((await parse(["--offset", "-5"])).flags.offset, "-5");
  assert.deepEqual((await parse(["-5"])).args.first, "-5");
});

Deno.test("cli parse: unknown flags suggest the closest and nothing runs", () => {
  usage(["--verbos"], /unknown option '--verbos'\nhint: did you mean --verbose\?/);
  usage(["-vx"], /unknown option '-x' \(in "-vx"\)/);
  usage(["--help-me"], /unknown option '--help-me'/);
});

Deno.test("cli parse: values are checked against kind and choices", () => {
  usage(["--count", "0"], /Invalid --count "0": expected a whole number of at least 1/);
  usage(["--wait", "soon"], /Invalid --wait "soon": expected a positive number of seconds/);
  usage(["--port", "70000"], /Invalid --port "70000": expected a port from 1 to 65535/);
  usage(["--mode", "c"], /Invalid --mode "c": expected a or b/);
  usage(["--output"], /Missing value for -o, --output/);
  usage(["--verbose=yes"], /Flag --verbose takes no value/);
});

Deno.test("cli parse: declared conflicts, too many arguments, flags before a command", () => {
  usage(["-v", "-i"], /Conflicting flags -v and -i: pick one\nhint: a hint/);
  usage(["a", "b", "c"], /Too many arguments/);
  usage(["-v", "sub"], /Flags must come after the command/);
});

Deno.test("cli parse: help, version and subcommands", () => {
  assert.equal(parseArgv(TEST, ["a", "--help"]).kind, "help");
  assert.equal(parseArgv(TEST, ["-V"]).kind, "version");
  const sub = parseArgv(TEST, ["sub"]);
  assert.deepEqual(sub.kind === "run" && sub.path.map((c) => c.name), ["dial", "sub"]);
  usage(["auth", "tokn"], /Unknown command "tokn" for "auth"\nhint: did you mean "token"\?/, ROOT);
});

Deno.test("cli help: repeatables show no default; defaults and choices are shown", () => {
  const help = helpText([TEST]);
  assert.match(help, /-H, --header <header> +a header\n/);
  assert.match(help, /--wait <seconds> +wait \(default 1\)\n/);
  assert.match(help, /--mode <a\|b> +a or b\n/);
  assert.doesNotMatch(help, /default: \[\]/);
});

Deno.test("cli: the lowercase words the request command checks are the subcommands", () => {
  assert.deepEqual(SUBCOMMANDS, ROOT.commands.map((c) => c.name));
});
