/**
 * `dial ui` against a hostile server: a brotli bomb is stopped by the expansion bound, kept
 * bodies stay under their caps, the body store goes with the server on SIGINT, SIGTERM and
 * SIGHUP, and oversized JSON is refused before any session check.
 */
import assert from "node:assert/strict";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { dial, dialEnv, firstLine, serve } from "../_helpers.ts";
import { startUiServer } from "../../src/ui/server.ts";
import { MAX_SESSION_JSON } from "../../src/ui/protocol.ts";
import { apiHeaders, sessionOf, tradeLaunch } from "../ui/_session.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const ASSETS = { js: "", css: "" };

/** 64 MiB of zeros as brotli: a few dozen bytes that would fill 64 MiB of disk. */
const BOMB = new Uint8Array(brotliCompressSync(new Uint8Array(64 * 1024 * 1024)));
/** The same as gzip: about 64 KiB (gzip cannot expand more than about 1,032 times). */
const GZIP_BOMB = new Uint8Array(gzipSync(new Uint8Array(64 * 1024 * 1024)));

/** A body streamed in small chunks, without Content-Length (chunked framing). */
function chunked(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + 4096));
      at += 4096;
    },
  });
}

function hostile() {
  return serve((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/chunked-br" || path === "/chunked-gzip") {
      return new Response(chunked(path.endsWith("br") ? BOMB : GZIP_BOMB), {
        headers: { "content-encoding": path.endsWith("br") ? "br" : "gzip" },
      });
    }
    if (path === "/bomb") {
      return new Response(BOMB, {
        headers: { "content-encoding": "br", "content-type": "application/octet-stream" },
      });
    }
    const size = Number(new URL(request.url).searchParams.get("size") ?? "10");
    return new Response("x".repeat(size), { headers: { "content-type": "text/plain" } });
  });
}

async function lines(response: Response): Promise<Array<Record<string, unknown>>> {
  return (await response.text()).trim().split("\n").map((line) => JSON.parse(line));
}

async function sendVia(ui: URL, session: string, url: string) {
  const response = await fetch(new URL("/api/http", ui), {
    method: "POST",
    headers: apiHeaders(session),
    body: JSON.stringify({ method: "GET", url }),
  });
  const [event] = await lines(response);
  return event as {
    type: string;
    error?: { code: string; message: string };
    response: { size: number; bodyId?: string };
  };
}

/** Starts `dial ui --no-open` with its own TMPDIR, so its body store can be watched. */
async function dialUi(tmp: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", MAIN, "ui", "--no-open"],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
    clearEnv: true,
    env: dialEnv({ TMPDIR: tmp }),
  }).spawn();
  const { line, cancel } = await firstLine(child.stdout);
  const url = new URL(line.trim());
  const trade = await tradeLaunch(url);
  const { session } = await trade.json();
  return { child, url, session: session as string, cancel };
}

async function stores(tmp: string): Promise<string[]> {
  const names = [];
  for await (const entry of Deno.readDir(tmp)) {
    if (entry.name.startsWith("dial-ui-bodies-")) names.push(entry.name);
  }
  return names;
}

Deno.test("hostile ui: a brotli bomb is refused as one and leaves nothing on disk", async () => {
  assert.ok(BOMB.length < 1024, `bomb of ${BOMB.length} bytes`);
  await using server = hostile();
  const tmp = await Deno.makeTempDir();
  const ui = await dialUi(tmp);
  try {
    const bomb = await sendVia(ui.url, ui.session, `${server.origin}/bomb`);
    assert.equal(bomb.type, "error", JSON.stringify(bomb));
    assert.equal(bomb.error!.code, "content_encoding");
    assert.match(bomb.error!.message, /expands more than 2000 times.*decompression bomb/);
    const [store] = await stores(tmp);
    assert.ok(store, "the store directory was made");
    assert.deepEqual(await Array.fromAsync(Deno.readDir(`${tmp}/${store}`)), []);
  } finally {
    ui.child.kill("SIGTERM");
    await ui.child.status;
    await ui.cancel();
    await Deno.remove(tmp, { recursive: true });
  }
});

const EXIT = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  Deno.test(`hostile ui: ${signal} removes the body store`, async () => {
    await using server = hostile();
    const tmp = await Deno.makeTempDir();
    const ui = await dialUi(tmp);
    const answer = await sendVia(ui.url, ui.session, `${server.origin}/text?size=100`);
    assert.equal(answer.type, "response", JSON.stringify(answer));
    const [store] = await stores(tmp);
    assert.equal((await Array.fromAsync(Deno.readDir(`${tmp}/${store}`))).length, 1);
    ui.child.kill(signal);
    const status = await ui.child.status;
    await ui.cancel();
    assert.equal(status.code, EXIT[signal]);
    assert.deepEqual(await stores(tmp), []);
    await Deno.remove(tmp, { recursive: true });
  });
}

Deno.test("hostile ui: a body over the cap keeps only its preview; the total cap evicts the oldest", async () => {
  await using server = hostile();
  await using ui = await startUiServer({
    assets: ASSETS,
    bodyLimits: { perBody: 1000, total: 2500 },
  });
  const session = await sessionOf(ui);
  const big = await sendVia(ui.url, session, `${server.origin}/text?size=1001`);
  assert.equal(big.response.size, 1001);
  assert.equal(big.response.bodyId, undefined);
  const ids = [];
  for (let i = 0; i < 3; i++) {
    const kept = await sendVia(ui.url, session, `${server.origin}/text?size=900`);
    assert.equal(typeof kept.response.bodyId, "string");
    ids.push(kept.response.bodyId as string);
  }
  const save = (id: string) =>
    fetch(new URL("/api/http/body", ui.url), {
      method: "POST",
      headers: apiHeaders(session),
      body: JSON.stringify({ id }),
    });
  const evicted = await save(ids[0]!);
  assert.equal(evicted.status, 400);
  assert.match(await evicted.text(), /no longer kept/);
  const newest = await save(ids[2]!);
  assert.equal(await newest.text(), "x".repeat(900));
});

Deno.test("hostile ui: JSON over the small cap is refused before any session check", async () => {
  await using ui = await startUiServer({ assets: ASSETS });
  const body = JSON.stringify({ launch: "x".repeat(MAX_SESSION_JSON) });
  const response = await fetch(new URL("/api/session", ui.url), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body,
  });
  assert.equal(response.status, 413);
  assert.match((await response.json()).error.message, /larger than 4096 bytes/);
  // The bridge's first message: a hello over the cap closes the socket unauthorized.
  const socket = new WebSocket(new URL("/api/stream", ui.url.href.replace(/^http/, "ws")));
  const closed = new Promise<number>((resolve) => socket.onclose = (e) => resolve(e.code));
  socket.onopen = () =>
    socket.send(JSON.stringify({ type: "hello", session: "y".repeat(MAX_SESSION_JSON) }));
  assert.equal(await closed, 4401);
});

Deno.test("hostile: a chunked brotli bomb is stopped in the CLI and -o leaves nothing; gzip passes", async () => {
  await using server = hostile();
  const dir = await Deno.makeTempDir();
  const bomb = await dial(["GET", `${server.origin}/chunked-br`, "-o", `${dir}/out`]);
  assert.equal(bomb.code, 1, bomb.stderr);
  assert.match(bomb.stderr, /expands more than 2000 times: \d+ compressed bytes/);
  assert.deepEqual(await Array.fromAsync(Deno.readDir(dir)), []);
  // gzip's own ceiling (about 1,032 times) stays within the bound: 64 MiB arrive whole.
  const gzip = await dial(["GET", `${server.origin}/chunked-gzip`, "-o", `${dir}/zeros`]);
  assert.equal(gzip.code, 0, gzip.stderr);
  assert.equal((await Deno.stat(`${dir}/zeros`)).size, 64 * 1024 * 1024);
  await Deno.remove(dir, { recursive: true });
});
