/**
 * Bounded memory for streams: a server sends as fast as it can to a dial whose stdout is a
 * pipe nobody reads for 10 s. Peak RSS (VmHWM) is read from /proc, not timed.
 */
import assert from "node:assert/strict";
import { serve } from "../_helpers.ts";
import { spawnDial } from "./_spawn.ts";

const MB = 1024 * 1024;
const STALL_MS = 10_000;

/** Peak resident set size of a process, from /proc/<pid>/status. */
function peakRss(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kb = /^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1];
  assert.ok(kb, "VmHWM in /proc/<pid>/status");
  return Number(kb) * 1024;
}

/** Small messages make per-message overhead count: 100 bytes each. */
const PAYLOAD = "x".repeat(90);

function sseFlood() {
  const encoder = new TextEncoder();
  // 512 events per chunk: the server fills the socket as fast as TCP lets it.
  let n = 0;
  const chunk = () => {
    let text = "";
    for (let i = 0; i < 512; i++) text += `data: ${n++} ${PAYLOAD}\n\n`;
    return encoder.encode(text);
  };
  return serve(() =>
    new Response(
      new ReadableStream<Uint8Array>({
        pull(controller) {
          controller.enqueue(chunk());
        },
      }, { highWaterMark: 1 }),
      { headers: { "content-type": "text/event-stream" } },
    )
  );
}

function wsFlood() {
  return serve((request) => {
    const { socket, response } = Deno.upgradeWebSocket(request);
    let n = 0;
    const pump = () => {
      if (socket.readyState !== WebSocket.OPEN) return;
      // Keep the server's own buffer small; the client reads as fast as it can.
      while (socket.bufferedAmount < MB && socket.readyState === WebSocket.OPEN) {
        socket.send(`${n++} ${PAYLOAD}`);
      }
      setTimeout(pump, 1);
    };
    socket.onopen = pump;
    return response;
  });
}

/** Waits out the stall with nobody reading stdout, then reads the peak and some output. */
async function stallThenRead(
  child: Deno.ChildProcess,
): Promise<{ peak: number; stderr: string; head: string }> {
  const stderrText = new Response(child.stderr).text();
  await new Promise((resolve) => setTimeout(resolve, STALL_MS));
  const peak = peakRss(child.pid);
  const reader = child.stdout.getReader();
  // dial keeps writing once the reader reads: the stream was paused, not dead.
  let bytes = 0;
  let head = "";
  while (bytes < 16 * MB) {
    const { value, done } = await reader.read();
    if (done) break;
    bytes += value.length;
    if (head.length < MB) head += new TextDecoder().decode(value);
  }
  assert.ok(bytes >= 16 * MB, `dial wrote ${bytes} bytes after the stall`);
  child.kill("SIGTERM");
  await reader.cancel();
  await child.status;
  return { peak, stderr: await stderrText, head };
}

Deno.test("memory: dial sse with a stalled stdout stays under 150 MB", async () => {
  await using server = sseFlood();
  const child = spawnDial(["sse", `${server.origin}/events`]);
  await child.stdin.close();
  const { peak } = await stallThenRead(child);
  assert.ok(peak < 150 * MB, `peak RSS ${(peak / MB).toFixed(0)} MB`);
});

Deno.test("memory: dial ws with a stalled stdout stays under 150 MB and loses no message (it stops reading the socket)", async () => {
  await using server = wsFlood();
  const child = spawnDial(["ws", `ws://127.0.0.1:${server.port}/`]);
  const { peak, stderr, head } = await stallThenRead(child);
  assert.ok(peak < 150 * MB, `peak RSS ${(peak / MB).toFixed(0)} MB`);
  assert.doesNotMatch(stderr, /Dropped/);
  // Every message, in order, from the first: none was dropped while stdout was stalled.
  const numbers = head.split("\n").slice(0, -1).map((line) => Number(line.split(" ")[0]));
  assert.ok(numbers.length > 1000);
  assert.deepEqual(numbers, numbers.map((_, i) => i));
});
