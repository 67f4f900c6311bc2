/**
 * `--oauth2-issuer`: endpoints discovered from oidc-provider's OpenID Connect metadata (cached
 * with the tokens), the RFC 8414 path, and an issuer that does not match.
 */
import assert from "node:assert/strict";
import { bearerApi, dial, serve } from "../_helpers.ts";
import {
  BROWSER,
  oauthHome,
  OIDC_CLIENTS,
  startMockServer,
  startOidcProvider,
} from "./_oauth_servers.ts";
import { unusedPort } from "../_ports.ts";

const WELL_KNOWN = "/.well-known/openid-configuration";

/** `--oauth2 client_credentials` with endpoints found at the issuer, for a client id. */
function byIssuer(issuer: string, clientId: string = OIDC_CLIENTS.web.id): string[] {
  return [
    "--oauth2",
    "client_credentials",
    "--oauth2-issuer",
    issuer,
    "--oauth2-client-id",
    clientId,
  ];
}

Deno.test("oauth2 issuer: client_credentials with only --oauth2-issuer finds the token endpoint at oidc-provider, metadata cached", async () => {
  await using op = await startOidcProvider({ redirectUris: ["http://localhost:1/"] });
  await using target = bearerApi();
  const home = await oauthHome();
  const args = [
    "GET",
    `${target.origin}/`,
    ...byIssuer(op.origin),
    "--oauth2-client-secret",
    "@env:SECRET",
  ];
  const env = { HOME: home, SECRET: OIDC_CLIENTS.web.secret };
  const first = await dial([...args, "-v"], { env });
  assert.equal(first.code, 0, first.stderr);
  assert.match(
    first.stderr,
    /Discovered the endpoints of http:\/\/127\.0\.0\.1:\d+\/ \(openid-configuration\): token endpoint http:\/\/127\.0\.0\.1:\d+\/token/,
  );
  assert.equal(op.grants.client_credentials, 1);
  assert.deepEqual(op.paths, [WELL_KNOWN, "/token"]);
  // A new token (the cached one is removed) still needs no metadata request: it is cached.
  const logout = await dial(["auth", "logout", "--all"], { env });
  assert.equal(logout.code, 0, logout.stderr);
  const second = await dial(args, { env });
  assert.equal(second.code, 0, second.stderr);
  assert.deepEqual(op.paths, [WELL_KNOWN, "/token", "/token"]);
  assert.equal(target.seen.length, 2);
  const files = [];
  for await (const f of Deno.readDir(`${home}/.cache/dial/oauth2`)) files.push(f.name);
  assert.ok(files.some((name) => /^discovery-[0-9a-f]{64}\.json$/.test(name)), files.join());
  const info = await Deno.stat(
    `${home}/.cache/dial/oauth2/${files.find((n) => n.startsWith("discovery-"))}`,
  );
  assert.equal((info.mode ?? 0) & 0o777, 0o600);
});

Deno.test("oauth2 issuer: metadata naming another issuer is an error, nothing sent", async () => {
  await using op = await startOidcProvider({ redirectUris: ["http://localhost:1/"] });
  await using target = bearerApi();
  // The provider calls itself http://127.0.0.1:<port>; asked as localhost, it does not match.
  const issuer = op.origin.replace("127.0.0.1", "localhost");
  const result = await dial([
    "GET",
    `${target.origin}/`,
    ...byIssuer(issuer),
    "--oauth2-client-secret",
    OIDC_CLIENTS.web.secret,
  ], { env: { HOME: await Deno.makeTempDir() } });
  assert.equal(result.code, 9, result.stderr);
  assert.match(
    result.stderr,
    /OAuth 2\.0 discovery for issuer http:\/\/localhost:\d+\/ failed: the metadata at .* names the issuer "http:\/\/127\.0\.0\.1:\d+"/,
  );
  assert.equal(op.grants.client_credentials, undefined);
  assert.equal(target.seen.length, 0);
});

Deno.test("oauth2 issuer: RFC 8414 oauth-authorization-server metadata is read when openid-configuration is absent", async () => {
  await using mock = await startMockServer();
  const seen: string[] = [];
  // An authorization server with a path in its issuer that publishes only RFC 8414 metadata.
  await using as = serve((request) => {
    const url = new URL(request.url);
    seen.push(url.pathname);
    if (url.pathname === "/.well-known/oauth-authorization-server/tenant") {
      return Response.json({
        issuer: `${url.origin}/tenant`,
        token_endpoint: mock.tokenUrl,
        response_types_supported: ["code"],
      });
    }
    return new Response("not found", { status: 404 });
  });
  await using target = bearerApi();
  const result = await dial([
    "GET",
    `${target.origin}/`,
    ...byIssuer(`${as.origin}/tenant`, "app"),
    "--oauth2-client-secret",
    "s",
    "-v",
  ], { env: { HOME: await Deno.makeTempDir() } });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(seen, [
    `/tenant${WELL_KNOWN}`,
    "/.well-known/oauth-authorization-server/tenant",
  ]);
  assert.match(result.stderr, /\(oauth-authorization-server\): token endpoint/);
  assert.equal(mock.tokenRequests.length, 1);
});

Deno.test("oauth2 issuer: neither document is a usable failure naming both", async () => {
  await using as = serve(() => new Response("nope", { status: 404 }));
  const result = await dial([
    "GET",
    "http://127.0.0.1:9/",
    ...byIssuer(as.origin, "app"),
    "--oauth2-client-secret",
    "s",
  ], { env: { HOME: await Deno.makeTempDir() } });
  assert.equal(result.code, 9, result.stderr);
  assert.match(
    result.stderr,
    /discovery for issuer .* failed: .*openid-configuration answered HTTP 404; .*oauth-authorization-server answered HTTP 404/,
  );
});

Deno.test("oauth2 issuer: without a token URL or an issuer the flow is a usage error", async () => {
  const result = await dial([
    "GET",
    "http://127.0.0.1:9/",
    "--oauth2",
    "client_credentials",
    "--oauth2-client-id",
    "app",
    "--oauth2-client-secret",
    "s",
  ]);
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /Missing token URL for --oauth2/);
  assert.match(result.stderr, /--oauth2-issuer/);
});

Deno.test("oauth2 issuer: authorization_code logs in at the discovered authorization endpoint, ID token checked against the issuer", async () => {
  const port = unusedPort();
  await using op = await startOidcProvider({ redirectUris: [`http://localhost:${port}/`] });
  await using target = bearerApi();
  const result = await dial([
    `${target.origin}/me`,
    "--oauth2",
    "authorization_code",
    "--oauth2-issuer",
    op.origin,
    "--oauth2-client-id",
    OIDC_CLIENTS.public.id,
    "--oauth2-scope",
    "openid",
    "--oauth2-param",
    "prompt=consent",
    "--oauth2-port",
    String(port),
    "--oauth2-timeout",
    "30",
  ], {
    env: {
      HOME: await Deno.makeTempDir(),
      BROWSER,
    },
  });
  assert.equal(result.code, 0, result.stderr);
  const url = new URL(/visit:\n {2}(\S+)/.exec(result.stderr)?.[1] ?? "http://x");
  assert.equal(`${url.origin}${url.pathname}`, op.authUrl);
  assert.equal(url.searchParams.get("prompt"), "consent");
  assert.equal(op.grants.authorization_code, 1);
  assert.match(target.seen[0] ?? "", /^Bearer \S+/);
});

Deno.test("oauth2 issuer: dial auth token, status and logout name the client by issuer", async () => {
  await using op = await startOidcProvider({ redirectUris: ["http://localhost:1/"] });
  const home = await oauthHome();
  const client = [
    ...byIssuer(op.origin),
  ];
  const token = await dial(["auth", "token", ...client, "--oauth2-client-secret", "@env:S"], {
    env: { HOME: home, S: OIDC_CLIENTS.web.secret },
  });
  assert.equal(token.code, 0, token.stderr);
  const status = await dial(["auth", "status", ...client, "--json"], { env: { HOME: home } });
  assert.equal(status.code, 0, status.stderr);
  assert.equal(JSON.parse(status.stdout)[0]?.tokenUrl, op.tokenUrl);
  const logout = await dial(["auth", "logout", ...client], { env: { HOME: home } });
  assert.equal(logout.code, 0, logout.stderr);
  assert.match(logout.stderr, /Removed 1 cached OAuth 2\.0 token/);
  // The metadata was read once, by the first run: the others used the cached copy.
  assert.equal(op.paths.filter((p) => p.endsWith("openid-configuration")).length, 1);
});
