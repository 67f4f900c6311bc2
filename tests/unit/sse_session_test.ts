/**
 * SseSession with an in-memory fetch: reconnection policy, Last-Event-ID, backoff, stop.
 */
import assert from "node:assert/strict";
import { type DialError, ErrorCode } from "../../src/errors/mod.ts";
import type { RequestSpec } from "../../src/http/request_spec.ts";
import { Secret } from "../../src/secret.ts";
import { SseSession, type SseSessionEvent } from "../../src/stream/sse_session.ts";

const SPEC: RequestSpec = {
  method: "GET",
  url: new URL("http://sse.example.test/events"),
  headers: [],
  auth: { authorization: { kind: "bearer", token: new Secret("t0k") }, queryKeys: [] },
};

function stream(text: string, init: ResponseInit = {}): Response {
  return new Response(text, {
    status: 200,
    headers: { "content-type": "text/event-stream" },
    ...init,
  });
}

/** A fetch that answers the n-th request with `answers[n]` and records the requests. */
function scriptedFetch(answers: Array<(request: Request) => Response>) {
  const requests: Request[] = [];
  const fetchFn: typeof fetch = (input, init) => {
    const request = new Request(input, init);
    requests.push(request);
    const answer = answers[requests.length - 1];
    if (!answer) return Promise.reject(new TypeError("no more answers in this test"));
    return Promise.resolve(answer(request));
  };
  return { fetch: fetchFn, requests };
}

function record(session: SseSession): SseSessionEvent[] {
  const events: SseSessionEvent[] = [];
  session.events.subscribe((e) => events.push(e));
  return events;
}

Deno.test("sse session: reconnects after the server's retry with Last-Event-ID", async () => {
  const { fetch, requests } = scriptedFetch([
    () => stream("retry: 5\nid: 1\ndata: a\n\nid: 2\ndata: b\n\n"),
    () => stream("data: c\n\n"),
  ]);
  const session = new SseSession(SPEC, { fetch, maxRetries: 0 });
  const events = record(session);
  session.events.subscribe((e) => {
    if (e.type === "event" && e.data === "c") session.close("enough");
  });
  await session.run();
  assert.deepEqual(
    events.filter((e) => e.type === "event").map((e) => [e.data, e.id, e.lastEventId]),
    [["a", "1", "1"], ["b", "2", "2"], ["c", undefined, "2"]],
  );
  assert.equal(requests[0]!.headers.get("last-event-id"), null);
  assert.equal(requests[1]!.headers.get("last-event-id"), "2");
  assert.equal(requests[1]!.headers.get("authorization"), "Bearer t0k");
  assert.equal(requests[0]!.headers.get("accept"), "text/event-stream");
  const reconnecting = events.find((e) => e.type === "reconnecting");
  // retry: 5 is below the 250 ms floor.
  assert.deepEqual(reconnecting && [reconnecting.delayMs, reconnecting.attempt], [250, 2]);
  assert.equal(session.retryMs, 5);
  assert.equal(session.attempt, 2);
  assert.equal(session.state, "closed");
  const last = events.at(-1);
  assert.equal(last?.type === "closed" && last.reason, "enough");
});

Deno.test("sse session: failures back off exponentially and give up after maxRetries", async () => {
  const down = () => new Response("busy", { status: 503, statusText: "Service Unavailable" });
  const { fetch, requests } = scriptedFetch([down, down, down]);
  const session = new SseSession(SPEC, { fetch, retryMs: 200, maxRetries: 2 });
  const events = record(session);
  await assert.rejects(session.run(), (error: DialError) => {
    assert.equal(error.code, ErrorCode.HttpStatus);
    assert.equal(error.exitCode, 5);
    assert.equal(
      error.message,
      "Server-sent events refused by sse.example.test: HTTP 503 Service Unavailable",
    );
    return true;
  });
  assert.equal(requests.length, 3);
  assert.deepEqual(
    events.filter((e) => e.type === "reconnecting").map((e) => [e.delayMs, e.failures]),
    [[250, 1], [400, 2]],
  );
  assert.deepEqual(
    events.filter((e) => e.type === "error").map((e) => e.willRetry),
    [true, true, false],
  );
});

Deno.test("sse session: a successful connection resets the failure count", async () => {
  const down = () => new Response("", { status: 500 });
  const { fetch, requests } = scriptedFetch([
    down,
    () => stream("retry: 1\ndata: ok\n\n"),
    down,
    () => stream("data: again\n\n"),
  ]);
  const session = new SseSession(SPEC, { fetch, retryMs: 1, maxRetries: 1 });
  session.events.subscribe((e) => e.type === "event" && e.data === "again" && session.close());
  await session.run();
  assert.equal(requests.length, 4);
});

Deno.test("sse session: a wrong content type is an error", async () => {
  const { fetch } = scriptedFetch([
    () => new Response("<html>", { headers: { "content-type": "text/html" } }),
  ]);
  const session = new SseSession(SPEC, { fetch, maxRetries: 0 });
  await assert.rejects(
    session.run(),
    /Expected Content-Type "text\/event-stream" from sse\.example\.test, got "text\/html"/,
  );
});

Deno.test("sse session: 204 No Content stops without an error", async () => {
  const { fetch, requests } = scriptedFetch([() => new Response(null, { status: 204 })]);
  const session = new SseSession(SPEC, { fetch });
  const events = record(session);
  await session.run();
  assert.equal(requests.length, 1);
  const last = events.at(-1);
  assert.equal(
    last?.type === "closed" && last.reason,
    "the server answered 204 No Content: no more events",
  );
});

Deno.test("sse session: without reconnection the session ends with the stream", async () => {
  const { fetch, requests } = scriptedFetch([() => stream("data: only\n\n")]);
  const session = new SseSession(SPEC, { fetch, reconnect: false });
  await session.run();
  assert.equal(requests.length, 1);
});

Deno.test("sse session: a transport failure is retried, then reported as exit 7", async () => {
  const { fetch, requests } = scriptedFetch([]);
  const session = new SseSession(SPEC, { fetch, retryMs: 1, maxRetries: 1 });
  await assert.rejects(session.run(), (error: DialError) => {
    assert.equal(error.code, ErrorCode.Transport);
    assert.equal(error.exitCode, 7);
    assert.match(error.message, /^Cannot reach sse\.example\.test:80: /);
    return true;
  });
  assert.equal(requests.length, 2);
});

Deno.test("sse session: close() during the wait ends the session at once", async () => {
  const { fetch, requests } = scriptedFetch([() => stream("retry: 60000\ndata: x\n\n")]);
  const session = new SseSession(SPEC, { fetch });
  session.events.subscribe((e) => e.type === "reconnecting" && session.close());
  await session.run();
  assert.equal(requests.length, 1);
  assert.equal(session.state, "closed");
});

Deno.test("sse session: --last-event-id is sent on the first request", async () => {
  const { fetch, requests } = scriptedFetch([() => stream("data: x\n\n")]);
  await new SseSession(SPEC, { fetch, reconnect: false, lastEventId: "41" }).run();
  assert.equal(requests[0]!.headers.get("last-event-id"), "41");
});
