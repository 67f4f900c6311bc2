import assert from "node:assert/strict";
import { errorJson } from "../../src/ui/api/error_json.ts";
import { UI_REMEDIES } from "../../src/ui/api/ui_remedies.ts";
import { CLI_REMEDIES } from "../../src/cli/cli_remedies.ts";
import {
  AuthError,
  networkError,
  type Remedy,
  type RemedyVerb,
  TimeoutError,
  TransportError,
  UsageError,
  wordRemedy,
} from "../../src/errors/mod.ts";

/** Every remedy of the table, from the CLI's words (both faces word the same closed set). */
function everyRemedy(): Remedy[] {
  return Object.entries(CLI_REMEDIES).flatMap(([verb, targets]) =>
    Object.keys(targets).map((target) => ({ [verb as RemedyVerb]: target }) as Remedy)
  );
}

Deno.test("ui errors: remedies name the UI's controls, never flags", () => {
  const ui = (remedy: Remedy) => wordRemedy(remedy, {}, UI_REMEDIES);
  assert.equal(ui({ check: "credentials" }), "check the auth panel and the headers you added");
  assert.equal(ui({ raise: "max_redirects" }), "untick Follow redirects to see the redirect");
  assert.equal(ui({ choose: "callback_port" }), "pick another Callback port in the auth panel");
  assert.equal(ui({ check: "token_url" }), "check the Token URL in the auth panel");
  assert.equal(
    ui({ raise: "login_timeout" }),
    "press Log in again, or raise Login timeout in the auth panel",
  );
  assert.equal(
    ui({ check: "client" }),
    "check the client id and secret in the auth panel, and Client authentication",
  );
  // No remedy names a flag: TLS trust and proxies are the TLS and proxy settings' controls.
  const flag = /(^|[\s(,`"'])--?[A-Za-z][\w-]*/;
  for (const remedy of everyRemedy()) {
    const words = wordRemedy(remedy, { path: "/tmp/x", proxySource: "HTTPS_PROXY" }, UI_REMEDIES);
    if (words === undefined) continue;
    assert.doesNotMatch(words, flag, JSON.stringify(remedy));
  }
});

Deno.test("ui errors: the CLI words every remedy; the UI leaves out the ones without a control", () => {
  for (const remedy of everyRemedy()) {
    const details = { path: "/tmp/x", proxySource: "--proxy", choices: ["a"], url: "x" };
    assert.ok(wordRemedy(remedy, details, CLI_REMEDIES), JSON.stringify(remedy));
  }
  assert.equal(wordRemedy({ write: "oauth2" }, {}, UI_REMEDIES), undefined);
  assert.equal(wordRemedy({ raise: "max_retries" }, {}, UI_REMEDIES), undefined);
});

Deno.test("ui errors: one shape, code first, hint only when there is one", () => {
  assert.deepEqual(errorJson(new UsageError("Bad", { remedy: { write: "oauth2" } })), {
    code: "usage",
    message: "Bad",
  });
  assert.deepEqual(errorJson(new TimeoutError("Slow", { remedy: { raise: "timeout" } })), {
    code: "timeout",
    message: "Slow",
    hint: "raise Timeout in the tab",
  });
  assert.deepEqual(errorJson(new AuthError("No", { hint: "press Log in" })), {
    code: "auth",
    message: "No",
    hint: "press Log in",
  });
  assert.deepEqual(errorJson(new TransportError("Down")), { code: "transport", message: "Down" });
  assert.deepEqual(errorJson(new Error("boom")), { code: "internal", message: "boom" });
});

Deno.test("ui errors: the runtime's own words after a reason dial named are left out", () => {
  const refused = networkError(
    new TypeError("error sending request for url (http://127.0.0.1:9/)", {
      cause: new Error("client error (Connect): tcp connect error: Connection refused"),
    }),
    new URL("http://127.0.0.1:9/"),
  );
  assert.match(refused.message, /^Cannot reach 127\.0\.0\.1:9: connection refused \(.+\)$/);
  assert.equal(errorJson(refused).message, "Cannot reach 127.0.0.1:9: connection refused");
  // Without a reason of dial's own, the runtime's words are all there is: they stay.
  const odd = networkError(new TypeError("something new"), new URL("http://127.0.0.1:9/"));
  assert.equal(errorJson(odd).message, "Cannot reach 127.0.0.1:9: something new");
});
