/**
 * OAuth 2.0 on streams: the token on the WebSocket handshake, a fresh token on SSE
 * reconnections, and a revoked cached token replaced after a 401. oauth2-mock-server runs
 * in-process on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { dial, serve } from "../_helpers.ts";
import { oauthHome, startMockServer } from "./_oauth_servers.ts";

function eventStream(text: string): Response {
  return new Response(text, { headers: { "content-type": "text/event-stream" } });
}

/** `dial sse URL --max-events 2` with a client_credentials token and an empty token cache. */
async function twoEvents(url: string, tokenUrl: string) {
  return await dial([
    "sse",
    url,
    "--oauth2",
    `client_credentials:${tokenUrl}:app:s3cret`,
    "--max-events",
    "2",
  ], { env: { HOME: await oauthHome() } });
}

Deno.test("sse: a reconnection after the token expired sends a new OAuth 2.0 token", async () => {
  await using mock = await startMockServer(1);
  const seen: string[] = [];
  await using server = serve((request) => {
    seen.push(request.headers.get("authorization") ?? "");
    // The token lives 1 s; the reconnection comes after it expired.
    return eventStream(`retry: 1100\ndata: n${seen.length}\n\n`);
  });
  const result = await twoEvents(server.origin, mock.tokenUrl);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "n1\nn2\n");
  assert.equal(mock.tokenRequests.length, 2);
  assert.match(seen[0] ?? "", /^Bearer ey/);
  assert.match(seen[1] ?? "", /^Bearer ey/);
  assert.notEqual(seen[0], seen[1]);
});

Deno.test("sse: a reconnection refused with 401 gets a fresh OAuth 2.0 token", async () => {
  await using mock = await startMockServer();
  const seen: string[] = [];
  await using server = serve((request) => {
    const auth = request.headers.get("authorization") ?? "";
    seen.push(auth);
    // The first token is revoked once the first stream has ended.
    if (seen.length > 1 && auth === seen[0]) return new Response("revoked", { status: 401 });
    return eventStream(`retry: 20\ndata: n${seen.length}\n\n`);
  });
  const result = await twoEvents(server.origin, mock.tokenUrl);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "n1\nn3\n");
  assert.equal(mock.tokenRequests.length, 2);
  assert.equal(seen[1], seen[0]);
  assert.notEqual(seen[2], seen[0]);
});

Deno.test("ws: the OAuth 2.0 token goes on the handshake; a revoked cached one is replaced", async () => {
  await using mock = await startMockServer();
  const revoked = new Set<string>();
  const seen: string[] = [];
  await using server = serve((request) => {
    const auth = request.headers.get("authorization") ?? "";
    seen.push(auth);
    if (!auth.startsWith("Bearer ") || revoked.has(auth)) {
      return new Response("unauthorized", { status: 401 });
    }
    const { socket, response } = Deno.upgradeWebSocket(request);
    socket.onmessage = (event) => socket.send(`echo: ${event.data}`);
    return response;
  });
  const home = await oauthHome();
  const args = [
    "ws",
    `ws://127.0.0.1:${server.port}/`,
    "--oauth2",
    `client_credentials:${mock.tokenUrl}:app:s3cret`,
    "--wait",
    "0.3",
  ];
  const first = await dial(args, { stdin: "one\n", env: { HOME: home } });
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.stdout, "echo: one\n");
  assert.match(seen[0] ?? "", /^Bearer ey/);
  revoked.add(seen[0]!);
  const second = await dial(args, { stdin: "two\n", env: { HOME: home } });
  assert.equal(second.code, 0, second.stderr);
  assert.equal(second.stdout, "echo: two\n");
  assert.equal(mock.tokenRequests.length, 2);
  assert.deepEqual(seen.slice(0, 2), [seen[0], seen[0]], "the cached token was tried first");
  assert.notEqual(seen[2], seen[0]);
});
