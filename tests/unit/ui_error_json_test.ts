import assert from "node:assert/strict";
import { errorJson } from "../../src/ui/api/error_json.ts";
import { uiHint } from "../../src/ui/api/ui_words.ts";
import { TimeoutError, TransportError, UsageError } from "../../src/errors.ts";

Deno.test("ui errors: hints naming CLI flags name the UI's controls instead", () => {
  assert.equal(
    uiHint("check the credentials (-u, -B, -K, -H, --oauth2)"),
    "check the auth panel and the headers you added",
  );
  assert.equal(
    uiHint("raise --max-redirects, or drop -L to see the redirect"),
    "untick Follow redirects to see the redirect",
  );
  assert.equal(
    uiHint("pick another port with --oauth2-port or --oauth2-redirect-uri"),
    "pick another Callback port in the auth panel",
  );
  assert.equal(uiHint("check the token URL in --oauth2"), "check the Token URL in the auth panel");
});

Deno.test("ui errors: a hint that only makes sense on the command line is dropped, others kept", () => {
  assert.equal(uiHint("write -K api_key=VALUE"), undefined);
  assert.equal(uiHint("use --data-binary for bytes"), undefined);
  assert.equal(uiHint("is the server running?"), "is the server running?");
  assert.equal(uiHint(undefined), undefined);
});

Deno.test("ui errors: one shape, code first, hint only when there is one", () => {
  assert.deepEqual(errorJson(new UsageError("Bad", { hint: "write -K a=b" })), {
    code: "usage",
    message: "Bad",
  });
  assert.deepEqual(errorJson(new TimeoutError("Slow", { hint: "raise --timeout" })), {
    code: "timeout",
    message: "Slow",
    hint: "raise Timeout in the tab",
  });
  assert.deepEqual(errorJson(new TransportError("Down")), { code: "transport", message: "Down" });
  assert.deepEqual(errorJson(new Error("boom")), { code: "internal", message: "boom" });
});
