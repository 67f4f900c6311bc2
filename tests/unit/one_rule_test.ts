import assert from "node:assert/strict";
import { codeOf, sourceFiles } from "../_sources.ts";
import { bareHost, bracketHost, hostPort, joinHostPort } from "../../src/http/authority.ts";

/** Every source file of src/ (the browser bundle's output excluded), without comments. */
async function sources(): Promise<Array<[string, string]>> {
  return await Promise.all(
    (await sourceFiles("src")).map(async (
      path,
    ): Promise<[string, string]> => [path, await codeOf(path)]),
  );
}

/** The files whose code matches a pattern. */
async function where(pattern: RegExp): Promise<string[]> {
  return (await sources()).filter(([, code]) => pattern.test(code)).map(([path]) => path);
}

Deno.test("one rule: host:port, default ports and IPv6 brackets are written in one module", async () => {
  assert.equal(hostPort(new URL("https://[::1]/")), "[::1]:443");
  assert.equal(hostPort(new URL("ws://a.test/")), "a.test:80");
  assert.equal(joinHostPort("::1", 8484), "[::1]:8484");
  assert.equal(bracketHost("[::1]"), "[::1]");
  assert.equal(bareHost("[::1]"), "::1");
  assert.deepEqual((await where(/\b443\b/)).filter((p) => p !== "src/cli/cli_remedies.ts"), [
    "src/http/authority.ts",
  ]);
  assert.deepEqual(await where(/includes\(":"\) \?|\^\\\[\|\\\]\$/), ["src/http/authority.ts"]);
});

Deno.test("one rule: the single-Authorization rule and the OAuth 2.0 flow rule have one home", async () => {
  assert.deepEqual(await where(/both set the Authorization header/), [
    "src/auth/one_authorization.ts",
  ]);
  // The browser shows each flow's fields; the rule that refuses a missing one is checked once.
  const checks = await where(
    /flow === "(client_credentials|authorization_code|device_code|password)" &&/,
  );
  assert.deepEqual(checks.filter((path) => !path.startsWith("src/ui/web/")), []);
  assert.deepEqual((await where(/missingOAuth2Setting\(/)).sort(), [
    "src/auth/oauth2/required.ts",
    "src/cli/oauth2_flags.ts",
    "src/files/security_auth.ts",
    "src/ui/api/spec_json.ts",
  ]);
});

Deno.test("one rule: JSON a user typed is checked by one parser that never quotes it", async () => {
  const faces = [
    "src/cli/body_flags.ts",
    "src/cli/ws_run.ts",
    "src/ui/api/spec_json.ts",
    "src/ui/api/stream_messages.ts",
  ];
  const files = new Map(await sources());
  for (const path of faces) {
    assert.doesNotMatch(files.get(path) ?? "", /JSON\.parse/, path);
    assert.match(files.get(path) ?? "", /parseJsonText\(/, path);
  }
});

Deno.test('one rule: one suggestion distance for every "did you mean"', async () => {
  assert.deepEqual(await where(/function \w*(distance|Distance)\b/), ["src/edit_distance.ts"]);
  assert.deepEqual(await where(/function closest\b/), ["src/cli/parse.ts"]);
});

Deno.test("one rule: the process's stdin, stdout, stderr and environment are read at the I/O edge only", async () => {
  const edge = new Map([
    ["src/cli/io.ts", "the CLI's process context"],
    ["src/env.ts", "the library's default environment"],
  ]);
  const found = (await where(/Deno\.(env|stdin|stdout|stderr)\b/)).filter((path) =>
    !edge.has(path)
  );
  assert.deepEqual(found, []);
  // No module keeps a global sink or a run's state: each run's come from its context.
  assert.deepEqual(await where(/export function (stdout|stderr|writeSync|stdinClaimedBy)\(/), []);
  const runState = (await where(/^let \w+(: [^=]+)? = (false|undefined);?$/m))
    .filter((path) => path.startsWith("src/cli/") || path.startsWith("src/output/"));
  assert.deepEqual(runState, []);
});
