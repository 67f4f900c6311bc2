/** The UI's OAuth panel follows the CLI's rule: a cached token is bound to its client secret. */
import assert from "node:assert/strict";
import { serve } from "../_helpers.ts";
import { handleHttpSend } from "../../src/ui/api/http_api.ts";
import { OIDC_CLIENTS, startOidcProvider } from "../e2e/_oauth_servers.ts";

Deno.test("ui api: a wrong client secret in the OAuth panel never gets the cached token", async () => {
  await using op = await startOidcProvider({ redirectUris: ["http://localhost:8484/"] });
  await using target = serve(() => Response.json({ ok: true }));
  const cacheDir = await Deno.makeTempDir({ prefix: "dial-ui-cache-" });
  const context = { signal: new AbortController().signal, oauth: { cacheDir } };
  const call = async (clientSecret: string) => {
    const request = new Request("http://ui.test/api/http", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        method: "GET",
        url: `${target.origin}/me`,
        auth: {
          kind: "oauth2",
          flow: "client_credentials",
          tokenUrl: op.tokenUrl,
          clientId: OIDC_CLIENTS.web.id,
          clientSecret,
        },
      }),
    });
    // The answer is one NDJSON line: the response, or the error in the protocol's shape.
    const response = await handleHttpSend(request, context);
    const event = JSON.parse(await response.text());
    return event.type === "response"
      ? { ok: true, json: event.response }
      : { ok: false, error: `${event.error.code}: ${event.error.message}` };
  };
  const right = await call(OIDC_CLIENTS.web.secret);
  assert.equal(right.ok && right.json.status, 200);
  const wrong = await call("made-up");
  assert.equal(wrong.ok, false);
  assert.equal(/invalid_client/.test(String(wrong.error)), true, String(wrong.error));
  assert.equal(target.requests.length, 1);
  const again = await call(OIDC_CLIENTS.web.secret);
  assert.equal(again.ok && again.json.status, 200);
  assert.equal(op.grants.client_credentials, 1);
  assert.deepEqual(target.requests.map((r) => r.headers.get("authorization") !== null), [
    true,
    true,
  ]);
  assert.equal(
    target.requests[0]!.headers.get("authorization"),
    target.requests[1]!.headers.get("authorization"),
  );
});
