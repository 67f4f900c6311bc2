import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { runProgram } from "../_process.ts";
import { type RawAnswer, rawServer } from "./_raw_server.ts";
import { unusedPort } from "../_ports.ts";

function curl(args: string[], stdin?: string) {
  return runProgram("curl", ["-q", "-s", ...args], stdin === undefined ? {} : { stdin });
}

/** A server that fails twice with the given answer, then answers 200; per run (by count). */
function failingTwice(failure: RawAnswer) {
  let seen = 0;
  return rawServer(() => {
    seen++;
    return seen % 3 === 0 ? { body: "finally" } : failure;
  });
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

Deno.test("retry: a server failing twice with 503 gets a third try, as with curl", async () => {
  await using server = failingTwice({ status: "503 Service Unavailable", body: "busy" });
  const args = ["--retry", "3", "--retry-delay", "1", `${server.origin}/x`];
  const fromCurl = await curl(args);
  // curl writes every attempt's body to stdout; dial prints only the answer it settled on.
  assert.equal(fromCurl.stdout, "busybusyfinally");
  const fromDial = await dial(args);
  assert.equal(fromDial.code, 0, fromDial.stderr);
  assert.equal(fromDial.stdout, "finally");
  assert.equal(server.requests.length, 6);
  assert.match(fromDial.stderr, /Retrying in 1 s after HTTP 503 \(attempt 2 of 4\)/);
  assert.match(fromDial.stderr, /Retrying in 1 s after HTTP 503 \(attempt 3 of 4\)/);
});

Deno.test("retry: Retry-After is honoured; out of retries, the last response is printed", async () => {
  await using server = rawServer(() => ({
    status: "429 Too Many Requests",
    headers: [["Retry-After", "0"]],
    body: "slow down",
  }));
  const result = await dial(["--retry", "2", "-f", `${server.origin}/`]);
  assert.equal(result.code, 4, result.stderr);
  assert.equal(result.stdout, "slow down");
  assert.equal(server.requests.length, 3);
  assert.match(result.stderr, /Retrying in 0 s after HTTP 429 \(attempt 2 of 3\)/);
  const far = rawServer(() => ({
    status: "503 Service Unavailable",
    headers: [["Retry-After", "30"]],
  }));
  const capped = await dial(["--retry", "2", "--retry-max-time", "5", `${far.origin}/`]);
  assert.match(capped.stderr, /Not retried: waiting 30 s would pass --retry-max-time/);
  assert.equal(far.requests.length, 1);
  await far[Symbol.asyncDispose]();
});

Deno.test("retry: a POST is retried only with --retry-all-errors (curl retries it always)", async () => {
  await using server = failingTwice({ status: "502 Bad Gateway" });
  const once = await dial(["--retry", "3", "--retry-delay", "0.01", "-d", "x=1", server.origin]);
  assert.equal(server.requests.length, 1);
  assert.match(
    once.stderr,
    /Not retried: POST is not idempotent \(--retry-all-errors retries it\)/,
  );
  const all = await dial([
    "--retry",
    "3",
    "--retry-delay",
    "0.01",
    "--retry-all-errors",
    "-d",
    "x=1",
    server.origin,
  ]);
  assert.equal(all.stdout, "finally");
  assert.deepEqual(server.requests.slice(1).map((r) => text(r.body)), ["x=1", "x=1"]);
});

Deno.test("retry: a stdin body is sent again from the kept copy", async () => {
  await using server = failingTwice({ status: "500 Internal Server Error" });
  const payload = "line one\nline two\n".repeat(1000);
  const args = ["-X", "PUT", "--retry", "2", "--retry-delay", "1", "-d", "@-", server.origin];
  // curl reads -d @- whole first (and drops the line breaks): its bodies are the oracle's count.
  await curl(args, payload);
  const result = await dial(args, { stdin: payload });
  assert.equal(result.code, 0, result.stderr);
  const bodies = server.requests.slice(3).map((r) => text(r.body));
  assert.deepEqual(bodies, [payload, payload, payload]);
  assert.equal(server.requests.slice(0, 3).length, 3);
});

Deno.test("retry: a refused connection is retried only with --retry-all-errors, as in curl", async () => {
  const url = `http://127.0.0.1:${unusedPort()}/`;
  const plain = await dial(["--retry", "2", "--retry-delay", "0.01", url]);
  assert.equal(plain.code, 7);
  assert.doesNotMatch(plain.stderr, /Retrying/);
  const all = await dial(["--retry", "2", "--retry-delay", "0.01", "--retry-all-errors", url]);
  assert.equal(all.code, 7);
  assert.equal(all.stderr.match(/Retrying in 0\.01 s after Cannot reach/g)?.length, 2);
  const fromCurl = await curl(["--retry", "2", "--retry-delay", "1", "--retry-all-errors", url]);
  assert.equal(fromCurl.code, 7);
});
