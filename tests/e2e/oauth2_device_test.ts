/**
 * The device authorization grant (RFC 8628) against oidc-provider's device flow: the code on
 * stderr, the browser only when asked, polling until the person has logged in, the cache and
 * a refresh; and the polling rules (slow_down, expiry, denial) against a provider stub.
 */
import assert from "node:assert/strict";
import { bearerApi, dial, expireCachedTokens, serve } from "../_helpers.ts";
import { BROWSER, oauthHome, OIDC_CLIENTS, startOidcProvider } from "./_oauth_servers.ts";

Deno.test("oauth2 device: oidc-provider's device flow, the code on stderr, the browser when asked, then cache and refresh", async () => {
  await using op = await startOidcProvider({ redirectUris: [], deviceFlow: true });
  await using target = bearerApi();
  const home = await oauthHome();
  const args = [
    `${target.origin}/me`,
    "--oauth2",
    "device_code",
    "--oauth2-issuer",
    op.origin,
    "--oauth2-client-id",
    OIDC_CLIENTS.device.id,
    "--oauth2-scope",
    "openid offline_access",
  ];
  const first = await dial([...args, "--oauth2-browser"], { env: { HOME: home, BROWSER } });
  assert.equal(first.code, 0, first.stderr);
  assert.match(
    first.stderr,
    /To log in, visit http:\/\/127\.0\.0\.1:\d+\/device and enter the code [A-Z]{4}-[A-Z]{4}\n {2}\(or open http:\/\/127\.0\.0\.1:\d+\/device\?user_code=[A-Z]{4}-[A-Z]{4}\)\nOpened the page in the browser\.\nWaiting for the login \(the code expires in 10 min\)…\n/,
  );
  assert.equal(op.grants["urn:ietf:params:oauth:grant-type:device_code"], 1);
  assert.match(target.seen[0] ?? "", /^Bearer \S+/);
  // The cached token serves the next run; no code is shown.
  const second = await dial(args, { env: { HOME: home } });
  assert.equal(second.code, 0, second.stderr);
  assert.equal(second.stderr, "");
  assert.equal(target.seen[1], target.seen[0]);
  // An expired token is refreshed with the refresh token, without a new login.
  assert.equal(await expireCachedTokens(`${home}/.cache/dial`), 1);
  const third = await dial(args, { env: { HOME: home } });
  assert.equal(third.code, 0, third.stderr);
  assert.equal(op.grants.refresh_token, 1);
  assert.notEqual(target.seen[2], target.seen[0]);
});

/** A device authorization server stub whose token endpoint answers from a script. */
function deviceStub(answers: Array<Record<string, unknown>>, device: Record<string, unknown> = {}) {
  const polls: number[] = [];
  const server = serve(async (request) => {
    const url = new URL(request.url);
    const form = new URLSearchParams(await request.text());
    if (url.pathname === "/device") {
      return Response.json({
        device_code: "dev-1",
        user_code: "WDJB-MJHT",
        verification_uri: `${url.origin}/activate`,
        expires_in: 600,
        interval: 1,
        ...device,
      });
    }
    assert.equal(form.get("grant_type"), "urn:ietf:params:oauth:grant-type:device_code");
    assert.equal(form.get("device_code"), "dev-1");
    polls.push(Date.now());
    const answer = answers.shift() ?? { error: "authorization_pending" };
    return Response.json(answer, { status: "error" in answer ? 400 : 200 });
  });
  return Object.assign(server, { polls });
}

function deviceArgs(origin: string, target: string): string[] {
  return [
    target,
    "--oauth2",
    `device_code:${origin}/token:tv`,
    "--oauth2-device-url",
    `${origin}/device`,
  ];
}

Deno.test("oauth2 device: slow_down adds 5 s to the interval; no browser unless asked", async () => {
  await using stub = deviceStub([
    { error: "authorization_pending" },
    { error: "slow_down" },
    { access_token: "tv-token", token_type: "Bearer", expires_in: 60 },
  ]);
  await using target = bearerApi();
  const result = await dial(deviceArgs(stub.origin, `${target.origin}/`), {
    // A browser that would fail the test if it were started.
    env: { HOME: await Deno.makeTempDir(), BROWSER: "/bin/false-browser-not-asked" },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.doesNotMatch(result.stderr, /Opened the page/);
  assert.match(
    result.stderr,
    /visit http:\/\/127\.0\.0\.1:\d+\/activate and enter the code WDJB-MJHT/,
  );
  assert.equal(stub.polls.length, 3);
  const [a, b, c] = stub.polls as [number, number, number];
  assert.ok(b - a >= 1000, `interval 1 s kept: ${b - a} ms`);
  assert.ok(c - b >= 6000, `slow_down raised it to 6 s: ${c - b} ms`);
  assert.deepEqual(target.seen, ["Bearer tv-token"]);
});

Deno.test("oauth2 device: a code that expires before the login is exit 9, the API not called", async () => {
  await using stub = deviceStub([], { expires_in: 2 });
  await using target = bearerApi();
  const result = await dial(deviceArgs(stub.origin, `${target.origin}/`), {
    env: { HOME: await Deno.makeTempDir() },
  });
  assert.equal(result.code, 9, result.stderr);
  assert.match(
    result.stderr,
    /device login at .* failed: the code expired before the login was completed/,
  );
  assert.equal(target.seen.length, 0);
});

Deno.test("oauth2 device: a server that says expired_token is a code that expired, not a timeout", async () => {
  // The code lives 600 s, longer than the 300 s wait: only the server's word says it expired.
  await using stub = deviceStub([{ error: "expired_token" }]);
  await using target = bearerApi();
  const result = await dial(deviceArgs(stub.origin, `${target.origin}/`), {
    env: { HOME: await Deno.makeTempDir() },
  });
  assert.equal(result.code, 9, result.stderr);
  assert.match(
    result.stderr,
    /device login at .* failed: the code expired before the login was completed/,
  );
  assert.doesNotMatch(result.stderr, /timed out/);
  assert.equal(target.seen.length, 0);
});

Deno.test("oauth2 device: access_denied ends the wait with the provider's refusal", async () => {
  await using stub = deviceStub([{ error: "access_denied" }]);
  const result = await dial(deviceArgs(stub.origin, "http://127.0.0.1:9/"), {
    env: { HOME: await Deno.makeTempDir() },
  });
  assert.equal(result.code, 9, result.stderr);
  assert.match(result.stderr, /device login at .* failed: access_denied/);
  assert.match(result.stderr, /hint: the login was denied or cancelled/);
});

Deno.test("oauth2 device: without a device URL or issuer the flow is a usage error", async () => {
  const result = await dial([
    "http://127.0.0.1:9/",
    "--oauth2",
    "device_code:http://127.0.0.1:9/token:tv",
  ]);
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /The device_code flow needs --oauth2-device-url or --oauth2-issuer/);
});

Deno.test("oauth2 device: the library refuses a new device login that nothing would show", async () => {
  const { oauth2Token } = await import("../../src/auth/oauth2/mod.ts");
  let requests = 0;
  await using stub = serve(() => {
    requests++;
    return Response.json({});
  });
  await assert.rejects(
    oauth2Token({
      flow: "device_code",
      tokenUrl: new URL(`${stub.origin}/token`),
      deviceUrl: new URL(`${stub.origin}/device`),
      clientId: "tv",
      port: 8484,
      noCache: true,
    }),
    /The device_code flow cannot run here: nothing shows its user code/,
  );
  assert.equal(requests, 0);
});
