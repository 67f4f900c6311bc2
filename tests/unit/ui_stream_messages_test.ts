import assert from "node:assert/strict";
import { parseBridgeCommand } from "../../src/ui/api/stream_messages.ts";

const start = (extra: Record<string, unknown>) =>
  JSON.stringify({ type: "start", kind: "ws", request: { url: "wss://example.com/s" }, ...extra });

Deno.test("stream bridge message: a WebSocket start keeps the ws scheme and the options", () => {
  const command = parseBridgeCommand(start({
    protocols: ["chat", " "],
    keepAlive: { intervalMs: 1000, data: "ping" },
    reconnect: { attempts: 3, delayMs: 500 },
  }));
  assert.equal(command.type, "start");
  if (command.type !== "start" || command.start.kind !== "ws") throw new Error("not ws");
  assert.equal(command.start.spec.url.href, "https://example.com/s");
  assert.equal(command.start.spec.method, "GET");
  assert.deepEqual(command.start.protocols, ["chat"]);
  assert.deepEqual(command.start.keepAlive, { intervalMs: 1000, data: "ping" });
  assert.deepEqual(command.start.reconnect, { attempts: 3, delayMs: 500 });
});

Deno.test("stream bridge message: not JSON is refused", () => {
  assert.throws(() => parseBridgeCommand("{"), /^UsageError: Invalid bridge message: /);
});

Deno.test("stream bridge message: an unknown type is refused", () => {
  assert.throws(
    () => parseBridgeCommand(`{"type":"jump"}`),
    /Invalid type: expected one of hello, start, send, close/,
  );
});

Deno.test("stream bridge message: a WebSocket URL with another scheme is refused", () => {
  assert.throws(
    () => parseBridgeCommand(start({ request: { url: "ftp://x/" } })),
    /Invalid URL "ftp:\/\/x\/"/,
  );
});

Deno.test("stream bridge message: a subprotocol with a space is refused", () => {
  assert.throws(
    () => parseBridgeCommand(start({ protocols: ["a b"] })),
    /Invalid subprotocol "a b": not a token/,
  );
});

Deno.test("stream bridge message: a keep-alive interval under 100 ms is refused", () => {
  assert.throws(
    () => parseBridgeCommand(start({ keepAlive: { intervalMs: 5 } })),
    /Invalid keepAlive.intervalMs: expected whole milliseconds from 100 to 86400000/,
  );
});

Deno.test("stream bridge message: a negative reconnect count is refused", () => {
  assert.throws(
    () => parseBridgeCommand(start({ reconnect: { attempts: -1, delayMs: 0 } })),
    /Invalid reconnect.attempts: expected a whole number from 0 to 1000/,
  );
});

Deno.test("stream bridge message: SSE takes GET or POST only", () => {
  assert.throws(
    () =>
      parseBridgeCommand(JSON.stringify({
        type: "start",
        kind: "sse",
        request: { method: "PUT", url: "https://x/" },
      })),
    /Invalid method "PUT" for server-sent events: use GET or POST/,
  );
});

Deno.test("stream bridge message: a Last-Event-ID with a line break is refused", () => {
  assert.throws(
    () =>
      parseBridgeCommand(JSON.stringify({
        type: "start",
        kind: "sse",
        request: { url: "https://x/" },
        lastEventId: "1\n2",
      })),
    /Invalid Last-Event-ID: contains a line break or NUL/,
  );
});

Deno.test("stream bridge message: SSE POST keeps its body; GET drops it", () => {
  const post = parseBridgeCommand(JSON.stringify({
    type: "start",
    kind: "sse",
    request: { method: "post", url: "https://x/", body: { kind: "json", text: "{}" } },
  }));
  if (post.type !== "start") throw new Error("not start");
  assert.equal(post.start.spec.method, "POST");
  assert.deepEqual(post.start.spec.body, {
    kind: "text",
    text: "{}",
    contentType: "application/json",
  });
  const get = parseBridgeCommand(JSON.stringify({
    type: "start",
    kind: "sse",
    request: { url: "https://x/", body: { kind: "json", text: "{}" } },
  }));
  if (get.type !== "start") throw new Error("not start");
  assert.equal(get.start.spec.body, undefined);
});

Deno.test("stream bridge message: binary data must be base64", () => {
  const ok = parseBridgeCommand(`{"type":"send","base64":"AAE="}`);
  assert.deepEqual(ok, { type: "send", data: new Uint8Array([0, 1]) });
  assert.throws(
    () => parseBridgeCommand(`{"type":"send","base64":"!!"}`),
    /Invalid binary message: not base64/,
  );
});

Deno.test("stream bridge message: a close code outside 1000 and 3000–4999 is refused", () => {
  assert.deepEqual(parseBridgeCommand(`{"type":"close","code":4000,"reason":"x"}`), {
    type: "close",
    code: 4000,
    reason: "x",
  });
  assert.throws(
    () => parseBridgeCommand(`{"type":"close","code":1006}`),
    /Invalid close code: use 1000 or 3000–4999/,
  );
});

Deno.test("stream bridge message: a close reason over 123 bytes is refused", () => {
  assert.throws(
    () => parseBridgeCommand(JSON.stringify({ type: "close", reason: "é".repeat(62) })),
    /Invalid close reason: longer than 123 bytes of UTF-8/,
  );
});
