/**
 * A hostile token endpoint cannot grow dial's memory or hang it: responses over 1 MiB are
 * refused (here one streamed without end), and a silent endpoint hits the time limit.
 */
import assert from "node:assert/strict";
import { dial, serve } from "../_helpers.ts";
import { boundedTokenFetch, MAX_TOKEN_RESPONSE } from "../../src/auth/oauth2/token_fetch.ts";
import { ErrorCode } from "../../src/errors/mod.ts";

/** An endless JSON string: the stream stops only when dial cancels it. */
function endless(): ReadableStream<Uint8Array> {
  const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
  return new ReadableStream({
    start: (c) => c.enqueue(new TextEncoder().encode('{"access_token":"')),
    pull: (c) => c.enqueue(chunk),
  }, { highWaterMark: 0 });
}

Deno.test("hostile auth: a token response without end is cut at 1 MiB (dial auth token)", async () => {
  let streamed = 0;
  await using server = serve(() => {
    const body = endless();
    const counted = body.pipeThrough(
      new TransformStream({
        transform(chunk, c) {
          streamed += chunk.length;
          c.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, { headers: { "content-type": "application/json" } });
  });
  const result = await dial([
    "auth",
    "token",
    "--oauth2",
    `client_credentials:${server.origin}/endless:app:secret`,
  ]);
  assert.equal(result.code, 9, result.stderr);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /OAuth 2\.0 response from 127\.0\.0\.1:\d+ is larger than 1 MiB/);
  // What the server managed to send before dial stopped reading: the cap plus what the pipes
  // between them held, far from the gigabytes it would send.
  assert.ok(streamed < 16 * MAX_TOKEN_RESPONSE, `streamed ${streamed}`);
});

Deno.test("hostile auth: the token fetch gives up on a silent endpoint with a timeout error", async () => {
  const { promise: never, resolve } = Promise.withResolvers<Response>();
  await using server = serve(() => never);
  const fetchFn = boundedTokenFetch(fetch, 100);
  const error = await fetchFn(`${server.origin}/token`, { method: "POST" }).then(
    () => undefined,
    (e) => e,
  );
  resolve(new Response("late"));
  assert.equal(error?.code, ErrorCode.Timeout, String(error));
  assert.match(error.message, /^Timed out waiting for 127\.0\.0\.1:\d+/);
});

Deno.test("hostile: an introspection answer without end is cut at 64 MiB (dial graphql --schema)", async () => {
  await using server = serve(async (request) => {
    await request.text();
    const chunk = new TextEncoder().encode(" ".repeat(1024 * 1024));
    return new Response(
      new ReadableStream({
        start: (c) => c.enqueue(new TextEncoder().encode('{"data":{"__schema":')),
        pull: (c) => c.enqueue(chunk),
      }, { highWaterMark: 0 }),
      { headers: { "content-type": "application/json" } },
    );
  });
  const result = await dial(["graphql", `${server.origin}/graphql`, "--schema"]);
  assert.equal(result.code, 1, result.stderr);
  assert.match(
    result.stderr,
    /Introspection failed at 127\.0\.0\.1:\d+: the response is larger than 64 MiB/,
  );
});
