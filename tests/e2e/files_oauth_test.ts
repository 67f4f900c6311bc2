/**
 * JetBrains `Security.Auth` with the Authorization Code grant: dial's own login (callback server,
 * $BROWSER, PKCE) and token cache, from a request file, against oidc-provider.
 */
import assert from "node:assert/strict";
import { securityAuthEnv } from "./_files.ts";
import { dial, serve } from "../_helpers.ts";
import { BROWSER, oauthHome, OIDC_CLIENTS, startOidcProvider } from "./_oauth_servers.ts";
import { unusedPort } from "../_ports.ts";

Deno.test("run: Security.Auth Authorization Code logs in through the browser once, then uses the cache", async () => {
  const port = unusedPort();
  await using op = await startOidcProvider({ redirectUris: [`http://localhost:${port}/`] });
  const seen: string[] = [];
  await using api = serve((request) => {
    seen.push(request.headers.get("authorization") ?? "");
    return Response.json({ ok: true });
  });
  const dir = await Deno.makeTempDir({ prefix: "dial-files-oauth-" });
  await Deno.writeTextFile(
    `${dir}/api.http`,
    `GET ${api.origin}/me\nAuthorization: Bearer {{$auth.token("login")}}\n`,
  );
  await Deno.writeTextFile(
    `${dir}/http-client.env.json`,
    securityAuthEnv({
      login: {
        "Type": "OAuth2",
        "Grant Type": "Authorization Code",
        "Auth URL": op.authUrl,
        "Token URL": op.tokenUrl,
        "Redirect URL": `http://localhost:${port}/`,
        "Client ID": OIDC_CLIENTS.public.id,
        "Scope": "openid api:read",
      },
    }),
  );
  const home = await oauthHome();
  const log = await Deno.makeTempFile({ prefix: "dial-browser-", suffix: ".jsonl" });
  const env = { HOME: home, BROWSER, FAKE_BROWSER_MODE: "login", FAKE_BROWSER_LOG: log };
  const first = await dial(["run", `${dir}/api.http`, "--env", "dev"], { env });
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.stdout, '{"ok":true}');
  assert.match(first.stderr, /If it does not open, visit:\n {2}http:\/\/127\.0\.0\.1:\d+\/auth\?/);
  assert.equal(op.grants.authorization_code, 1);
  assert.match(seen[0]!, /^Bearer \S+/);
  const second = await dial(["run", `${dir}/api.http`, "--env", "dev"], {
    env: { ...env, FAKE_BROWSER_MODE: "none" },
  });
  assert.equal(second.code, 0, second.stderr);
  assert.equal(op.grants.authorization_code, 1);
  assert.equal(seen[1], seen[0]);
});
