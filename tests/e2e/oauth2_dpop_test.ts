/**
 * DPoP (RFC 9449) with `--oauth2-dpop`: oidc-provider binds the client_credentials token to the
 * run's key; a resource server that checks the token and each request's proof with
 * oauth4webapi's `validateJwtAccessToken` (requireDPoP) accepts dial's requests, and its
 * `use_dpop_nonce` is answered once. Without the flag the bound token is refused as before.
 */
import assert from "node:assert/strict";
import * as oauth from "oauth4webapi";
import { dial, serve } from "../_helpers.ts";
import { oauthHome, OIDC_CLIENTS, startOidcProvider } from "./_oauth_servers.ts";

const AUDIENCE = "https://api.example.com/";

function decode(part: string): Record<string, unknown> {
  return JSON.parse(
    new TextDecoder().decode(Uint8Array.fromBase64(part, { alphabet: "base64url" })),
  );
}

/** A resource server verifying DPoP-bound JWT access tokens of `issuer` (nobody here wrote the check). */
function resourceServer(issuer: string, options: { nonce?: string } = {}) {
  const as: oauth.AuthorizationServer = { issuer, jwks_uri: `${issuer}/jwks` };
  const seen: Array<{ ok: boolean; reason?: string; scheme: string; nonce?: unknown }> = [];
  const server = serve(async (request) => {
    const scheme = (request.headers.get("authorization") ?? "").split(" ")[0] ?? "";
    const proof = request.headers.get("dpop");
    const nonce = proof ? decode(proof.split(".")[1] ?? "").nonce : undefined;
    if (options.nonce !== undefined && nonce !== options.nonce) {
      seen.push({ ok: false, reason: "use_dpop_nonce", scheme, nonce });
      return new Response(null, {
        status: 401,
        headers: {
          "WWW-Authenticate": 'DPoP error="use_dpop_nonce", error_description="nonce required"',
          "DPoP-Nonce": options.nonce,
        },
      });
    }
    try {
      const claims = await oauth.validateJwtAccessToken(as, request, AUDIENCE, {
        requireDPoP: true,
        [oauth.allowInsecureRequests]: true,
      });
      seen.push({ ok: true, scheme, nonce });
      return Response.json({ client: claims.client_id, jkt: (claims.cnf as { jkt?: string }).jkt });
    } catch (error) {
      seen.push({ ok: false, reason: (error as Error).message, scheme });
      return new Response(null, { status: 401 });
    }
  });
  return Object.assign(server, { seen });
}

function args(op: { tokenUrl: string }, url: string, ...extra: string[]): string[] {
  return [
    url,
    "--oauth2",
    `client_credentials:${op.tokenUrl}:${OIDC_CLIENTS.web.id}`,
    "--oauth2-client-secret",
    "@env:SECRET",
    "--oauth2-scope",
    "api:read",
    "--oauth2-param",
    `resource=${AUDIENCE}`,
    ...extra,
  ];
}

Deno.test("oauth2 dpop: oidc-provider binds the token to the run's key; each request's proof passes oauth4webapi's check", async () => {
  await using op = await startOidcProvider({
    redirectUris: ["http://localhost:1/"],
    resourceIndicators: true,
  });
  await using api = resourceServer(op.origin);
  const home = await oauthHome();
  const env = { HOME: home, SECRET: OIDC_CLIENTS.web.secret };
  const result = await dial(args(op, `${api.origin}/things?page=2`, "--oauth2-dpop", "-v"), {
    env,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(api.seen, [{ ok: true, scheme: "DPoP", nonce: undefined }]);
  const body = JSON.parse(result.stdout);
  assert.equal(body.client, OIDC_CLIENTS.web.id);
  assert.match(body.jkt, /^[\w-]{43}$/);
  // -v shows the scheme and the proof header, their values redacted.
  assert.match(result.stderr, /authorization: \(redacted\)/i);
  assert.match(result.stderr, /dpop: \(redacted\)/i);
  assert.doesNotMatch(result.stderr, /eyJ/);
  // A DPoP-bound token is never written to the cache (the key dies with the run).
  const cached = await Array.fromAsync(Deno.readDir(`${home}/.cache/dial/oauth2`)).catch(() => []);
  assert.deepEqual(cached.filter((entry) => !entry.name.startsWith("discovery-")), []);
  // Without --oauth2-dpop, the provider issues a Bearer token, which this server refuses.
  const bearer = await dial(args(op, `${api.origin}/things`, "--check-status"), { env });
  assert.equal(bearer.code, 4, bearer.stderr);
  assert.equal(api.seen[1]?.scheme, "Bearer");
  assert.equal(api.seen[1]?.ok, false);
});

Deno.test("oauth2 dpop: a resource server's use_dpop_nonce is answered once with its nonce", async () => {
  await using op = await startOidcProvider({
    redirectUris: ["http://localhost:1/"],
    resourceIndicators: true,
  });
  await using api = resourceServer(op.origin, { nonce: "n-1" });
  const result = await dial(args(op, `${api.origin}/things`, "--oauth2-dpop"), {
    env: { HOME: await Deno.makeTempDir(), SECRET: OIDC_CLIENTS.web.secret },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(api.seen.map((s) => [s.ok, s.reason, s.nonce]), [
    [false, "use_dpop_nonce", undefined],
    [true, undefined, "n-1"],
  ]);
});
