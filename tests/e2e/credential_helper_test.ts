/**
 * `@exec:COMMAND` credential helpers: run without a shell, their output is the secret (never
 * shown), their stderr is shown when they fail, with a time limit; and the `pass` recipe with
 * Debian's pass and a throwaway GnuPG key.
 */
import assert from "node:assert/strict";
import { bearerApi, dial } from "../_helpers.ts";
import { runProgram } from "../_process.ts";

Deno.test("helper: -B @exec:… sends what the program printed, words split without a shell", async () => {
  await using target = bearerApi();
  const plain = await dial(["GET", target.origin, "-B", "@exec:printf tok-123"]);
  assert.equal(plain.code, 0, plain.stderr);
  // Quotes group words; $HOME and ; are not expanded or run: there is no shell.
  const quoted = await dial(["GET", target.origin, "-B", `@exec:printf '%s\\n' "a b;\$HOME"`]);
  assert.equal(quoted.code, 0, quoted.stderr);
  assert.deepEqual(target.seen, ["Bearer tok-123", "Bearer a b;$HOME"]);
});

Deno.test("helper: the password part of -u and the OAuth client secret take @exec: too", async () => {
  await using target = bearerApi();
  const result = await dial(["GET", target.origin, "-u", "ann:@exec:printf pw:with:colons"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(target.seen[0], `Basic ${btoa("ann:pw:with:colons")}`);
});

Deno.test("helper: a failing helper's stderr is shown with its exit code, never its output", async () => {
  const helper = await Deno.makeTempFile({ prefix: "dial-helper-" });
  await Deno.writeTextFile(
    helper,
    "#!/bin/sh\necho partial-secret\necho 'vault is locked' >&2\nexit 3\n",
  );
  await Deno.chmod(helper, 0o700);
  const result = await dial(["GET", "http://127.0.0.1:9/", "-B", `@exec:${helper}`]);
  await Deno.remove(helper);
  assert.equal(result.code, 2, result.stderr);
  assert.match(
    result.stderr,
    /The credential helper ".*dial-helper-.*" of -B @exec:.* failed \(exit 3\):\n {2}vault is locked/,
  );
  assert.doesNotMatch(result.stderr, /partial-secret/);
});

Deno.test("helper: not found, printed nothing, too slow", async () => {
  const missing = await dial(["GET", "http://127.0.0.1:9/", "-B", "@exec:no-such-helper-dial"]);
  assert.equal(missing.code, 2);
  assert.match(
    missing.stderr,
    /Cannot run the credential helper "no-such-helper-dial" of -B @exec:no-such-helper-dial: no such program/,
  );
  const empty = await dial(["GET", "http://127.0.0.1:9/", "-B", "@exec:true"]);
  assert.equal(empty.code, 2);
  assert.match(empty.stderr, /The credential helper "true" of -B @exec:true printed nothing/);
  const slow = await dial(["GET", "http://127.0.0.1:9/", "-B", "@exec:sleep 30"], {
    env: { DIAL_HELPER_TIMEOUT: "0.5" },
  });
  assert.equal(slow.code, 2);
  assert.match(slow.stderr, /did not finish within 0\.5 s/);
});

Deno.test("helper: -H @exec:… reads header lines from a helper", async () => {
  await using target = bearerApi();
  const result = await dial([
    "GET",
    target.origin,
    "-H",
    `@exec:printf 'Authorization: Bearer from-helper\\n'`,
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(target.seen, ["Bearer from-helper"]);
});

Deno.test("helper: the pass recipe (Debian's pass, a throwaway GnuPG key) gives -B its token", async () => {
  const gnupg = await Deno.makeTempDir({ prefix: "dial-gnupg-" });
  const store = await Deno.makeTempDir({ prefix: "dial-pass-" });
  const env = { GNUPGHOME: gnupg, PASSWORD_STORE_DIR: store };
  const run = async (program: string, args: string[], stdin?: string) => {
    const output = await runProgram(program, args, stdin === undefined ? { env } : { env, stdin });
    assert.equal(output.code, 0, output.stderr);
  };
  try {
    await run("gpg", [
      "--batch",
      "--passphrase",
      "",
      "--quick-gen-key",
      "dial@example.invalid",
      "default",
      "default",
      "never",
    ]);
    await run("pass", ["init", "dial@example.invalid"]);
    await run("pass", ["insert", "-m", "api/token"], "s3cr3t-from-pass\n");
    await using target = bearerApi();
    const result = await dial(["GET", target.origin, "-B", "@exec:pass show api/token", "-v"], {
      env,
      // pass is dial's child: it inherits the process's environment (GNUPGHOME, the store).
      process: true,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(target.seen, ["Bearer s3cr3t-from-pass"]);
    assert.doesNotMatch(result.stderr, /s3cr3t-from-pass/);
  } finally {
    await new Deno.Command("gpgconf", { args: ["--kill", "gpg-agent"], env }).output();
    await Deno.remove(gnupg, { recursive: true }).catch(() => {});
    await Deno.remove(store, { recursive: true });
  }
});
