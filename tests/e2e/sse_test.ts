/**
 * `dial sse` end to end: main.ts against event-stream servers on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { dial, serve } from "../_helpers.ts";
import { dialIntoHead, spawnDial } from "./_spawn.ts";

const encoder = new TextEncoder();

function eventStream(text: string, status = 200): Response {
  return new Response(encoder.encode(text), {
    status,
    headers: { "content-type": "text/event-stream; charset=utf-8" },
  });
}

/** The short reconnection delay the retry tests ask for. */
const QUICK_RETRY = ["--reconnect-delay", "0.02"];

Deno.test("sse: prints each event's data on its own line", async () => {
  await using server = serve(() =>
    eventStream(": hello\n\ndata: one\n\nevent: update\nid: 7\ndata: two\ndata: lines\n\n")
  );
  const result = await dial(["sse", server.origin + "/events", "--no-reconnect"]);
  assert.equal(result.stderr, "");
  assert.equal(result.code, 0);
  assert.equal(result.stdout, "one\ntwo\nlines\n");
  assert.equal(server.requests[0]?.headers.get("accept"), "text/event-stream");
});

Deno.test("sse: --events shows event name, id and data; --jsonl one JSON per line", async () => {
  await using server = serve(() => eventStream("event: update\nid: 7\ndata: a\ndata: b\n\n"));
  const events = await dial(["sse", server.origin, "--events", "--no-reconnect"]);
  assert.equal(events.code, 0, events.stderr);
  assert.equal(events.stdout, "event: update\nid: 7\ndata: a\ndata: b\n\n");
  const json = await dial(["sse", server.origin, "--jsonl", "--no-reconnect"]);
  const line = JSON.parse(json.stdout.trim());
  assert.deepEqual({ ...line, time: typeof line.time }, {
    event: "update",
    id: "7",
    data: "a\nb",
    time: "string",
  });
});

Deno.test("sse: --event filters by type and --max-events stops after N", async () => {
  await using server = serve(() =>
    eventStream(
      "event: ping\ndata: p1\n\nevent: update\ndata: u1\n\ndata: m1\n\nevent: update\ndata: u2\n\nevent: update\ndata: u3\n\n",
    )
  );
  const result = await dial(["sse", server.origin, "--event", "update", "--max-events", "2"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "u1\nu2\n");
});

Deno.test("sse: reconnects after retry: with Last-Event-ID and the credentials again", async () => {
  const seen: Array<{ lastEventId: string | null; authorization: string | null }> = [];
  await using server = serve((request) => {
    seen.push({
      lastEventId: request.headers.get("last-event-id"),
      authorization: request.headers.get("authorization"),
    });
    if (request.headers.get("authorization") !== "Bearer t0k") {
      return new Response("unauthorized", { status: 401 });
    }
    if (seen.length === 1) {
      return eventStream("retry: 50\nid: 1\ndata: first\n\nid: 2\ndata: second\n\n");
    }
    return eventStream("id: 3\ndata: third\n\n");
  });
  const result = await dial(["sse", server.origin, "-B", "t0k", "--max-events", "3"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "first\nsecond\nthird\n");
  assert.deepEqual(seen, [
    { lastEventId: null, authorization: "Bearer t0k" },
    { lastEventId: "2", authorization: "Bearer t0k" },
  ]);
});

Deno.test("sse: a stream cut mid-event reconnects and the partial event is dropped", async () => {
  let connections = 0;
  await using server = serve((request) => {
    connections++;
    if (connections === 1) {
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(encoder.encode("retry: 50\nid: a1\ndata: whole\n\ndata: half"));
          await new Promise((resolve) => setTimeout(resolve, 100));
          controller.error(new Error("server went away (expected in this test)"));
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    }
    return eventStream(`data: resumed after ${request.headers.get("last-event-id")}\n\n`);
  });
  const result = await dial(["sse", server.origin, "--max-events", "2", "-K", "key=v"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "whole\nresumed after a1\n");
  assert.equal(new URL(server.requests[1]!.url).searchParams.get("key"), "v");
});

Deno.test("sse: --last-event-id is sent on the first connection", async () => {
  await using server = serve((request) =>
    eventStream(`data: from ${request.headers.get("last-event-id")}\n\n`)
  );
  const result = await dial(["sse", server.origin, "--last-event-id", "41", "--no-reconnect"]);
  assert.equal(result.stdout, "from 41\n");
});

Deno.test("sse: POST with --json sends the body on every connection", async () => {
  const bodies: string[] = [];
  await using server = serve(async (request) => {
    bodies.push(`${request.method} ${request.headers.get("content-type")} ${await request.text()}`);
    return eventStream(`retry: 50\ndata: n${bodies.length}\n\n`);
  });
  const result = await dial([
    "sse",
    "POST",
    server.origin,
    "--json",
    '{"stream":true}',
    "--max-events",
    "2",
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "n1\nn2\n");
  assert.deepEqual(bodies, [
    'POST application/json {"stream":true}',
    'POST application/json {"stream":true}',
  ]);
  assert.equal(server.requests[0]?.headers.get("accept"), "text/event-stream");
});

Deno.test("sse: a non-2xx status is retried with backoff, then an error", async () => {
  await using server = serve(() => new Response("down", { status: 503 }));
  const result = await dial(["sse", server.origin, "--max-retries", "2", ...QUICK_RETRY]);
  assert.equal(result.code, 5);
  assert.equal(server.requests.length, 3);
  assert.match(result.stderr, /error: Server-sent events refused by 127\.0\.0\.1:\d+: HTTP 503/);
});

Deno.test("sse: a response that is not an event stream is an error", async () => {
  await using server = serve(() => Response.json({ hello: "world" }));
  const result = await dial(["sse", server.origin, "--max-retries", "0"]);
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /error: Expected Content-Type "text\/event-stream" from 127\.0\.0\.1:\d+, got "application\/json"/,
  );
});

Deno.test("sse: --no-reconnect stops when the stream ends", async () => {
  await using server = serve(() => eventStream("data: once\n\n"));
  const result = await dial(["sse", server.origin, "--no-reconnect"]);
  assert.equal(result.code, 0);
  assert.equal(server.requests.length, 1);
});

Deno.test("sse: a body with GET is a usage error", async () => {
  const result = await dial(["sse", "GET", "http://127.0.0.1:9/", "-d", "x"]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /error: A request body cannot be sent with GET/);
});

Deno.test("sse: Ctrl-C ends the stream and exits 130", async () => {
  const cancelled = Promise.withResolvers<void>();
  const started = Promise.withResolvers<void>();
  await using server = serve(() => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode("data: first\n\n"));
        started.resolve();
      },
      cancel() {
        cancelled.resolve();
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  });
  const child = spawnDial(["sse", server.origin]);
  await child.stdin.close();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const first = await reader.read();
  assert.equal(first.value, "first\n");
  await started.promise;
  child.kill("SIGINT");
  await reader.cancel();
  const status = await child.status;
  await child.stderr.cancel();
  assert.equal(status.code, 130);
  await cancelled.promise;
});

Deno.test("sse: -v shows heads with secrets redacted and the reconnection", async () => {
  let n = 0;
  await using server = serve(() => {
    n++;
    return eventStream(n === 1 ? "retry: 20\nid: 5\ndata: a\n\n" : "data: b\n\n");
  });
  const result = await dial(["sse", server.origin, "-B", "s3cret", "-v", "--max-events", "2"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "a\nb\n");
  assert.match(result.stderr, /^GET \/ HTTP\/1\.1$/m);
  assert.match(result.stderr, /^authorization: \(redacted\)$/mi);
  assert.match(result.stderr, /^last-event-id: 5$/mi);
  assert.match(result.stderr, /^\* server set the reconnection time to 20 ms$/m);
  assert.match(result.stderr, /^\* reconnecting in 250 ms \(attempt 2, Last-Event-ID: 5\)$/m);
  assert.doesNotMatch(result.stderr, /s3cret/);
});

Deno.test("sse: a retried failure is a warning on stderr", async () => {
  let n = 0;
  await using server = serve(() => {
    n++;
    return n === 1 ? new Response("", { status: 502 }) : eventStream("data: up\n\n");
  });
  const result = await dial(["sse", server.origin, ...QUICK_RETRY, "--max-events", "1"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "up\n");
  assert.match(
    result.stderr,
    /^warning: Server-sent events refused by 127\.0\.0\.1:\d+: HTTP 502 Bad Gateway: retrying in 250 ms \(1 of 3\)$/m,
  );
});

Deno.test("sse: a body from stdin (-d @-) is read once and sent on every connection", async () => {
  const bodies: string[] = [];
  await using server = serve(async (request) => {
    bodies.push(await request.text());
    return eventStream(`retry: 20\ndata: n${bodies.length}\n\n`);
  });
  const result = await dial(["sse", "POST", server.origin, "-d", "@-", "--max-events", "2"], {
    stdin: "q=1",
  });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(bodies, ["q=1", "q=1"]);
});

Deno.test("sse: a missing URL is a usage error", async () => {
  const result = await dial(["sse"]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /error: Missing URL\nhint: dial sse https:/);
});

Deno.test("sse: bare --json prints JSON lines, --json with a value is the body", async () => {
  const bodies: string[] = [];
  await using server = serve(async (request) => {
    bodies.push(await request.text());
    return eventStream("id: 1\ndata: x\n\n");
  });
  const output = await dial(["sse", server.origin, "--json", "--no-reconnect"]);
  assert.equal(output.code, 0, output.stderr);
  assert.equal(JSON.parse(output.stdout).data, "x");
  assert.deepEqual(bodies, [""]);
  const body = await dial(["sse", "POST", server.origin, "--json", '{"a":1}', "--no-reconnect"]);
  assert.equal(body.code, 0, body.stderr);
  assert.equal(body.stdout, "x\n");
  assert.deepEqual(bodies, ["", '{"a":1}']);
});

Deno.test("sse: --events with --json output is a usage error", async () => {
  const result = await dial(["sse", "http://127.0.0.1:9/", "--events", "--json"]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /error: Conflicting flags --events and --json: give one/);
});

Deno.test("sse: 401, 403, 404, 405 and 410 end at once with the status's exit code", async () => {
  for (const status of [401, 403, 404, 405, 410]) {
    await using server = serve(() => new Response("no", { status }));
    const result = await dial(["sse", server.origin, ...QUICK_RETRY]);
    assert.equal(result.code, 4, result.stderr);
    assert.equal(server.requests.length, 1);
    assert.match(
      result.stderr,
      new RegExp(`error: Server-sent events refused by .*: HTTP ${status}`),
    );
    assert.doesNotMatch(result.stderr, /retrying/);
  }
});

Deno.test("sse: 408 and 429 are retried, waiting at least Retry-After", async () => {
  for (const status of [408, 429]) {
    let n = 0;
    await using server = serve(() =>
      ++n === 1
        ? new Response("slow down", { status, headers: { "retry-after": "1" } })
        : eventStream("data: up\n\n")
    );
    const result = await dial(["sse", server.origin, ...QUICK_RETRY, "--max-events", "1"]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "up\n");
    assert.match(result.stderr, new RegExp(`HTTP ${status} .*: retrying in 1000 ms \\(1 of 3\\)`));
  }
});

Deno.test("sse: a reader that stops early (| head -2) ends dial quietly with exit 0", async () => {
  await using server = serve(() => {
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(encoder.encode(`data: ${i++}\n\n`)),
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  });
  const result = await dialIntoHead("head -2", ["sse", server.origin]);
  assert.equal(result.stdout, "0\n1\n");
  assert.equal(result.stderr, "");
  assert.equal(result.code, 0);
});
