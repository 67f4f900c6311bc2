/**
 * The UI stream bridge when the page stops reading: the WebSocket session pauses its socket,
 * so the server is held back by TCP; nothing piles up and nothing is lost.
 */
import assert from "node:assert/strict";
import { serve } from "../_helpers.ts";
import { startUiServer, type UiServer } from "../../src/ui/server.ts";
import { sessionOf } from "../ui/_session.ts";

const MB = 1024 * 1024;

/** 8 KiB messages, each starting with its number. */
const MESSAGE = "x".repeat(8192);

/**
 * A WebSocket server that sends numbered 8 KiB messages as fast as the client takes them.
 * `held` resolves once its socket has been full (1 MiB waiting) on 100 tries in a row: the
 * client stopped taking messages and TCP holds the server back.
 */
function floodServer() {
  const held = Promise.withResolvers<number>();
  let sent = 0;
  const server = serve((request) => {
    const { socket, response } = Deno.upgradeWebSocket(request);
    let full = 0;
    const pump = () => {
      if (socket.readyState !== WebSocket.OPEN) return;
      if (socket.bufferedAmount >= MB) full++;
      else full = 0;
      while (socket.readyState === WebSocket.OPEN && socket.bufferedAmount < MB) {
        socket.send(`${sent++} ${MESSAGE}`);
      }
      if (full >= 100) held.resolve(sent);
      setTimeout(pump, 1);
    };
    socket.onopen = pump;
    return response;
  });
  return { server, held: held.promise };
}

/** A page that opens the bridge by hand and then does not read: a raw TCP WebSocket client. */
async function stalledPage(ui: UiServer, start: unknown) {
  const session = await sessionOf(ui);
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: ui.port });
  const origin = `http://127.0.0.1:${ui.port}`;
  await conn.write(new TextEncoder().encode(
    `GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1:${ui.port}\r\nOrigin: ${origin}\r\n` +
      `Upgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  ));
  const reader = conn.readable.getReader();
  let buffer = new Uint8Array(0);
  const more = async () => {
    const { value, done } = await reader.read();
    if (done) throw new Error("the bridge closed");
    const next = new Uint8Array(buffer.length + value.length);
    next.set(buffer);
    next.set(value, buffer.length);
    buffer = next;
  };
  while (!new TextDecoder().decode(buffer).includes("\r\n\r\n")) await more();
  const head = new TextDecoder().decode(buffer);
  assert.match(head, /^HTTP\/1\.1 101/);
  buffer = buffer.slice(head.indexOf("\r\n\r\n") + 4);
  // The first message proves the session, as the app's bridge client does.
  await conn.write(maskedTextFrame(JSON.stringify({ type: "hello", session })));
  await conn.write(maskedTextFrame(JSON.stringify(start)));
  /** Reads the next text frame's JSON. */
  const nextBatch = async (): Promise<Array<Record<string, unknown>>> => {
    for (;;) {
      const frame = parseFrame(buffer);
      if (frame) {
        buffer = buffer.slice(frame.end);
        if (frame.opcode === 1) return JSON.parse(new TextDecoder().decode(frame.payload));
        continue;
      }
      await more();
    }
  };
  return { nextBatch, close: () => conn.close() };
}

function maskedTextFrame(text: string): Uint8Array {
  const payload = new TextEncoder().encode(text);
  assert.ok(payload.length < 126);
  const mask = crypto.getRandomValues(new Uint8Array(4));
  const frame = new Uint8Array(6 + payload.length);
  frame.set([0x81, 0x80 | payload.length, ...mask]);
  payload.forEach((byte, i) => frame[6 + i] = byte ^ mask[i % 4]!);
  return frame;
}

function parseFrame(bytes: Uint8Array) {
  if (bytes.length < 2) return undefined;
  let length = bytes[1]! & 0x7f;
  let offset = 2;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (length === 126) {
    if (bytes.length < 4) return undefined;
    length = view.getUint16(2);
    offset = 4;
  } else if (length === 127) {
    if (bytes.length < 10) return undefined;
    length = Number(view.getBigUint64(2));
    offset = 10;
  }
  if (bytes.length < offset + length) return undefined;
  return {
    opcode: bytes[0]! & 0x0f,
    payload: bytes.subarray(offset, offset + length),
    end: offset + length,
  };
}

Deno.test("ui stream bridge: a page that stops reading holds the server back, and loses no message", async () => {
  const { server, held } = floodServer();
  await using _server = server;
  await using ui = await startUiServer({ assets: NO_ASSETS });
  const page = await stalledPage(ui, {
    type: "start",
    kind: "ws",
    request: { url: `ws://127.0.0.1:${server.port}/` },
  });
  const sent = await held;
  // Held back within the bridge's 8 MiB and the sockets' buffers, far from unbounded.
  assert.ok(sent * MESSAGE.length < 48 * MB, `${sent} messages sent before the server was held`);
  // Reading again: every message arrives, in order, none dropped.
  let next = 0;
  while (next < sent) {
    for (const event of await page.nextBatch()) {
      assert.notEqual(event.type, "dropped");
      if (event.type !== "message") continue;
      assert.equal(Number(String(event.text).split(" ")[0]), next++);
    }
  }
  page.close();
});

const NO_ASSETS = { js: "", css: "" };
