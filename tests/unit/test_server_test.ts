/**
 * The test servers themselves: what a test reads from them must be what was sent, and starting
 * one must print nothing into the test output.
 */
import assert from "node:assert/strict";
import { serve } from "../_helpers.ts";

const HELPERS = new URL("../_helpers.ts", import.meta.url).href;

Deno.test("serve(): recording requests prints no Deno.serve notice (the handler's signal untouched)", async () => {
  // Deno prints its "legacy abort" notice once per process, so a fresh one runs the server.
  const script = `
    import { serve } from ${JSON.stringify(HELPERS)};
    await using server = serve(async (request) => new Response(await request.text()));
    for (const body of [undefined, "payload"]) {
      const method = body === undefined ? "GET" : "POST";
      const response = await fetch(server.origin, { method, body });
      if (await response.text() !== (body ?? "")) throw new Error("wrong echo");
    }
    if (await server.requests[1].text() !== "payload") throw new Error("wrong record");
  `;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-check", script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, stderr);
  assert.equal(stderr, "");
});

Deno.test("serve(): records method, URL, headers and body; the handler reads the same body", async () => {
  const seen: string[] = [];
  await using server = serve(async (request) => {
    seen.push(await request.text());
    return new Response("ok");
  });
  const response = await fetch(`${server.origin}/p?q=1`, {
    method: "PUT",
    headers: { "x-note": "n", cookie: "a=1" },
    body: "the body",
  });
  await response.body?.cancel();
  const [recorded] = server.requests;
  assert.equal(recorded?.method, "PUT");
  assert.equal(recorded.url, `${server.origin}/p?q=1`);
  assert.equal(recorded.headers.get("x-note"), "n");
  assert.equal(recorded.headers.get("cookie"), "a=1");
  assert.equal(await recorded.text(), "the body");
  assert.deepEqual(seen, ["the body"]);
});

Deno.test("serve(): a handler's request.signal still aborts when the client goes away", async () => {
  let reached = Promise.withResolvers<void>();
  let aborted = Promise.withResolvers<void>();
  await using server = serve(async (request) => {
    const mine = aborted;
    request.signal.addEventListener("abort", () => mine.resolve());
    reached.resolve();
    await mine.promise;
    return new Response(null, { status: 204 });
  });
  for (const body of [undefined, "posted"]) {
    reached = Promise.withResolvers<void>();
    aborted = Promise.withResolvers<void>();
    const client = new AbortController();
    const method = body === undefined ? "GET" : "POST";
    const sent = fetch(server.origin, { method, body, signal: client.signal });
    await reached.promise;
    client.abort();
    await sent.catch(() => {});
    await aborted.promise;
  }
});
