/**
 * WebSocketSession with an in-memory socket: events, keep-alive, reconnection, failures.
 */
import assert from "node:assert/strict";
import { waitFor } from "../_helpers.ts";
import { type DialError, ErrorCode } from "../../src/errors/mod.ts";
import type { RequestSpec } from "../../src/http/request_spec.ts";
import { Secret } from "../../src/secret.ts";
import {
  type WebSocketFactory,
  WebSocketSession,
  type WebSocketSessionEvent,
} from "../../src/stream/ws_session.ts";

/** A scripted stand-in for a WebSocket; the test plays the server. */
class FakeSocket {
  protocol = "";
  extensions = "";
  binaryType = "blob";
  sent: Array<string | Uint8Array> = [];
  closedWith?: { code?: number; reason?: string };
  onopen: ((e: Event) => void) | null = null;
  onmessage: ((e: MessageEvent) => void) | null = null;
  onerror: ((e: Event) => void) | null = null;
  onclose: ((e: CloseEvent) => void) | null = null;
  constructor(
    readonly url: URL,
    readonly init: { protocols: string[]; headers: Array<[string, string]> },
  ) {}
  send(data: string | Uint8Array) {
    this.sent.push(data);
  }
  close(code?: number, reason?: string) {
    this.closedWith = { ...(code !== undefined ? { code } : {}), ...(reason ? { reason } : {}) };
    queueMicrotask(() =>
      this.onclose?.(
        new CloseEvent("close", { code: code ?? 1005, reason: reason ?? "", wasClean: true }),
      )
    );
  }
  accept(protocol = "") {
    this.protocol = protocol;
    this.onopen?.(new Event("open"));
  }
  receive(data: string | ArrayBuffer) {
    this.onmessage?.(new MessageEvent("message", { data }));
  }
  refuse(message: string) {
    this.onerror?.(new ErrorEvent("error", { message }));
    this.onclose?.(new CloseEvent("close", { code: 0, wasClean: false }));
  }
  drop(code = 0, reason = "") {
    this.onclose?.(new CloseEvent("close", { code, reason, wasClean: code !== 0 }));
  }
}

function fakeFactory() {
  const sockets: FakeSocket[] = [];
  let waiting: ((s: FakeSocket) => void) | undefined;
  const create: WebSocketFactory = (url, init) => {
    const socket = new FakeSocket(url, init);
    sockets.push(socket);
    waiting?.(socket);
    return socket as unknown as WebSocket;
  };
  const next = (index: number) =>
    sockets[index]
      ? Promise.resolve(sockets[index])
      : new Promise<FakeSocket>((resolve) => waiting = resolve);
  return { create, sockets, next };
}

const SPEC: RequestSpec = {
  method: "GET",
  url: new URL("https://api.example.test/live"),
  headers: [{ name: "X-Api-Key", value: new Secret("k") }],
  auth: {
    authorization: { kind: "bearer", token: new Secret("t0k") },
    queryKeys: [{ name: "key", value: new Secret("q") }],
  },
};

function record(session: WebSocketSession): WebSocketSessionEvent[] {
  const events: WebSocketSessionEvent[] = [];
  session.events.subscribe((e) => events.push(e));
  return events;
}

Deno.test("ws session: the handshake carries auth headers, query keys and subprotocols", async () => {
  const fake = fakeFactory();
  const session = new WebSocketSession(SPEC, { createWebSocket: fake.create, protocols: ["v1"] });
  const connected = session.connect();
  const socket = await fake.next(0);
  socket.accept("v1");
  await connected;
  assert.equal(socket.url.href, "wss://api.example.test/live?key=q");
  // The handshake's own headers in order and case (dial's client adds Host and the upgrade).
  assert.deepEqual(socket.init.headers.map(([name]) => name), [
    "Authorization",
    "X-Api-Key",
    "User-Agent",
  ]);
  const headers = new Headers(socket.init.headers);
  assert.equal(headers.get("authorization"), "Bearer t0k");
  assert.equal(headers.get("x-api-key"), "k");
  assert.deepEqual(socket.init.protocols, ["v1"]);
  assert.equal(session.state, "open");
  assert.equal(session.protocol, "v1");
  await session.close();
});

Deno.test("ws session: messages both ways are events with direction, size and time", async () => {
  const fake = fakeFactory();
  const session = new WebSocketSession(SPEC, { createWebSocket: fake.create });
  const events = record(session);
  const connected = session.connect();
  (await fake.next(0)).accept();
  await connected;
  session.send("héllo");
  fake.sockets[0]!.receive("world");
  fake.sockets[0]!.receive(new Uint8Array([1, 2, 3]).buffer);
  const info = await session.close(1000, "done");
  const messages = events.filter((e) => e.type === "message");
  assert.deepEqual(
    messages.map((m) => [m.direction, m.data, m.size]),
    [["out", "héllo", 6], ["in", "world", 5], ["in", new Uint8Array([1, 2, 3]), 3]],
  );
  assert.ok(messages.every((m) => typeof m.time === "number"));
  assert.deepEqual(info, { code: 1000, reason: "done", clean: true, by: "client" });
  assert.deepEqual(events.map((e) => e.type), [
    "connecting",
    "open",
    "message",
    "message",
    "message",
    "close",
  ]);
  assert.equal(session.state, "closed");
});

Deno.test("ws session: a refused handshake is a StatusError with the status", async () => {
  const fake = fakeFactory();
  const session = new WebSocketSession(SPEC, { createWebSocket: fake.create });
  const connected = session.connect();
  (await fake.next(0)).refuse(
    "NetworkError: failed to connect to WebSocket: Invalid status code: 403",
  );
  await assert.rejects(connected, (error: DialError) => {
    assert.equal(error.code, ErrorCode.HttpStatus);
    assert.equal(error.exitCode, 4);
    assert.equal(error.message, "WebSocket handshake refused by api.example.test:443: HTTP 403");
    return true;
  });
  assert.equal((await session.finished).code, 1006);
});

Deno.test("ws session: a subprotocol the client did not offer fails the handshake", async () => {
  const fake = fakeFactory();
  const session = new WebSocketSession(SPEC, { createWebSocket: fake.create, protocols: ["a"] });
  const connected = session.connect();
  (await fake.next(0)).accept("b");
  await assert.rejects(connected, (error: DialError) => {
    assert.equal(error.code, ErrorCode.Subprotocol);
    assert.match(error.message, /the server chose subprotocol "b", not one of "a"/);
    return true;
  });
});

Deno.test("ws session: the handshake times out", async () => {
  const fake = fakeFactory();
  const session = new WebSocketSession(SPEC, { createWebSocket: fake.create, timeoutMs: 20 });
  await assert.rejects(session.connect(), (error: DialError) => {
    assert.equal(error.code, ErrorCode.Timeout);
    assert.equal(error.exitCode, 8);
    assert.match(error.message, /Timed out waiting for the WebSocket handshake/);
    return true;
  });
});

Deno.test("ws session: keep-alive sends its message while open", async () => {
  const fake = fakeFactory();
  const session = new WebSocketSession(SPEC, {
    createWebSocket: fake.create,
    keepAlive: { intervalMs: 10, data: "ping" },
  });
  const events = record(session);
  const connected = session.connect();
  (await fake.next(0)).accept();
  await connected;
  await waitFor(() => fake.sockets[0]!.sent.length >= 2, { message: "two keep-alive messages" });
  await session.close();
  const sent = fake.sockets[0]!.sent.length;
  assert.ok(sent >= 2, `sent ${sent}`);
  assert.ok(fake.sockets[0]!.sent.every((m) => m === "ping"));
  assert.ok(events.some((e) => e.type === "message" && e.keepAlive));
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.equal(fake.sockets[0]!.sent.length, sent, "no keep-alive after close");
});

Deno.test("ws session: an abnormal close reconnects when asked, a client close does not", async () => {
  const fake = fakeFactory();
  const session = new WebSocketSession(SPEC, {
    createWebSocket: fake.create,
    reconnect: { attempts: 2, delayMs: 5 },
  });
  const events = record(session);
  const connected = session.connect();
  (await fake.next(0)).accept();
  await connected;
  fake.sockets[0]!.drop(); // no close frame: 1006
  (await fake.next(1)).accept();
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(session.state, "open");
  assert.equal(session.attempt, 2);
  const info = await session.close();
  assert.equal(info.by, "client");
  assert.equal(fake.sockets.length, 2);
  const close = events.find((e) => e.type === "close");
  assert.deepEqual(close && [close.code, close.clean, close.by], [1006, false, "server"]);
  assert.ok(events.some((e) => e.type === "reconnecting" && e.attempt === 2 && e.delayMs === 5));
});

Deno.test("ws session: reconnection gives up after its attempts", async () => {
  const fake = fakeFactory();
  const session = new WebSocketSession(SPEC, {
    createWebSocket: fake.create,
    reconnect: { attempts: 2, delayMs: 1 },
  });
  const connected = session.connect();
  (await fake.next(0)).accept();
  await connected;
  fake.sockets[0]!.drop(4000, "restarting");
  (await fake.next(1)).refuse("Invalid status code: 503");
  (await fake.next(2)).refuse("Invalid status code: 503");
  const info = await session.finished;
  assert.deepEqual([info.code, info.reason, info.by], [4000, "restarting", "server"]);
  assert.equal(fake.sockets.length, 3);
  assert.equal(session.state, "closed");
});

Deno.test("ws session: send before open is an error", () => {
  const session = new WebSocketSession(SPEC, { createWebSocket: fakeFactory().create });
  assert.throws(() => session.send("x"), /Cannot send: the connection is idle/);
});

Deno.test("ws session: the signal closes the connection with 1000", async () => {
  const fake = fakeFactory();
  const controller = new AbortController();
  const session = new WebSocketSession(SPEC, {
    createWebSocket: fake.create,
    signal: controller.signal,
  });
  const connected = session.connect();
  (await fake.next(0)).accept();
  await connected;
  controller.abort();
  const info = await session.finished;
  assert.equal(info.code, 1000);
  assert.deepEqual(fake.sockets[0]!.closedWith, { code: 1000 });
});

Deno.test("ws session: close() during a reconnection wait ends it at once", async () => {
  const fake = fakeFactory();
  const session = new WebSocketSession(SPEC, {
    createWebSocket: fake.create,
    reconnect: { attempts: 3, delayMs: 60_000 },
  });
  session.events.subscribe((e) => e.type === "reconnecting" && void session.close());
  const connected = session.connect();
  (await fake.next(0)).accept();
  await connected;
  fake.sockets[0]!.drop();
  const info = await session.finished;
  assert.equal(info.code, 1006);
  assert.equal(fake.sockets.length, 1);
});
