import assert from "node:assert/strict";
import { completionModel } from "../../src/cli/completion/model.ts";
import { command } from "../../src/cli/declare.ts";
import { dial } from "../_helpers.ts";
import { runProgram } from "../_process.ts";

function has(shell: string): boolean {
  try {
    return new Deno.Command("sh", { args: ["-c", `command -v ${shell}`], stdout: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

async function script(shell: string): Promise<string> {
  const result = await dial(["completions", shell]);
  assert.equal(result.code, 0, result.stderr);
  const path = await Deno.makeTempFile({ prefix: `dial-completions-`, suffix: `.${shell}` });
  await Deno.writeTextFile(path, result.stdout);
  return path;
}

/**
 * @param words the command line typed so far, the word being completed last
 * @returns bash code that asks dial's completion function for that word and prints its answers
 */
function bashComplete(words: string[]): string {
  return `COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${
    words.length - 1
  }; _dial; echo "\${COMPREPLY[*]}"`;
}

/**
 * Runs lines in a shell after sourcing dial's completion script for that shell.
 *
 * @param name bash, zsh or fish
 * @param lines what to run once the script is sourced
 * @param stubs what to define before it (stand-ins for zsh's compsys builtins)
 * @returns what the shell printed
 */
async function completing(name: string, lines: string[], stubs: string[] = []): Promise<string> {
  const path = await script(name);
  return await shell(name, [...stubs, `source ${path}`, ...lines].join("\n"));
}

async function shell(name: string, code: string): Promise<string> {
  const output = await runProgram(name, ["-c", code], {
    env: { HOME: await Deno.makeTempDir(), XDG_CONFIG_HOME: "/nonexistent" },
  });
  assert.equal(output.code, 0, `${name} failed: ${output.stderr}`);
  return output.stdout;
}

Deno.test("completions: an unknown shell is a usage error", async () => {
  const result = await dial(["completions", "tcsh"]);
  assert.equal(result.code, 2);
  assert.match(
    result.stderr,
    /'tcsh' is invalid for argument 'shell'\. Allowed choices are bash, zsh, fish/,
  );
});

Deno.test("completions: the model is read from the command declarations", () => {
  const root = command({
    name: "dial",
    summary: "",
    args: [{ name: "x", help: "" }],
    flags: [{ long: "brand-new", value: "file", help: "added later" }],
    commands: [
      command({ name: "sub", summary: "", flags: [{ long: "deep", help: "a sub flag" }] }),
    ],
  });
  const models = completionModel(root);
  assert.deepEqual(models.map((m) => m.path), [["dial"], ["dial", "sub"]]);
  const flag = models[0]!.flags.find((f) => f.long === "--brand-new");
  assert.deepEqual(flag, {
    long: "--brand-new",
    takesValue: true,
    file: true,
    choices: [],
    description: "added later",
  });
  assert.ok(models[0]!.words.some((w) => w.name === "PATCH"));
  assert.ok(models[1]!.flags.some((f) => f.long === "--deep"));
});

Deno.test({
  name: "completions: bash completes commands, methods, flags and skips flag values",
  ignore: !has("bash"),
  async fn() {
    const out = await completing("bash", [
      bashComplete(["dial", ""]),
      bashComplete(["dial", "--out"]),
      bashComplete(["dial", "-H", "X-Key: 1", "P"]),
      bashComplete(["dial", "GET", "P"]),
      bashComplete(["dial", "completions", ""]),
      bashComplete(["dial", "completions", "--h"]),
      "complete -p dial",
    ]);
    assert.deepEqual(out.trimEnd().split("\n"), [
      "graphql grpc ws sse run test ui mcp auth completions curl import export GET POST PUT PATCH DELETE HEAD OPTIONS",
      "--output",
      "POST PUT PATCH",
      "",
      "bash zsh fish",
      "--help",
      "complete -o default -F _dial dial",
    ]);
  },
});

Deno.test({
  name: "completions: zsh offers flags with descriptions, subcommand arguments and files",
  ignore: !has("zsh"),
  async fn() {
    // Stand-ins for compsys builtins: print what would be offered.
    const mocks = [
      "compdef() { print -r -- compdef $@ }",
      '_describe() { print -rl -- "${(@P)4}" }',
      'compadd() { print -rl -- "${(@P)2}" }',
      "_files() { print -r -- FILES }",
    ];
    const out = await completing("zsh", [
      "words=(dial --o); CURRENT=2; _dial | grep -e '^--output:'",
      "print -- ---",
      "words=(dial completions ''); CURRENT=3; _dial",
      "print -- ---",
      "words=(dial -o ''); CURRENT=3; _dial",
      "print -- ---",
      "words=(dial -H 'X: 1' ''); CURRENT=4; _dial | grep -e '^PATCH:' -e '^graphql:'",
    ], mocks);
    assert.equal(
      out,
      `compdef _dial dial
--output:write the body to a file (progress bar on a terminal; - for stdout)
---
bash:the shell
zsh:the shell
fish:the shell
---
FILES
---
graphql:Send GraphQL operations, print schemas, follow subscriptions
PATCH:HTTP method
`,
    );
  },
});

Deno.test({
  name: "completions: fish completes flags, methods and subcommand arguments",
  ignore: !has("fish"),
  async fn() {
    const out = await completing("fish", [
      "complete -C 'dial --outp'",
      "complete -C 'dial completions '",
      "complete -C 'dial PA'",
      "complete -C 'dial GET https://x --ti'",
    ]);
    const lines = out.trimEnd().split("\n");
    assert.deepEqual(lines.map((line) => line.split("\t")[0]), [
      "--output",
      "bash",
      "fish",
      "zsh",
      "PATCH",
      "--timeout",
    ]);
    assert.match(lines[0]!, /^--output\twrite the body to a file/);
    assert.equal(lines[4], "PATCH\tHTTP method");
  },
});

Deno.test({
  name:
    "completions: HTTPie's -a (dial's -u) is offered by bash, zsh and fish, and its value skipped",
  ignore: !has("bash") || !has("zsh") || !has("fish"),
  async fn() {
    const fromBash = await completing("bash", [
      bashComplete(["dial", "-a"]),
      bashComplete(["dial", "-a", "ann:pw", "P"]),
    ]);
    assert.deepEqual(fromBash.trimEnd().split("\n"), ["-a", "POST PUT PATCH"]);
    const fromZsh = await completing("zsh", [
      "words=(dial -); CURRENT=2; _dial | grep -e '^-a:'",
      "words=(dial -a ann:pw P); CURRENT=4; _dial | grep -e '^PATCH:'",
    ], [
      '_describe() { print -rl -- "${(@P)4}" }',
      'compadd() { print -rl -- "${(@P)2}" }',
      "compdef() { : }",
    ]);
    assert.equal(
      fromZsh,
      "-a:HTTP Basic auth (prompts for a missing password); also HTTPie's -a\nPATCH:HTTP method\n",
    );
    const fromFish = await completing("fish", [
      "complete -C 'dial -'",
      "echo ---",
      "complete -C 'dial -a ann:pw PA'",
    ]);
    assert.match(fromFish, /^-a\tHTTP Basic auth/m);
    assert.match(fromFish, /---\nPATCH\tHTTP method\n$/);
  },
});
