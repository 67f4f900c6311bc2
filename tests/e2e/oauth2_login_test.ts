/**
 * The OAuth 2.0 authorization-code flow with PKCE, end to end: dial starts its callback
 * server and runs $BROWSER, a test script that logs in like a person would.
 */
import assert from "node:assert/strict";
import { bearerApi, dial, expireCachedTokens, waitFor } from "../_helpers.ts";
import {
  BROWSER,
  oauthHome,
  OIDC_CLIENTS,
  startMockServer,
  startOidcProvider,
} from "./_oauth_servers.ts";
import { spawnDial } from "./_spawn.ts";
import { unusedPort } from "../_ports.ts";

interface BrowserStep {
  step: string;
  status: number;
  body: string;
}

/** Runs dial with the test browser; returns the result and what the browser did. */
async function login(args: string[], options: { mode?: string; home?: string } = {}) {
  const home = options.home ?? await oauthHome();
  const log = await Deno.makeTempFile({ prefix: "dial-browser-", suffix: ".jsonl" });
  const result = await dial(args, {
    env: {
      HOME: home,
      BROWSER,
      FAKE_BROWSER_MODE: options.mode ?? "login",
      FAKE_BROWSER_LOG: log,
    },
    // The browser is dial's child: it inherits the process's environment (the fake's mode).
    process: true,
  });
  // The browser may still be writing its last line after dial exits.
  let steps: BrowserStep[] = [];
  await waitFor(async () => {
    const text = await Deno.readTextFile(log);
    steps = text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
    return options.mode === "none" ||
      steps.some((s) => s.step === "callback" || s.step === "stuck");
  }, { message: () => `the browser's last step (it logged ${steps.map((s) => s.step)})` });
  await Deno.remove(log);
  return { ...result, steps, home };
}

function codeArgs(
  target: string,
  server: { tokenUrl: string; authUrl: string },
  client: string,
  port: number,
  extra: string[] = [],
): string[] {
  return [
    `${target}/me`,
    "--oauth2",
    `authorization_code:${server.tokenUrl}:${client}`,
    "--oauth2-auth-url",
    server.authUrl,
    "--oauth2-port",
    String(port),
    "--oauth2-timeout",
    "30",
    ...extra,
  ];
}

Deno.test("oauth2 login: authorization_code with oidc-provider, confidential client, then the cache", async () => {
  const port = unusedPort();
  await using op = await startOidcProvider({ redirectUris: [`http://localhost:${port}/`] });
  await using target = bearerApi();
  const client = `${OIDC_CLIENTS.web.id}:${OIDC_CLIENTS.web.secret}`;
  const args = codeArgs(target.origin, op, client, port, ["--oauth2-scope", "openid api:read"]);
  const first = await login(args);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.stdout.trim(), '{"ok":true}');
  assert.match(first.stderr, /If it does not open, visit:\n {2}http:\/\/127\.0\.0\.1:\d+\/auth\?/);
  const callback = first.steps.find((s) => s.step === "callback");
  assert.equal(callback?.status, 200);
  assert.match(callback?.body ?? "", /Login succeeded/);
  assert.doesNotMatch(callback?.body ?? "", /access_token|Bearer/);
  assert.match(target.seen[0] ?? "", /^Bearer \S+/);
  assert.equal(op.grants.authorization_code, 1);
  // The browser's argv holds only a private handover file, never the state or the challenge
  // (any local user can read argv); the file is gone once the login is over.
  const argv: string[] = JSON.parse(first.steps.find((s) => s.step === "argv")?.body ?? "[]");
  assert.equal(argv.length, 1);
  assert.match(argv[0]!, /^file:\/\/\/.*\/dial-open-[^/]+\/open\.html$/);
  assert.doesNotMatch(argv.join(" "), /state|code_challenge/);
  await assert.rejects(Deno.stat(new URL(argv[0]!)), Deno.errors.NotFound);
  // The second run reuses the cached token: no browser, no token request.
  const second = await login(args, { home: first.home, mode: "none" });
  assert.equal(second.code, 0, second.stderr);
  assert.equal(second.steps.length, 0);
  assert.equal(op.grants.authorization_code, 1);
  assert.equal(target.seen[1], target.seen[0]);
});

Deno.test("oauth2 login: a public client (no secret) logs in with PKCE at oidc-provider", async () => {
  const port = unusedPort();
  await using op = await startOidcProvider({ redirectUris: [`http://localhost:${port}/`] });
  await using target = bearerApi();
  const result = await login(
    codeArgs(target.origin, op, OIDC_CLIENTS.public.id, port, ["--oauth2-scope", "openid"]),
  );
  assert.equal(result.code, 0, result.stderr);
  const url = new URL(/visit:\n {2}(\S+)/.exec(result.stderr)?.[1] ?? "http://x");
  assert.equal(url.searchParams.get("code_challenge_method"), "S256");
  assert.match(url.searchParams.get("code_challenge") ?? "", /^[\w-]{43}$/);
  assert.ok((url.searchParams.get("state") ?? "").length >= 22, "state carries >= 128 bits");
  assert.equal(url.searchParams.get("redirect_uri"), `http://localhost:${port}/`);
  assert.equal(op.grants.authorization_code, 1);
});

Deno.test("oauth2 login: client_secret_post and a custom redirect URI path at oidc-provider", async () => {
  const port = unusedPort();
  const redirect = `http://127.0.0.1:${port}/oauth/callback`;
  await using op = await startOidcProvider({ redirectUris: [redirect] });
  await using target = bearerApi();
  const args = [
    `${target.origin}/me`,
    "--oauth2",
    `authorization_code:${op.tokenUrl}:${OIDC_CLIENTS.post.id}:${OIDC_CLIENTS.post.secret}`,
    "--oauth2-auth-url",
    op.authUrl,
    "--oauth2-client-auth",
    "post",
    "--oauth2-redirect-uri",
    redirect,
    "--oauth2-scope",
    "openid",
  ];
  const result = await login(args);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(op.grants.authorization_code, 1);
});

Deno.test("oauth2 login: an expired authorization_code token is refreshed at oidc-provider", async () => {
  const port = unusedPort();
  await using op = await startOidcProvider({
    redirectUris: [`http://localhost:${port}/`],
  });
  await using target = bearerApi();
  const client = `${OIDC_CLIENTS.web.id}:${OIDC_CLIENTS.web.secret}`;
  const args = codeArgs(target.origin, op, client, port, ["--oauth2-scope", "openid"]);
  const first = await login(args);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(await expireCachedTokens(first.home), 1);
  const second = await login(args, { home: first.home, mode: "none" });
  assert.equal(second.code, 0, second.stderr);
  assert.equal(op.grants.authorization_code, 1);
  assert.equal(op.grants.refresh_token, 1);
  assert.notEqual(target.seen[1], target.seen[0]);
  const status = await dial(["auth", "status"], { env: { HOME: first.home } });
  assert.match(status.stdout, /refreshed \S+Z, refresh token: yes/);
});

Deno.test("oauth2 login: authorization_code with oauth2-mock-server checks PKCE and sends the scope", async () => {
  await using mock = await startMockServer();
  await using target = bearerApi();
  const port = unusedPort();
  const result = await login(
    codeArgs(target.origin, mock, "any-client", port, ["--oauth2-scope", "api:read"]),
  );
  assert.equal(result.code, 0, result.stderr);
  const request = mock.tokenRequests[0];
  assert.equal(request?.body.get("grant_type"), "authorization_code");
  assert.match(request?.body.get("code_verifier") ?? "", /^[\w-]{43,128}$/);
  assert.equal(request?.body.get("redirect_uri"), `http://localhost:${port}/`);
  const url = new URL(/visit:\n {2}(\S+)/.exec(result.stderr)?.[1] ?? "http://x");
  assert.equal(url.searchParams.get("scope"), "api:read");
});

Deno.test("oauth2 login: a forged callback (wrong state) gets 400 and dial keeps waiting", async () => {
  await using mock = await startMockServer();
  await using target = bearerApi();
  const port = unusedPort();
  const result = await login(codeArgs(target.origin, mock, "app", port), { mode: "forge" });
  assert.equal(result.code, 0, result.stderr);
  const byStep = Object.fromEntries(result.steps.map((s) => [s.step, s]));
  assert.equal(byStep.elsewhere?.status, 404);
  assert.equal(byStep["no-state"]?.status, 400);
  assert.equal(byStep.forged?.status, 400);
  assert.match(byStep.forged?.body ?? "", /state parameter does not match/);
  assert.equal(byStep.callback?.status, 200);
  assert.equal(mock.tokenRequests.length, 1);
});

Deno.test("oauth2 login: a denied login at oidc-provider fails with access_denied, exit 9", async () => {
  const port = unusedPort();
  await using op = await startOidcProvider({ redirectUris: [`http://localhost:${port}/`] });
  await using target = bearerApi();
  const result = await login(
    codeArgs(target.origin, op, `${OIDC_CLIENTS.web.id}:${OIDC_CLIENTS.web.secret}`, port, [
      "--oauth2-scope",
      "openid",
    ]),
    { mode: "deny" },
  );
  assert.equal(result.code, 9, result.stderr);
  assert.match(
    result.stderr,
    new RegExp(
      `error: OAuth 2\\.0 login at ${op.authUrl} failed: access_denied \\(End-User aborted interaction\\)`,
    ),
  );
  assert.equal(result.steps.find((s) => s.step === "callback")?.status, 400);
  assert.equal(target.seen.length, 0);
  assert.equal(op.grants.authorization_code, undefined);
});

Deno.test("oauth2 login: the provider's error text is HTML-escaped on the callback page", async () => {
  await using mock = await startMockServer();
  mock.server.service.on("beforeAuthorizeRedirect", (redirect) => {
    redirect.url.searchParams.delete("code");
    redirect.url.searchParams.set("error", "access_denied");
    redirect.url.searchParams.set("error_description", "<b>no</b> & never");
  });
  await using target = bearerApi();
  const result = await login(codeArgs(target.origin, mock, "app", unusedPort()));
  assert.equal(result.code, 9);
  assert.match(result.stderr, /failed: access_denied \(<b>no<\/b> & never\)/);
  const page = result.steps.find((s) => s.step === "callback");
  assert.equal(page?.status, 400);
  assert.match(page?.body ?? "", /&#60;b&#62;no&#60;\/b&#62; &#38; never/);
  assert.equal(mock.tokenRequests.length, 0);
});

Deno.test("oauth2 login: no callback within --oauth2-timeout fails, exit 9, URL printed", async () => {
  await using mock = await startMockServer();
  await using target = bearerApi();
  const port = unusedPort();
  const args = codeArgs(target.origin, mock, "app", port).map((a) => a === "30" ? "1" : a);
  const result = await login(args, { mode: "none" });
  assert.equal(result.code, 9);
  assert.match(result.stderr, new RegExp(`visit:\\n  ${mock.authUrl}\\?response_type=code`));
  assert.match(
    result.stderr,
    new RegExp(
      `error: Timed out after 1 s waiting for the OAuth 2\\.0 login callback on http://localhost:${port}/`,
    ),
  );
  assert.equal(target.seen.length, 0);
});

Deno.test("oauth2 login: an ID token naming another issuer says so and offers --oauth2-issuer, not the token URL, exit 9", async () => {
  await using mock = await startMockServer();
  // The provider calls itself by a name of another origin than the token URL's.
  const named = mock.origin.replace("127.0.0.1", "localhost");
  mock.server.issuer.url = named;
  await using target = bearerApi();
  const result = await login(codeArgs(target.origin, mock, "app", unusedPort()));
  assert.equal(result.code, 9, result.stderr);
  assert.equal(
    result.stderr.split("\n").filter((l) => /^(error|hint): /.test(l)).join("\n"),
    `error: OAuth 2.0 token request to ${mock.tokenUrl} failed: the ID token names the issuer "${named}", where "${mock.origin}" was expected\n` +
      `hint: if ${named} is your provider, give it as --oauth2-issuer ${named}; if not, check the authorization and token URLs`,
  );
  assert.equal(target.seen.length, 0);
});

Deno.test("oauth2 login: a callback naming another issuer (iss) is refused, exit 9", async () => {
  await using mock = await startMockServer();
  mock.server.service.on("beforeAuthorizeRedirect", (redirect) => {
    redirect.url.searchParams.set("iss", "https://evil.example");
  });
  await using target = bearerApi();
  const result = await login(codeArgs(target.origin, mock, "app", unusedPort()));
  assert.equal(result.code, 9);
  assert.match(
    result.stderr,
    new RegExp(
      `error: OAuth 2\\.0 login failed: the callback came from issuer "https://evil\\.example", not from ${mock.origin}\n` +
        "hint: if https://evil\\.example is your provider, give it as --oauth2-issuer https://evil\\.example; if not, check the authorization and token URLs",
    ),
  );
  assert.equal(mock.tokenRequests.length, 0);
  assert.equal(target.seen.length, 0);
});

Deno.test("oauth2 login: Ctrl-C while waiting for the login exits 130 and frees the port", async () => {
  await using mock = await startMockServer();
  const port = unusedPort();
  const home = await oauthHome();
  const child = spawnDial([
    "auth",
    "token",
    "--oauth2",
    `authorization_code:${mock.tokenUrl}:app`,
    "--oauth2-auth-url",
    mock.authUrl,
    "--oauth2-port",
    String(port),
  ], { stdin: "null", env: { HOME: home, BROWSER, FAKE_BROWSER_MODE: "none" } });
  const reader = child.stderr.getReader();
  let stderr = "";
  while (!/visit:\n {2}\S+\n/.test(stderr)) {
    const { value, done } = await reader.read();
    if (done) break;
    stderr += new TextDecoder().decode(value);
  }
  child.kill("SIGINT");
  reader.releaseLock();
  const output = await child.output();
  assert.equal(output.code, 130, stderr + new TextDecoder().decode(output.stderr));
  const listener = Deno.listen({ hostname: "127.0.0.1", port });
  listener.close();
  assert.equal(mock.tokenRequests.length, 0);
});
