import assert from "node:assert/strict";
import { DialError, ErrorCode, ExitCode } from "../../src/errors/mod.ts";
import { send } from "../../src/http/send.ts";
import type { Authorization } from "../../src/auth/auth_spec.ts";
import type { BodySource, RequestSpec } from "../../src/http/request_spec.ts";
import { Secret } from "../../src/secret.ts";

/** An in-memory network: a token endpoint at id.test, APIs at api.test and other.test. */
class FakeNet {
  tokens = 0;
  seen: Array<{ url: string; headers: Record<string, string> }> = [];
  /** Access tokens the API accepts. */
  valid = new Set<string>();
  /** What the API answers, by path. */
  routes = new Map<string, () => Response>();

  fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input);
    const headers = Object.fromEntries(new Headers(init?.headers));
    if (url.host === "id.test") {
      this.tokens++;
      const token = `tok${this.tokens}`;
      this.valid.add(token);
      return Promise.resolve(Response.json(
        { access_token: token, token_type: "Bearer", expires_in: 3600 },
        { headers: { "cache-control": "no-store" } },
      ));
    }
    this.seen.push({ url: url.href, headers });
    const route = this.routes.get(url.pathname);
    if (route) return Promise.resolve(route());
    const token = headers.authorization?.replace(/^Bearer /, "");
    return Promise.resolve(
      new Response("body", { status: token && this.valid.has(token) ? 200 : 401 }),
    );
  };
}

function spec(
  authorization?: Authorization,
  body?: BodySource,
  url = "http://api.test/x",
): RequestSpec {
  return {
    method: body ? "POST" : "GET",
    url: new URL(url),
    headers: [],
    auth: { ...(authorization ? { authorization } : {}), queryKeys: [] },
    ...(body ? { body } : {}),
  };
}

async function oauth2(): Promise<Authorization> {
  return {
    kind: "oauth2",
    oauth2: {
      flow: "client_credentials",
      tokenUrl: new URL("http://id.test/token"),
      clientId: "app",
      clientSecret: new Secret("s3cret"),
      port: 8484,
      cacheDir: await Deno.makeTempDir(),
    },
  };
}

Deno.test("send: a cached OAuth token refused with 401 is replaced once and the request retried", async () => {
  const net = new FakeNet();
  const auth = await oauth2();
  assert.equal((await send(spec(auth), { fetch: net.fetch })).response.status, 200);
  net.valid.clear(); // the provider revoked tok1
  const exchange = await send(spec(auth), { fetch: net.fetch });
  assert.equal(exchange.response.status, 200);
  assert.equal(net.tokens, 2);
  assert.deepEqual(net.seen.map((s) => s.headers.authorization), [
    "Bearer tok1",
    "Bearer tok1",
    "Bearer tok2",
  ]);
});

Deno.test("send: a token just obtained and refused with 401 is not retried", async () => {
  const net = new FakeNet();
  net.routes.set("/x", () => new Response("no", { status: 401 }));
  const exchange = await send(spec(await oauth2()), { fetch: net.fetch });
  assert.equal(exchange.response.status, 401);
  assert.equal(await exchange.response.text(), "no");
  assert.deepEqual([net.tokens, net.seen.length], [1, 1]);
});

Deno.test("send: a cached token refused twice is retried only once", async () => {
  const net = new FakeNet();
  const auth = await oauth2();
  await send(spec(auth), { fetch: net.fetch });
  net.routes.set("/x", () => new Response("no", { status: 401 }));
  const exchange = await send(spec(auth), { fetch: net.fetch });
  assert.equal(exchange.response.status, 401);
  assert.deepEqual([net.tokens, net.seen.length], [2, 3]);
});

Deno.test("send: a 401 with a body from stdin is not retried (the body cannot be sent twice)", async () => {
  const net = new FakeNet();
  const auth = await oauth2();
  await send(spec(auth), { fetch: net.fetch });
  net.valid.clear();
  const exchange = await send(
    spec(auth, { kind: "stdin", stream: ReadableStream.from([new Uint8Array([1])]) }),
    {
      fetch: (input, init) => net.fetch(input, { ...init, body: null }),
    },
  );
  assert.equal(exchange.response.status, 401);
  assert.equal(net.tokens, 1);
});

Deno.test("send: Bearer and Basic 401s are returned as they are", async () => {
  for (
    const auth of [
      { kind: "bearer", token: new Secret("t") },
      { kind: "basic", username: "u", password: new Secret("p") },
    ] satisfies Authorization[]
  ) {
    const net = new FakeNet();
    const exchange = await send(spec(auth), { fetch: net.fetch });
    assert.equal(exchange.response.status, 401);
    assert.deepEqual([net.tokens, net.seen.length], [0, 1]);
  }
});

Deno.test("send: a cross-origin redirect drops Authorization, credential headers and -K keys", async () => {
  const net = new FakeNet();
  net.routes.set(
    "/start",
    () => new Response(null, { status: 302, headers: { location: "/same" } }),
  );
  net.routes.set(
    "/same",
    () => new Response(null, { status: 307, headers: { location: "http://other.test/end" } }),
  );
  net.routes.set("/end", () => new Response("ok"));
  const request: RequestSpec = {
    method: "GET",
    url: new URL("http://api.test/start"),
    headers: [
      { name: "Cookie", value: "c=1" },
      { name: "X-Api-Key", value: new Secret("hdr") },
      { name: "Accept", value: "text/plain" },
    ],
    auth: {
      authorization: { kind: "basic", username: "ann", password: new Secret("pw") },
      queryKeys: [{ name: "k", value: new Secret("qk") }],
    },
  };
  const exchange = await send(request, { fetch: net.fetch, follow: true });
  assert.equal(exchange.redirects, 2);
  assert.deepEqual(net.seen.map((s) => s.url), [
    "http://api.test/start?k=qk",
    "http://api.test/same?k=qk",
    "http://other.test/end",
  ]);
  const names = net.seen.map((s) => Object.keys(s.headers).sort().join(","));
  const wire = "accept,accept-encoding,accept-language";
  assert.deepEqual(names, [
    `${wire},authorization,cookie,host,user-agent,x-api-key`,
    `${wire},authorization,cookie,host,user-agent,x-api-key`,
    `${wire},host,user-agent`,
  ]);
  assert.equal(net.seen[1]?.headers.authorization, `Basic ${btoa("ann:pw")}`);
});

Deno.test("send: more redirects than allowed fails with the too_many_redirects code", async () => {
  const net = new FakeNet();
  net.routes.set(
    "/loop",
    () => new Response(null, { status: 302, headers: { location: "/loop" } }),
  );
  await assert.rejects(
    () =>
      send(spec(undefined, undefined, "http://api.test/loop"), {
        fetch: net.fetch,
        follow: true,
        maxRedirects: 2,
      }),
    (error: unknown) => {
      assert.ok(error instanceof DialError, `expected a DialError, got ${error}`);
      assert.deepEqual([error.code, error.exitCode], [
        ErrorCode.TooManyRedirects,
        ExitCode.TooManyRedirects,
      ]);
      return true;
    },
  );
  assert.equal(net.seen.length, 3);
});
