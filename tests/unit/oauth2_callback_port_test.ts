/**
 * The authorization-code callback's default port, read through the command line's own parsing
 * (no port is bound: 8484 may be taken on the machine running the tests). That dial listens on
 * the port it resolves and sends it as `redirect_uri` is shown end to end with `--oauth2-port`
 * in tests/e2e/oauth2_login_test.ts.
 */
import { testContext } from "../_run_cli.ts";
import assert from "node:assert/strict";
import { parseArgv } from "../../src/cli/parse.ts";
import { ROOT } from "../../src/cli/program.ts";
import type { OAuth2FlagValues } from "../../src/cli/auth_flags.ts";
import { parseOAuth2Flags } from "../../src/cli/oauth2_flags.ts";
import { redirectUriOf } from "../../src/auth/oauth2/login.ts";

async function oauth2Options(extra: string[]) {
  const invocation = parseArgv(ROOT, [
    "https://api.example/me",
    "--oauth2",
    "authorization_code:https://id.example/token:app",
    "--oauth2-auth-url",
    "https://id.example/authorize",
    ...extra,
  ]);
  assert.equal(invocation.kind, "run");
  const options = await parseOAuth2Flags(
    invocation.values.flags as unknown as OAuth2FlagValues,
    testContext(),
  );
  assert.ok(options);
  return options;
}

Deno.test("oauth2 login: the callback port defaults to 8484 (http://localhost:8484/)", async () => {
  const options = await oauth2Options([]);
  assert.equal(options.port, 8484);
  assert.equal(redirectUriOf(options).href, "http://localhost:8484/");
});

Deno.test("oauth2 login: --oauth2-port and --oauth2-redirect-uri replace the default", async () => {
  assert.equal(
    redirectUriOf(await oauth2Options(["--oauth2-port", "9001"])).href,
    "http://localhost:9001/",
  );
  const given = await oauth2Options(["--oauth2-redirect-uri", "http://127.0.0.1:9002/cb"]);
  assert.equal(redirectUriOf(given).href, "http://127.0.0.1:9002/cb");
});
