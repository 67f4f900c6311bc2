/**
 * `GRPC` requests in request files (the JetBrains form) under `dial test` and `dial run`,
 * against the grpc-js greeter, and side by side with httpyac on the same files and server.
 * @module
 */
import assert from "node:assert/strict";
import { dial, dialEnv } from "../_helpers.ts";
import { includes } from "../assert.ts";
import { startGreeter } from "./_grpc.ts";
import { makeCertificates } from "./_tls.ts";

const FIXTURES = new URL("./fixtures/grpc/", import.meta.url).pathname;

type Case = { request: string; name: string; outcome: string; message?: string };

async function dialTest(args: string[]): Promise<{ code: number; cases: Case[]; stderr: string }> {
  const result = await dial(["test", ...args, "--reporter", "json"]);
  const report = JSON.parse(result.stdout) as { cases: Case[] };
  return { code: result.code, cases: report.cases, stderr: result.stderr };
}

Deno.test("files: GRPC requests under dial test: the message under the request line or after a blank line, metadata lines, replies in the proto3 JSON form, streams as lists", async () => {
  await using server = await startGreeter();
  const vars = ["--var", `addr=${server.address}`, "--var", "token=s3cret"];
  const { code, cases, stderr } = await dialTest([FIXTURES, ...vars]);
  assert.equal(code, 11, stderr);
  assert.deepEqual(cases.map((c) => [c.request, c.name, c.outcome]), [
    ["hello", "the reply's message", "passed"],
    ["metadata", "the server saw the metadata", "passed"],
    // A status other than OK fails a request without tests, as an error status does.
    ["missing", "gRPC NOT_FOUND", "failed"],
    ["mapping", "proto3 JSON", "passed"],
    ["stream", "a list of replies", "passed"],
    ["collect", "client streaming sends each document", "passed"],
  ]);
});

Deno.test("files: dial run prints each reply as a line of JSON and warns of a status other than OK; --check-status exits 64 + its code", async () => {
  await using server = await startGreeter();
  const vars = ["--var", `addr=${server.address}`, "--var", "token=s3cret"];
  const run = await dial(["run", `${FIXTURES}greeter.http`, ...vars]);
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.trimEnd().split("\n").map((l) => JSON.parse(l).message);
  assert.equal(lines[0], "Hello ann");
  includes(lines[1], "x-tenant=blue");
  includes(run.stderr, "missing: gRPC NOT_FOUND: no such greeting");
  const checked = await dial(["run", `${FIXTURES}greeter.http`, ...vars, "--check-status"]);
  assert.equal(checked.code, 69, checked.stderr);
});

Deno.test("files: grpcs:// is TLS with the run's trust (--cacert); an unknown method is the request's error, nothing sent", async () => {
  const certs = await makeCertificates();
  await using server = await startGreeter("--tls", certs.leaf, certs.leafKey);
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${dir}/tls.http`,
    `### tls
GRPC grpcs://${server.tlsAddress}/greet.v1.Greeter/SayHello
{"name": "tls"}

> {% client.test("over TLS", () => client.assert(response.body.message === "Hello tls")); %}

### typo
GRPC grpcs://${server.tlsAddress}/greet.v1.Greeter/SayHelo
{}
`,
  );
  const { code, cases } = await dialTest([`${dir}/tls.http`, "--cacert", certs.ca]);
  // The run goes on after the bad request; it ends as a usage error does.
  assert.equal(code, 2);
  assert.deepEqual(cases[0]?.outcome, "passed");
  assert.equal(cases[1]?.outcome, "error");
  includes(cases[1]?.message ?? "", 'Unknown method "greet.v1.Greeter/SayHelo"');
  const untrusted = await dialTest([`${dir}/tls.http`]);
  assert.equal(untrusted.cases[0]?.outcome, "error");
  includes(untrusted.cases[0]?.message ?? "", server.tlsAddress);
  await Deno.remove(dir, { recursive: true });
  await Deno.remove(certs.dir, { recursive: true });
});

Deno.test("files: httpyac runs the same GRPC file against the same server: the replies and metadata agree", async () => {
  await using server = await startGreeter();
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      ...["run", "-A", "--quiet", "--no-config", "--no-lock", "npm:httpyac@6.16.7", "send"],
      ...[`${FIXTURES}greeter.http`, "--all", "-o", "none", "--json"],
      ...["--var", `addr=${server.address}`, "--var", "token=s3cret"],
    ],
    clearEnv: true,
    env: dialEnv(),
    stdout: "piped",
    stderr: "piped",
  }).output();
  const report = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    requests: { name: string; testResults?: { message: string; status: string }[] }[];
  };
  const outcomes = report.requests.flatMap((r) =>
    (r.testResults ?? []).map((t) => [r.name, t.message, t.status])
  );
  // The tests both tools run pass in both; httpyac counts the NOT_FOUND request as sent.
  assert.deepEqual(outcomes, [
    ["hello", "the reply's message", "SUCCESS"],
    ["metadata", "the server saw the metadata", "SUCCESS"],
  ]);
});
