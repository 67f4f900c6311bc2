/**
 * The UI's OAuth panel runs the device flow: the token endpoint's NDJSON first carries the
 * code and the page (which the panel shows), then the token state once the person has
 * logged in (here the test browser, at oidc-provider).
 */
import assert from "node:assert/strict";
import { handleAuthToken } from "../../src/ui/api/auth_api.ts";
import { OIDC_CLIENTS, startOidcProvider } from "../e2e/_oauth_servers.ts";

Deno.test("ui api: the device flow's code and page reach the panel before the token state", async () => {
  await using op = await startOidcProvider({ redirectUris: [], deviceFlow: true });
  const cacheDir = await Deno.makeTempDir({ prefix: "dial-ui-cache-" });
  const request = new Request("http://ui.test/api/auth/token", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      auth: {
        kind: "oauth2",
        flow: "device_code",
        tokenUrl: "",
        issuer: op.origin,
        clientId: OIDC_CLIENTS.device.id,
        scope: "openid",
      },
    }),
  });
  const response = await handleAuthToken(request, {
    signal: new AbortController().signal,
    oauth: { cacheDir },
  });
  const events: Array<Record<string, unknown>> = [];
  let buffer = "";
  const decoder = new TextDecoder();
  for await (const chunk of response.body!) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const event = JSON.parse(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
      events.push(event);
      if (event.type === "device") {
        // The person opens the page and logs in (the test browser, as for authorization_code).
        const browser = new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "-A",
            "--quiet",
            new URL("../e2e/_browser.ts", import.meta.url).pathname,
            event.verificationUriComplete,
          ],
          stdout: "null",
          stderr: "null",
        });
        assert.equal((await browser.output()).code, 0);
      }
    }
  }
  assert.deepEqual(events.map((e) => e.type), ["device", "state"]);
  const [device, state] = events as [Record<string, unknown>, Record<string, unknown>];
  assert.match(String(device.userCode), /^[A-Z]{4}-[A-Z]{4}$/);
  assert.equal(device.verificationUri, `${op.origin}/device`);
  assert.equal(typeof (state.state as { obtainedAt?: unknown }).obtainedAt, "number");
  assert.equal(op.grants["urn:ietf:params:oauth:grant-type:device_code"], 1);
});
