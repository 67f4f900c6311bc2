/**
 * The test servers themselves: what a test reads from them must be what was sent, and starting
 * one must print nothing into the test output.
 */
import assert from "node:assert/strict";
import { serve } from "../_helpers.ts";

const HELPERS = JSON.stringify(new URL("../_helpers.ts", import.meta.url).href);

/** Runs a script in a fresh process: Deno prints its "legacy abort" notice once per process. */
async function runScript(script: string): Promise<{ code: number; stderr: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-check", `import { serve } from ${HELPERS};\n${script}`],
    stdout: "null",
    stderr: "piped",
  }).output();
  return { code: output.code, stderr: new TextDecoder().decode(output.stderr) };
}

Deno.test("serve(): recording requests prints no Deno.serve notice (the signal is not read)", async () => {
  const { code, stderr } = await runScript(`
    await using server = serve(async (request) => new Response(await request.text()));
    for (const body of [undefined, "payload"]) {
      const method = body === undefined ? "GET" : "POST";
      const response = await fetch(server.origin, { method, body });
      if (await response.text() !== (body ?? "")) throw new Error("wrong echo");
    }
    if (await server.requests[1].text() !== "payload") throw new Error("wrong record");
  `);
  assert.equal(code, 0, stderr);
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

Deno.test("serve(): a handler's request.signal still aborts when a client with a body leaves", async () => {
  // Reading the signal prints the notice, so a fresh process does it; a request with a body
  // reaches the handler rebuilt around the body it shares with the record.
  const { code, stderr } = await runScript(`
    const never = setTimeout(() => Deno.exit(3), 20_000);
    const reached = Promise.withResolvers();
    const aborted = Promise.withResolvers();
    await using server = serve(async (request) => {
      request.signal.addEventListener("abort", () => aborted.resolve());
      reached.resolve();
      await aborted.promise;
      return new Response(null, { status: 204 });
    });
    const client = new AbortController();
    const sent = fetch(server.origin, { method: "POST", body: "posted", signal: client.signal });
    await reached.promise;
    client.abort();
    await sent.catch(() => {});
    await aborted.promise;
    clearTimeout(never);
  `);
  assert.equal(code, 0, stderr);
});
