import assert from "node:assert/strict";
import { retryAfterMs } from "../../src/stream/status_error.ts";
import { StatusError } from "../../src/errors/mod.ts";

Deno.test("stream: Retry-After is read as seconds or an HTTP-date", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  assert.equal(retryAfterMs("120", now), 120_000);
  assert.equal(retryAfterMs("Thu, 01 Jan 2026 00:00:05 GMT", now), 5_000);
  assert.equal(retryAfterMs("Wed, 31 Dec 2025 00:00:00 GMT", now), 0);
  assert.equal(retryAfterMs("soon", now), undefined);
  assert.equal(retryAfterMs(null, now), undefined);
});

Deno.test("stream: only 408, 429 and 5xx refusals are worth retrying", () => {
  const retryable = (status: number) => new StatusError("x", status).retryable;
  assert.deepEqual([401, 403, 404, 405, 410, 400, 302].map(retryable), Array(7).fill(false));
  assert.deepEqual([408, 429, 500, 502, 503].map(retryable), Array(5).fill(true));
});
