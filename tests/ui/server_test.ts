import assert from "node:assert/strict";
import { serve } from "../_helpers.ts";
import { startUiServer, type UiServer } from "../../src/ui/server.ts";
import { apiHeaders, sessionOf, tradeLaunch } from "./_session.ts";
import { rawServer } from "../e2e/_raw_server.ts";
import { BODY_PART } from "../../src/ui/protocol.ts";
import { ndjson } from "../../src/ui/web/ndjson_reader.ts";
import { unusedPort } from "../_ports.ts";

const ASSETS = { js: "/* app */", css: "/* css */" };

function apiCall(server: UiServer, session: string | undefined, headers: HeadersInit = {}) {
  return fetch(new URL("/api/http", server.url), {
    method: "POST",
    headers: {
      ...(session ? apiHeaders(session) : { "Content-Type": "application/json" }),
      ...headers,
    },
    body: JSON.stringify({ method: "GET", url: "http://127.0.0.1:1/" }),
  });
}

Deno.test("ui server: the launch URL carries a one-time token in its fragment, traded once for a session", async () => {
  await using server = await startUiServer({ assets: ASSETS });
  assert.equal(server.url.hostname, "127.0.0.1");
  assert.equal(server.url.search, "");
  assert.match(server.url.hash, /^#launch=[\w-]{43}$/);
  const session = await sessionOf(server);
  assert.ok(session.length >= 40);
  assert.ok(!server.url.href.includes(session));
  const again = await tradeLaunch(server.url);
  assert.equal(again.status, 401);
  assert.deepEqual((await again.json()).error, {
    code: "launch_used",
    message: "This launch link was used already (each works once)",
    hint: "use the dial window that is already open, or stop dial ui and start it again",
  });
  // Another launch URL of the same server opens another session.
  const second = await sessionOf(server, server.launchUrl());
  assert.notEqual(second, session);
  const call = await apiCall(server, second);
  await call.body?.cancel();
  assert.equal(call.status, 200);
});

Deno.test("ui server: the app shell is public, carries no secret and sets no cookie", async () => {
  await using server = await startUiServer({ assets: ASSETS });
  const page = await fetch(new URL("/", server.url));
  assert.equal(page.status, 200);
  assert.equal(page.headers.get("set-cookie"), null);
  assert.equal(page.headers.get("cross-origin-opener-policy"), "same-origin");
  assert.match(await page.text(), /<script type="module" src="\/app.js">/);
  const js = await fetch(new URL("/app.js", server.url));
  assert.equal(await js.text(), ASSETS.js);
});

Deno.test("ui server: every API call without the session header gets 401 and the connection closed", async () => {
  await using target = serve(() => new Response("should not be reached"));
  await using server = await startUiServer({ assets: ASSETS });
  await sessionOf(server);
  for (const path of ["/api/http", "/api/http/curl", "/api/auth/state", "/api/graphql/run"]) {
    const response = await fetch(new URL(path, server.url), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ method: "GET", url: target.origin }),
    });
    assert.equal(response.status, 401, path);
    assert.equal(response.headers.get("connection"), "close");
    assert.deepEqual((await response.json()).error, {
      code: "unauthorized",
      message: "Unauthorized: this page has no session of this dial ui",
      hint: "open the link dial ui printed (each works once), or stop dial ui and start it again",
    });
  }
  assert.equal(target.requests.length, 0);
});

Deno.test("ui server: a wrong session, a launch token or a cookie does not unlock the API", async () => {
  await using server = await startUiServer({ assets: ASSETS });
  const launch = new URLSearchParams(server.url.hash.slice(1)).get("launch")!;
  const session = await sessionOf(server, server.launchUrl());
  for (const [name, value] of [["X-Dial-Session", "guess"], ["X-Dial-Session", launch]]) {
    const call = await apiCall(server, undefined, { [name!]: value! });
    await call.body?.cancel();
    assert.equal(call.status, 401, value);
  }
  const cookie = await apiCall(server, undefined, { Cookie: `dial_ui_${server.port}=${session}` });
  await cookie.body?.cancel();
  assert.equal(cookie.status, 401);
});

/** fetch sets Host itself, so the Host tests speak HTTP/1.1 over a plain socket. */
async function rawGet(port: number, host: string): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const request = `GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;
  await conn.write(new TextEncoder().encode(request));
  let text = "";
  for await (const chunk of conn.readable) text += new TextDecoder().decode(chunk);
  return text;
}

Deno.test("ui server: a foreign Host header gets 403 (DNS rebinding)", async () => {
  await using server = await startUiServer({ assets: ASSETS });
  for (
    const host of [
      `evil.example:${server.port}`,
      "127.0.0.1:1",
      `127.0.0.1.nip.io:${server.port}`,
      "127.0.0.1",
    ]
  ) {
    const response = await rawGet(server.port, host);
    assert.match(response, /^HTTP\/1.1 403 /, host);
    assert.match(response, /unexpected Host/);
  }
  for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`]) {
    assert.match(await rawGet(server.port, host), /^HTTP\/1.1 200 /, host);
  }
});

Deno.test("ui server: a foreign Origin gets 403 even with the session", async () => {
  await using server = await startUiServer({ assets: ASSETS });
  const session = await sessionOf(server);
  for (const origin of ["https://evil.example", `http://127.0.0.1:${server.port + 1}`, "null"]) {
    const response = await apiCall(server, session, { Origin: origin });
    assert.equal(response.status, 403, origin);
    assert.match((await response.json()).error.message, /cross-origin/);
  }
  const cross = await apiCall(server, session, { "Sec-Fetch-Site": "cross-site" });
  await cross.body?.cancel();
  assert.equal(cross.status, 403);
  // Opening the shell from elsewhere (the handover file) is a cross-site navigation: allowed.
  const shell = (mode: string) =>
    fetch(new URL("/", server.url), {
      headers: { "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": mode },
    });
  const navigation = await shell("navigate");
  await navigation.body?.cancel();
  assert.equal(navigation.status, 200);
  const fetched = await shell("cors");
  await fetched.body?.cancel();
  assert.equal(fetched.status, 403);
  const trade = await fetch(new URL("/api/session", server.url), {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: "http://localhost:9" },
    body: JSON.stringify({ launch: new URLSearchParams(server.url.hash.slice(1)).get("launch") }),
  });
  await trade.body?.cancel();
  assert.equal(trade.status, 403);
  const same = await apiCall(server, session, { Origin: `http://127.0.0.1:${server.port}` });
  await same.body?.cancel();
  assert.equal(same.status, 200);
});

Deno.test("ui server: no CORS headers, even for a preflight", async () => {
  await using server = await startUiServer({ assets: ASSETS });
  const session = await sessionOf(server);
  const response = await fetch(new URL("/api/http", server.url), {
    method: "OPTIONS",
    headers: { "X-Dial-Session": session, "Access-Control-Request-Method": "POST" },
  });
  await response.body?.cancel();
  assert.equal(response.status, 405);
  for (const [name] of response.headers) assert.ok(!name.startsWith("access-control-"), name);
});

Deno.test("ui server: API calls must be JSON, so an HTML form cannot post to it", async () => {
  await using server = await startUiServer({ assets: ASSETS });
  const session = await sessionOf(server);
  const response = await fetch(new URL("/api/http", server.url), {
    method: "POST",
    headers: { ...apiHeaders(session), "Content-Type": "text/plain" },
    body: JSON.stringify({ method: "GET", url: "http://127.0.0.1:1/" }),
  });
  assert.equal(response.status, 400);
  assert.match((await response.json()).error.message, /Expected a JSON request body/);
});

Deno.test("ui server: a request body over 16 MiB gets 413, declared or streamed", async () => {
  await using server = await startUiServer({ assets: ASSETS });
  const session = await sessionOf(server);
  const big = new Uint8Array(16 * 1024 * 1024 + 1).fill(0x20);
  const declared = await fetch(new URL("/api/http", server.url), {
    method: "POST",
    headers: apiHeaders(session),
    body: big,
  });
  assert.equal(declared.status, 413);
  assert.deepEqual((await declared.json()).error, {
    code: "too_large",
    message: "Request body larger than 16 MiB",
  });
  const chunks = ReadableStream.from((function* () {
    for (let i = 0; i < 17; i++) yield new Uint8Array(1024 * 1024).fill(0x20);
  })());
  const streamed = await fetch(new URL("/api/http", server.url), {
    method: "POST",
    headers: apiHeaders(session),
    body: chunks,
  });
  assert.equal(streamed.status, 413);
  await streamed.body?.cancel();
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
  const session = await sessionOf(server);
  const response = await fetch(new URL("/api/graphql/run", server.url), {
    method: "POST",
    headers: apiHeaders(session),
    body: JSON.stringify({
      url: `${target.origin}/graphql`,
      query: "subscription { ticks }",
      transport: "post",
    }),
  });
  assert.equal(response.status, 400);
  assert.equal(
    (await response.json()).error.message,
    'Unknown transport "post": use "http" (one POST), "ws" (WebSocket) or "sse" (GraphQL over SSE)',
  );
  assert.equal(target.requests.length, 0);
});

Deno.test("ui server: a network error's JSON holds no API key or password", async () => {
  await using server = await startUiServer({ assets: ASSETS });
  const session = await sessionOf(server);
  const port = unusedPort();
  const response = await fetch(new URL("/api/http", server.url), {
    method: "POST",
    headers: apiHeaders(session),
    body: JSON.stringify({
      method: "GET",
      url: `http://ann:S3CRET@127.0.0.1:${port}/x?token=S3CRET`,
      auth: { kind: "apikey", in: "query", name: "page", value: "S3CRET" },
    }),
  });
  // The answer is NDJSON: one error event.
  assert.equal(response.status, 200);
  const text = await response.text();
  assert.equal(JSON.parse(text).type, "error");
  assert.match(text, /connection refused/);
  assert.ok(!text.includes("S3CRET"), text);
});

Deno.test("ui server: a UTF-8 response header value reaches the page as text (not cafÃ©)", async () => {
  await using upstream = rawServer(() => {
    const head =
      "HTTP/1.1 200 OK\r\nX-Name: café €\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok";
    return new TextEncoder().encode(head);
  });
  await using server = await startUiServer({ assets: { js: "", css: "" } });
  const session = await sessionOf(server);
  const response = await fetch(new URL("/api/http", server.url), {
    method: "POST",
    headers: apiHeaders(session),
    body: JSON.stringify({ method: "GET", url: `${upstream.origin}/`, timeoutMs: 5000 }),
  });
  const events = (await response.text()).trim().split("\n").map((line) => JSON.parse(line));
  const shown = events.find((e) => e.type === "response")?.response;
  assert.ok(shown, JSON.stringify(events));
  assert.deepEqual(shown.headers.find(([name]: [string]) => name === "x-name"), [
    "x-name",
    "café €",
  ]);
});

Deno.test("ui server: a browser key registered with a launch gets a session per signed challenge; a reused, forged or unknown one gets none", async () => {
  await using server = await startUiServer({ assets: ASSETS });
  const post = (path: string, body: unknown = {}) =>
    fetch(new URL(path, server.url), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  const ecdsa = { name: "ECDSA", namedCurve: "P-256" } as const;
  const newPair = () => crypto.subtle.generateKey(ecdsa, false, ["sign", "verify"]);
  const proof = async (key: CryptoKey, challenge?: string) => {
    const asked = challenge ?? (await (await post("/api/session/challenge")).json()).challenge;
    const signed = await crypto.subtle.sign(
      { name: "ECDSA", hash: "SHA-256" },
      key,
      new TextEncoder().encode(asked),
    );
    const signature = new Uint8Array(signed).toBase64({ alphabet: "base64url" });
    return { challenge: asked, signature };
  };
  const refused = async (body: unknown) => {
    const answer = await post("/api/session", body);
    assert.equal(answer.status, 401);
    assert.equal((await answer.json()).error.code, "unauthorized");
  };
  const pair = await newPair();
  // Before the launch registers it, the key is nobody's.
  await refused(await proof(pair.privateKey));
  const launch = new URLSearchParams(server.url.hash.slice(1)).get("launch");
  const key = await crypto.subtle.exportKey("jwk", pair.publicKey);
  const traded = await post("/api/session", { launch, key });
  assert.equal(traded.status, 200);
  await traded.body?.cancel();
  const signed = await proof(pair.privateKey);
  const answer = await post("/api/session", signed);
  assert.equal(answer.status, 200);
  const { session } = await answer.json();
  const call = await apiCall(server, session);
  assert.notEqual(call.status, 401);
  await call.body?.cancel();
  // A challenge works once; another key, a challenge the server never gave, a bad signature: no.
  await refused(signed);
  await refused(await proof((await newPair()).privateKey));
  await refused(await proof(pair.privateKey, "never-issued"));
  await refused({ ...(await proof(pair.privateKey)), signature: "AAAA" });
});

Deno.test("ui server: asked for parts, a long body follows its response line in parts of at most BODY_PART characters, each as it is after its line, which the page's reader joins to the body (a surrogate pair at a cut kept whole)", async () => {
  // "😀" is two UTF-16 units: one sits across the first cut.
  const body = "a".repeat(BODY_PART - 1) + "😀" + "é".repeat(BODY_PART) + "z";
  await using upstream = serve(() =>
    new Response(body, { headers: { "Content-Type": "text/plain; charset=utf-8" } })
  );
  await using server = await startUiServer({ assets: ASSETS });
  const session = await sessionOf(server);
  const response = await fetch(new URL("/api/http", server.url), {
    method: "POST",
    headers: apiHeaders(session),
    body: JSON.stringify({
      method: "GET",
      url: `${upstream.origin}/`,
      timeoutMs: 5000,
      bodyParts: true,
    }),
  });
  const wire = await response.text();
  // On the wire: each part's line says its length, and its text follows as it is (not JSON).
  const lengths = [...wire.matchAll(/^\{"type":"body","chars":(\d+)\}$/gm)].map((m) =>
    Number(m[1])
  );
  assert.deepEqual(lengths, [BODY_PART - 1, BODY_PART, 3]);
  assert.ok(wire.includes(`\n${"a".repeat(BODY_PART - 1)}\n`) && wire.includes("😀é"));
  /** An event of the answer, as the page's reader gives it. */
  type Event = { type: string; text: string; response: { body?: string; bodyParts?: number } };
  const events = await Array.fromAsync(ndjson(new Response(wire))) as Event[];
  assert.equal(events[0]!.type, "response");
  assert.equal(events[0]!.response.body, undefined);
  assert.equal(events[0]!.response.bodyParts, 3);
  const parts = events.slice(1);
  assert.deepEqual(parts.map((e) => e.type), ["body", "body", "body"]);
  assert.ok(parts.every((e) => e.text.length <= BODY_PART));
  assert.equal(parts.map((e) => e.text).join(""), body);
  // Read in chunks of every size the reader may be given (a chunk ends anywhere: in a line, in a
  // part's text, between the two), the answer is the same.
  for (const size of [1, 7, 4096, BODY_PART + 3]) {
    const bytes = new TextEncoder().encode(wire);
    const chunked = new ReadableStream<Uint8Array>({
      start(out) {
        for (let at = 0; at < bytes.length; at += size) out.enqueue(bytes.slice(at, at + size));
        out.close();
      },
    });
    const again = await Array.fromAsync(ndjson(new Response(chunked)));
    assert.deepEqual(again, events, `chunks of ${size} bytes`);
  }
  // A call that does not ask for parts gets the body in the response's one line.
  const whole = await fetch(new URL("/api/http", server.url), {
    method: "POST",
    headers: apiHeaders(session),
    body: JSON.stringify({ method: "GET", url: `${upstream.origin}/`, timeoutMs: 5000 }),
  });
  const [only, ...rest] = (await whole.text()).trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(rest.length, 0);
  assert.equal(only.response.body, body);
  assert.equal(only.response.bodyParts, undefined);
});
