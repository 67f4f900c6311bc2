import assert from "node:assert/strict";
import { serve } from "../_helpers.ts";
import { startUiServer, type UiServer } from "../../src/ui/server.ts";
import { cookieName } from "../../src/ui/guard.ts";

const ASSETS = { js: "/* app */", css: "/* css */" };

async function login(server: UiServer): Promise<string> {
  const response = await fetch(server.url, { redirect: "manual" });
  await response.body?.cancel();
  assert.equal(response.status, 303);
  assert.equal(response.headers.get("location"), "/");
  const cookie = response.headers.get("set-cookie") ?? "";
  assert.match(cookie, /HttpOnly/);
  assert.match(cookie, /SameSite=Strict/);
  return cookie.split(";")[0]!;
}

function apiCall(server: UiServer, cookie: string | undefined, headers: HeadersInit = {}) {
  return fetch(new URL("/api/http", server.url), {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      ...(cookie ? { Cookie: cookie } : {}),
      ...headers,
    },
    body: JSON.stringify({ method: "GET", url: "http://127.0.0.1:1/" }),
  });
}

Deno.test("ui server: the printed URL holds the secret and trades it for an HttpOnly SameSite=Strict cookie", async () => {
  await using server = await startUiServer({ assets: ASSETS });
  assert.equal(server.url.hostname, "127.0.0.1");
  assert.ok(server.url.searchParams.get("secret")!.length >= 40);
  const cookie = await login(server);
  assert.ok(cookie.startsWith(`${cookieName(server.port)}=`));
  const page = await fetch(new URL("/", server.url), { headers: { Cookie: cookie } });
  assert.equal(page.status, 200);
  assert.match(await page.text(), /<script type="module" src="\/app.js">/);
  const js = await fetch(new URL("/app.js", server.url), { headers: { Cookie: cookie } });
  assert.equal(await js.text(), ASSETS.js);
});

Deno.test("ui server: every API call without the secret cookie gets 401", async () => {
  await using target = serve(() => new Response("should not be reached"));
  await using server = await startUiServer({ assets: ASSETS });
  const response = await fetch(new URL("/api/http", server.url), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ method: "GET", url: target.origin }),
  });
  assert.equal(response.status, 401);
  assert.match((await response.json()).error.message, /open the URL that dial ui printed/);
  assert.equal(target.requests.length, 0);
});

Deno.test("ui server: a wrong secret or cookie gets 401 and no cookie", async () => {
  await using server = await startUiServer({ assets: ASSETS });
  const wrong = new URL(server.url);
  wrong.searchParams.set("secret", "guess");
  const response = await fetch(wrong, { redirect: "manual" });
  await response.body?.cancel();
  assert.equal(response.status, 401);
  assert.equal(response.headers.get("set-cookie"), null);
  const call = await apiCall(server, `${cookieName(server.port)}=guess`);
  await call.body?.cancel();
  assert.equal(call.status, 401);
  const page = await fetch(new URL("/app.js", server.url));
  await page.body?.cancel();
  assert.equal(page.status, 401);
});

/** fetch sets Host itself, so the Host tests speak HTTP/1.1 over a plain socket. */
async function rawGet(port: number, host: string, cookie: string): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const request =
    `GET / HTTP/1.1\r\nHost: ${host}\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`;
  await conn.write(new TextEncoder().encode(request));
  let text = "";
  for await (const chunk of conn.readable) text += new TextDecoder().decode(chunk);
  return text;
}

Deno.test("ui server: a foreign Host header gets 403 even with the cookie (DNS rebinding)", async () => {
  await using server = await startUiServer({ assets: ASSETS });
  const cookie = await login(server);
  for (
    const host of [
      `evil.example:${server.port}`,
      "127.0.0.1:1",
      `127.0.0.1.nip.io:${server.port}`,
      "127.0.0.1",
    ]
  ) {
    const response = await rawGet(server.port, host, cookie);
    assert.match(response, /^HTTP\/1.1 403 /, host);
    assert.match(response, /unexpected Host/);
  }
  for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`]) {
    assert.match(await rawGet(server.port, host, cookie), /^HTTP\/1.1 200 /, host);
  }
});

Deno.test("ui server: a foreign Origin gets 403 even with the cookie", async () => {
  await using server = await startUiServer({ assets: ASSETS });
  const cookie = await login(server);
  for (const origin of ["https://evil.example", `http://127.0.0.1:${server.port + 1}`, "null"]) {
    const response = await apiCall(server, cookie, { Origin: origin });
    assert.equal(response.status, 403, origin);
    assert.match((await response.json()).error.message, /cross-origin/);
  }
  const cross = await apiCall(server, cookie, { "Sec-Fetch-Site": "cross-site" });
  await cross.body?.cancel();
  assert.equal(cross.status, 403);
  const same = await apiCall(server, cookie, { Origin: `http://127.0.0.1:${server.port}` });
  await same.body?.cancel();
  assert.equal(same.status, 502);
});

Deno.test("ui server: no CORS headers, even for a preflight", async () => {
  await using server = await startUiServer({ assets: ASSETS });
  const cookie = await login(server);
  const response = await fetch(new URL("/api/http", server.url), {
    method: "OPTIONS",
    headers: {
      Cookie: cookie,
      "Access-Control-Request-Method": "POST",
    },
  });
  await response.body?.cancel();
  assert.equal(response.status, 405);
  for (const [name] of response.headers) assert.ok(!name.startsWith("access-control-"), name);
});

Deno.test("ui server: API calls must be JSON, so an HTML form cannot post to it", async () => {
  await using server = await startUiServer({ assets: ASSETS });
  const cookie = await login(server);
  const response = await fetch(new URL("/api/http", server.url), {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "text/plain" },
    body: JSON.stringify({ method: "GET", url: "http://127.0.0.1:1/" }),
  });
  assert.equal(response.status, 400);
  assert.match((await response.json()).error.message, /Expected a JSON request body/);
});

Deno.test("ui server: listens on loopback only by default", async () => {
  await using server = await startUiServer({ assets: ASSETS });
  const addrs = Deno.networkInterfaces().filter((i) =>
    i.family === "IPv4" && i.address !== "127.0.0.1"
  );
  for (const { address } of addrs) {
    await fetch(`http://${address}:${server.port}/`).then(
      () => {
        throw new Error(`reachable on ${address}`);
      },
      () => {},
    );
  }
});

Deno.test("ui server: GraphQL run rejects an unknown transport with 400 and sends nothing", async () => {
  await using target = serve(() => Response.json({ data: { ok: true } }));
  await using server = await startUiServer({ assets: ASSETS });
  const cookie = await login(server);
  const response = await fetch(new URL("/api/graphql/run", server.url), {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: cookie },
    body: JSON.stringify({
      url: `${target.origin}/graphql`,
      query: "subscription { ticks }",
      transport: "carrier-pigeon",
    }),
  });
  assert.equal(response.status, 400);
  assert.equal(
    (await response.json()).error.message,
    'Unknown transport "carrier-pigeon": use "post" (one POST), "ws" (WebSocket) or "sse" (GraphQL over SSE)',
  );
  assert.equal(target.requests.length, 0);
});

Deno.test("ui server: a network error's JSON holds no API key or password", async () => {
  await using server = await startUiServer({ assets: ASSETS });
  const cookie = await login(server);
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  const response = await fetch(new URL("/api/http", server.url), {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: cookie },
    body: JSON.stringify({
      method: "GET",
      url: `http://ann:S3CRET@127.0.0.1:${port}/x?token=S3CRET`,
      auth: { kind: "apikey", in: "query", name: "page", value: "S3CRET" },
    }),
  });
  assert.equal(response.status, 502);
  const text = await response.text();
  assert.match(text, /connection refused/);
  assert.ok(!text.includes("S3CRET"), text);
});
