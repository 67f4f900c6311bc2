import assert from "node:assert/strict";
import { serve } from "../_helpers.ts";
import { startUiServer } from "../../src/ui/server.ts";
import { apiHeaders, sessionOf } from "./_session.ts";
import { trickleServer } from "./_trickle.ts";
import { timeoutOf } from "../../src/ui/api/ndjson.ts";

const ASSETS = { js: "", css: "" };

async function lines(response: Response): Promise<Array<Record<string, unknown>>> {
  return (await response.text()).trim().split("\n").map((line) => JSON.parse(line));
}

Deno.test("ui requests end: when the page cancels, the upstream connection closes within a second", async () => {
  await using upstream = trickleServer();
  await using server = await startUiServer({ assets: ASSETS });
  const session = await sessionOf(server);
  const page = new AbortController();
  const call = fetch(new URL("/api/http", server.url), {
    method: "POST",
    headers: apiHeaders(session),
    body: JSON.stringify({ method: "GET", url: `${upstream.origin}/slow`, timeoutMs: 0 }),
    signal: page.signal,
  }).then((r) => r.text()).catch((error) => error.name);
  const connection = await upstream.connection(1);
  const cancelledAt = performance.now();
  page.abort();
  const closedAt = await connection.closed;
  assert.ok(closedAt - cancelledAt < 1000, `closed after ${closedAt - cancelledAt} ms`);
  assert.equal(await call, "AbortError");
});

Deno.test("ui requests end: the tab's timeout ends the request in words and closes the upstream connection", async () => {
  await using upstream = trickleServer();
  await using server = await startUiServer({ assets: ASSETS });
  const session = await sessionOf(server);
  const response = await fetch(new URL("/api/http", server.url), {
    method: "POST",
    headers: apiHeaders(session),
    body: JSON.stringify({ method: "GET", url: `${upstream.origin}/slow`, timeoutMs: 300 }),
  });
  assert.equal(response.status, 200);
  assert.deepEqual(await lines(response), [{
    type: "error",
    error: {
      code: "timeout",
      message: "Timed out after 0.3 s",
      hint: "raise Timeout in the tab (0 waits without limit)",
    },
  }]);
  const connection = await upstream.connection(1);
  const closedAt = await connection.closed;
  assert.ok(
    closedAt - connection.openedAt < 1300,
    `closed after ${closedAt - connection.openedAt}`,
  );
});

Deno.test("ui requests end: a request without a timeout gets 30 s; a bad timeout is refused in words", async () => {
  await using server = await startUiServer({ assets: ASSETS });
  assert.equal(timeoutOf(undefined), 30_000);
  assert.equal(timeoutOf(0), 0);
  const session = await sessionOf(server);
  const response = await fetch(new URL("/api/http", server.url), {
    method: "POST",
    headers: apiHeaders(session),
    body: JSON.stringify({ method: "GET", url: "http://127.0.0.1:1/", timeoutMs: -1 }),
  });
  assert.equal(response.status, 400);
  assert.deepEqual((await response.json()).error, {
    code: "usage",
    message: "Invalid timeoutMs: expected whole milliseconds from 0 to 86400000",
    hint: "set Timeout in seconds, e.g. 30; 0 waits without limit",
  });
});

Deno.test("ui requests end: 20 abandoned requests hold no upstream connection a second later", async () => {
  await using upstream = trickleServer();
  await using server = await startUiServer({ assets: ASSETS });
  const session = await sessionOf(server);
  const pages = Array.from({ length: 20 }, () => new AbortController());
  const calls = pages.map((page) =>
    fetch(new URL("/api/http", server.url), {
      method: "POST",
      headers: apiHeaders(session),
      body: JSON.stringify({ method: "GET", url: upstream.origin, timeoutMs: 0 }),
      signal: page.signal,
    }).then((r) => r.text()).catch(() => {})
  );
  await upstream.connection(20);
  const abandonedAt = performance.now();
  for (const page of pages) page.abort();
  const closed = await Promise.all(upstream.connections.map((c) => c.closed));
  assert.ok(Math.max(...closed) - abandonedAt < 1000);
  await Promise.all(calls);
});

Deno.test("ui requests end: an auth-panel API key named X-Partner-Id is not forwarded on a cross-origin redirect", async () => {
  await using elsewhere = serve((request) =>
    Response.json({ partner: request.headers.get("x-partner-id") })
  );
  await using origin = serve((request) =>
    new URL(request.url).pathname === "/here"
      ? Response.json({ partner: request.headers.get("x-partner-id") })
      : Response.redirect(`${elsewhere.origin}/landing`, 302)
  );
  await using server = await startUiServer({ assets: ASSETS });
  const session = await sessionOf(server);
  const send = async (path: string) => {
    const response = await fetch(new URL("/api/http", server.url), {
      method: "POST",
      headers: apiHeaders(session),
      body: JSON.stringify({
        method: "GET",
        url: `${origin.origin}${path}`,
        auth: { kind: "apikey", in: "header", name: "X-Partner-Id", value: "p-123" },
      }),
    });
    const [event] = await lines(response);
    return event!;
  };
  const redirected = await send("/start");
  assert.equal(redirected.type, "response");
  const response = redirected.response as { body: string; redirects: number };
  assert.equal(response.redirects, 1);
  assert.deepEqual(JSON.parse(response.body), { partner: null });
  assert.equal(origin.requests[0]!.headers.get("x-partner-id"), "p-123");
  assert.equal(elsewhere.requests[0]!.headers.get("x-partner-id"), null);
  // Same origin, it is sent: the key works where it belongs.
  const here = await send("/here");
  assert.deepEqual(JSON.parse((here.response as { body: string }).body), { partner: "p-123" });
});
