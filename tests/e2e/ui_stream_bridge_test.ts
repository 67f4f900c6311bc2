/**
 * The UI server's stream bridge (`GET /api/stream`) driven by a Deno WebSocket the way the
 * app's tabs drive it, against real WebSocket and SSE servers that check auth.
 */
import assert from "node:assert/strict";
import { serve, type TestServer } from "../_helpers.ts";
import { startUiServer, type UiServer } from "../../src/ui/server.ts";
import { sessionOf } from "../ui/_session.ts";
import { hasLighttpd, startDigestGate } from "./_lighttpd.ts";

const NO_ASSETS = { js: "", css: "" };

interface Bridge {
  socket: WebSocket;
  events: Array<Record<string, unknown>>;
  /** Resolves with the first event matching, waiting for it when needed. */
  next(match: (event: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  closed: Promise<CloseEvent>;
  /** Sends one message of the protocol. */
  send(message: Record<string, unknown>): void;
  /** Sends `start` for a stream of `kind` with the request (and more fields of the message). */
  start(kind: "ws" | "sse", request: Record<string, unknown>, more?: Record<string, unknown>): void;
  /** Waits for the `end` event, then for the bridge to close. */
  ended(): Promise<CloseEvent>;
}

/** Opens the bridge; with a session, proves it in the first message as the page does. */
async function openBridge(server: UiServer, session?: string): Promise<Bridge> {
  const origin = `http://127.0.0.1:${server.port}`;
  const socket = new WebSocket(`ws://127.0.0.1:${server.port}/api/stream`, {
    headers: { Origin: origin },
  });
  const events: Array<Record<string, unknown>> = [];
  const waiters = new Set<() => void>();
  socket.onmessage = (message) => {
    const batch: unknown = JSON.parse(String(message.data));
    assert.ok(Array.isArray(batch), "events come in arrays");
    events.push(...batch);
    for (const wake of waiters) wake();
  };
  const closed = new Promise<CloseEvent>((resolve) => socket.addEventListener("close", resolve));
  await new Promise<void>((resolve, reject) => {
    socket.onopen = () => {
      if (session !== undefined) socket.send(JSON.stringify({ type: "hello", session }));
      resolve();
    };
    socket.onerror = (event) => reject(new Error(event instanceof ErrorEvent ? event.message : ""));
  });
  const send = (message: Record<string, unknown>) => socket.send(JSON.stringify(message));
  const bridge: Bridge = {
    socket,
    events,
    closed,
    send,
    start: (kind, request, more = {}) => send({ type: "start", kind, request, ...more }),
    ended: async () => {
      await bridge.next((e) => e.type === "end");
      return await bridge.closed;
    },
    next: (match) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (found) {
            waiters.delete(check);
            resolve(found);
          }
        };
        waiters.add(check);
        closed.then(() => {
          check();
          if (waiters.delete(check)) {
            reject(new Error(`bridge closed; got ${JSON.stringify(events)}`));
          }
        });
        check();
      }),
  };
  return bridge;
}

/** Starts the UI server and opens a bridge proven with its session; disposing stops the server. */
async function uiBridge(): Promise<Bridge & AsyncDisposable> {
  const ui = await startUiServer({ assets: NO_ASSETS });
  const bridge = await openBridge(ui, await sessionOf(ui));
  return Object.assign(bridge, { [Symbol.asyncDispose]: () => ui[Symbol.asyncDispose]() });
}

function echoServer(authorization: string): TestServer {
  return serve((request) => {
    if (request.headers.get("authorization") !== authorization) {
      return new Response("unauthorized", { status: 401 });
    }
    const { socket, response } = Deno.upgradeWebSocket(request, { protocol: "chat" });
    socket.onmessage = (event) => {
      if (event.data === "bye") socket.close(4001, "asked to leave");
      else if (typeof event.data === "string") socket.send(`echo: ${event.data}`);
      else socket.send(event.data);
    };
    return response;
  });
}

/** The tab's request for the echo server's `/` with a bearer token. */
function bearerRequest(target: TestServer, token: string) {
  return { url: `ws://127.0.0.1:${target.port}/`, auth: { kind: "bearer", token } };
}

Deno.test("ui stream bridge: a WebSocket session carries Basic auth, echoes text and binary, and reports the server's close", async () => {
  await using target = echoServer(`Basic ${btoa("ann:pw")}`);
  await using bridge = await uiBridge();
  bridge.start("ws", {
    url: `ws://127.0.0.1:${target.port}/chat`,
    auth: { kind: "basic", username: "ann", password: "pw" },
  }, { protocols: ["chat"] });
  const open = await bridge.next((e) => e.type === "open");
  assert.equal(open.protocol, "chat");
  bridge.send({ type: "send", text: "hi" });
  const echo = await bridge.next((e) => e.type === "message" && e.direction === "in");
  assert.equal(echo.text, "echo: hi");
  assert.equal(echo.size, 8);
  bridge.send({ type: "send", base64: "AAEC/w==" });
  const binary = await bridge.next((e) =>
    e.type === "message" && e.base64 !== undefined &&
    e.direction === "in"
  );
  assert.equal(binary.base64, "AAEC/w==");
  assert.equal(binary.size, 4);
  bridge.send({ type: "send", text: "bye" });
  const close = await bridge.next((e) => e.type === "close");
  assert.deepEqual([close.code, close.reason, close.by], [4001, "asked to leave", "server"]);
  assert.equal((await bridge.ended()).code, 1000);
});

Deno.test("ui stream bridge: a refused handshake is reported with its status and hint", async () => {
  await using target = echoServer("Bearer right");
  await using bridge = await uiBridge();
  bridge.start("ws", bearerRequest(target, "wrong"));
  const error = await bridge.next((e) => e.type === "error");
  assert.deepEqual(error.error, {
    message: `WebSocket handshake refused by 127.0.0.1:${target.port}: HTTP 401`,
    code: "http_status",
    hint: "check the auth panel and the headers you added",
    status: 401,
  });
  await bridge.ended();
});

Deno.test("ui stream bridge: the client's Disconnect closes with the given code", async () => {
  await using target = echoServer("Bearer t");
  await using bridge = await uiBridge();
  bridge.start("ws", bearerRequest(target, "t"), { protocols: ["chat"] });
  await bridge.next((e) => e.type === "open");
  bridge.send({ type: "close", code: 4000, reason: "done here" });
  const close = await bridge.next((e) => e.type === "close");
  assert.deepEqual([close.code, close.reason, close.by], [4000, "done here", "client"]);
  await bridge.ended();
});

Deno.test("ui stream bridge: a bad start message is an error in words and nothing is sent", async () => {
  await using target = echoServer("Bearer t");
  await using bridge = await uiBridge();
  bridge.start("ws", { url: `ws://127.0.0.1:${target.port}/` }, { protocols: ["two words"] });
  const error = await bridge.next((e) => e.type === "error");
  assert.equal(
    (error.error as { message: string }).message,
    `Invalid subprotocol "two words": not a token`,
  );
  await bridge.closed;
  assert.equal(target.requests.length, 0);
});

Deno.test("ui stream bridge: a first message without the session closes the bridge with 4401 and runs nothing", async () => {
  await using target = serve(() => new Response("data: x\n\n"));
  await using ui = await startUiServer({ assets: NO_ASSETS });
  for (const hello of [{ type: "hello", session: "guess" }, { type: "start", kind: "sse" }]) {
    const bridge = await openBridge(ui);
    bridge.socket.send(JSON.stringify(hello));
    bridge.start("sse", { method: "GET", url: `${target.origin}/events` });
    const closed = await bridge.closed;
    assert.equal(closed.code, 4401);
    assert.equal(closed.reason, "Unauthorized: no session");
  }
  assert.equal(target.requests.length, 0);
});

Deno.test("ui stream bridge: an SSE session reconnects with Last-Event-ID and the credentials again", async () => {
  let connections = 0;
  await using target = serve((request) => {
    if (request.headers.get("x-api-key") !== "k") return new Response("no", { status: 401 });
    connections++;
    const body = connections === 1
      ? 'retry: 20\nid: 7\nevent: tick\ndata: {"n":1}\n\n'
      : `data: resumed after ${request.headers.get("last-event-id")}\n\n`;
    return new Response(body, { headers: { "Content-Type": "text/event-stream" } });
  });
  await using bridge = await uiBridge();
  bridge.start("sse", {
    method: "GET",
    url: `${target.origin}/events`,
    auth: { kind: "apikey", in: "header", name: "X-Api-Key", value: "k" },
  });
  const first = await bridge.next((e) => e.type === "event");
  assert.deepEqual([first.event, first.id, first.data], ["tick", "7", `{"n":1}`]);
  const reconnecting = await bridge.next((e) => e.type === "reconnecting");
  // The server's retry: is below the 250 ms floor.
  assert.deepEqual([reconnecting.attempt, reconnecting.delayMs, reconnecting.lastEventId], [
    2,
    250,
    "7",
  ]);
  const second = await bridge.next((e) => e.type === "event" && e.data !== `{"n":1}`);
  assert.equal(second.data, "resumed after 7");
  bridge.send({ type: "close" });
  const closed = await bridge.next((e) => e.type === "closed");
  assert.equal(closed.reason, "closed by the client");
  await bridge.closed;
});

Deno.test("ui stream bridge: an SSE reconnection gets a fresh OAuth 2.0 token once the old one expired", async () => {
  const cacheHome = await Deno.makeTempDir({ prefix: "dial-cache-" });
  const previous = Deno.env.get("XDG_CACHE_HOME");
  Deno.env.set("XDG_CACHE_HOME", cacheHome);
  try {
    let issued = 0;
    await using provider = serve(async (request) => {
      const form = new URLSearchParams(await request.text());
      if (form.get("grant_type") !== "client_credentials") {
        return Response.json({ error: "unsupported_grant_type" }, { status: 400 });
      }
      issued++;
      // A one-second lifetime: the token is stale by the time the stream reconnects.
      return Response.json({ access_token: `tok-${issued}`, token_type: "Bearer", expires_in: 1 });
    });
    const seen: Array<string | null> = [];
    await using target = serve((request) => {
      seen.push(request.headers.get("authorization"));
      if (seen.length > 1) return new Response(null, { status: 204 });
      return new Response("retry: 1000\nid: a\ndata: one\n\n", {
        headers: { "Content-Type": "text/event-stream" },
      });
    });
    await using bridge = await uiBridge();
    bridge.start("sse", {
      url: `${target.origin}/events`,
      auth: {
        kind: "oauth2",
        flow: "client_credentials",
        tokenUrl: `${provider.origin}/token`,
        clientId: "app",
        clientSecret: "shh",
      },
    });
    await bridge.next((e) => e.type === "closed");
    await bridge.closed;
    assert.deepEqual(seen, ["Bearer tok-1", "Bearer tok-2"]);
    assert.equal(issued, 2);
  } finally {
    if (previous === undefined) Deno.env.delete("XDG_CACHE_HOME");
    else Deno.env.set("XDG_CACHE_HOME", previous);
    await Deno.remove(cacheHome, { recursive: true });
  }
});

Deno.test("ui stream bridge: a plain GET is refused with a 400 in words", async () => {
  await using ui = await startUiServer({ assets: NO_ASSETS });
  const response = await fetch(`http://127.0.0.1:${ui.port}/api/stream`);
  assert.equal(response.status, 400);
  assert.deepEqual(await response.json(), {
    error: {
      code: "usage",
      message: "Expected a WebSocket upgrade",
      hint: "the stream tabs open this endpoint with new WebSocket()",
    },
  });
});

Deno.test({
  name:
    "ui stream bridge: the auth panel's Digest answers lighttpd's challenge on the WebSocket handshake",
  ignore: !hasLighttpd,
  async fn() {
    await using backend = serve((request) => {
      const { socket, response } = Deno.upgradeWebSocket(request);
      socket.onmessage = (event) => socket.send(`echo: ${event.data}`);
      return response;
    });
    await using gate = await startDigestGate(backend.port, { ann: "pw" }, "SHA-256");
    await using bridge = await uiBridge();
    bridge.start("ws", {
      url: `${gate.origin.replace("http:", "ws:")}/chat`,
      auth: { kind: "digest", username: "ann", password: "pw" },
    });
    await bridge.next((e) => e.type === "open");
    bridge.send({ type: "send", text: "hi" });
    const echo = await bridge.next((e) => e.type === "message" && e.direction === "in");
    assert.equal(echo.text, "echo: hi");
    assert.equal(
      bridge.events.filter((e) => e.type === "connecting").length,
      2,
      "the challenge, then the answer",
    );
    bridge.send({ type: "close" });
    await bridge.ended();
  },
});
