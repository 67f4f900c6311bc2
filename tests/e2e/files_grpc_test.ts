/**
 * `GRPC` requests in request files (the JetBrains form) under `dial test` and `dial run`,
 * against the grpc-js greeter, and side by side with httpyac on the same files and server.
 * @module
 */
import assert from "node:assert/strict";
import { dial, serve } from "../_helpers.ts";
import { includes } from "../assert.ts";
import { copyGreeterProtos, startGreeter } from "./_grpc.ts";
import { httpyac, reportCases } from "./_files.ts";
import { makeCertificates } from "./_tls.ts";

const FIXTURES = new URL("./fixtures/grpc/", import.meta.url).pathname;

async function dialTest(args: string[]) {
  const result = await dial(["test", ...args, "--reporter", "json"]);
  return { code: result.code, cases: reportCases(result.stdout), stderr: result.stderr };
}

/** httpyac 6.16.7 `send --all --json` on files: each test's request, name and status. */
async function httpyacOutcomes(args: string[], cwd?: string): Promise<string[][]> {
  const output = await httpyac([...args, "--all", "-o", "none", "--json"], cwd ? { cwd } : {});
  const report = JSON.parse(output.stdout) as {
    requests: { name: string; testResults?: { message: string; status: string }[] }[];
  };
  return report.requests.flatMap((r) =>
    (r.testResults ?? []).map((t) => [r.name, t.message, t.status])
  );
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
  const outcomes = await httpyacOutcomes([
    `${FIXTURES}greeter.http`,
    ...["--var", `addr=${server.address}`, "--var", "token=s3cret"],
  ]);
  // The tests both tools run pass in both; httpyac counts the NOT_FOUND request as sent.
  assert.deepEqual(outcomes, [
    ["hello", "the reply's message", "SUCCESS"],
    ["metadata", "the server saw the metadata", "SUCCESS"],
  ]);
});

/**
 * A workspace for the `proto <` tests: `api/greeter.proto` imports `common/types.proto`, which
 * lies in `shared/`; `calls.http` names the files per request, `global.http` for the whole file.
 */
async function protoWorkspace(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "dial-proto-" });
  await copyGreeterProtos(dir, "api", "shared");
  const test = (name: string, message: string) =>
    `> {%
  client.test("${name}", () => {
    client.assert(response.body.message === "${message}", JSON.stringify(response.body));
  });
%}
`;
  await Deno.writeTextFile(
    `${dir}/calls.http`,
    `### hello
proto < ./api/greeter.proto
includeDirs: ["./shared"]

GRPC {{addr}}/greet.v1.Greeter/SayHello
{"name": "ann"}

${test("described by the request's .proto file", "Hello ann")}`,
  );
  await Deno.writeTextFile(
    `${dir}/global.http`,
    `proto < ./api/greeter.proto
includeDirs: ["./shared"]

### hello
GRPC {{addr}}/greet.v1.Greeter/SayHello
{"name": "ann"}

${test("described by the file's .proto file", "Hello ann")}
### again
GRPC {{addr}}/greet.v1.Greeter/SayHello
{"name": "bo"}

${test("the second request too", "Hello bo")}`,
  );
  return dir;
}

Deno.test("files: httpyac's proto < file with includeDirs describes GRPC requests of a server without reflection, per request or for the whole file; httpyac runs the same files alike", async () => {
  await using server = await startGreeter("--no-reflection");
  const dir = await protoWorkspace();
  try {
    const vars = ["--var", `addr=${server.address}`];
    const { code, cases, stderr } = await dialTest([dir, ...vars]);
    assert.equal(code, 0, stderr);
    const passed = cases.map((c) => [c.request, c.name, c.outcome]);
    assert.deepEqual(passed, [
      ["hello", "described by the request's .proto file", "passed"],
      ["hello", "described by the file's .proto file", "passed"],
      ["again", "the second request too", "passed"],
    ]);
    assert.deepEqual(
      await httpyacOutcomes(["calls.http", "global.http", "--var", `addr=${server.address}`], dir),
      passed.map(([request, name]) => [request, name, "SUCCESS"]),
    );
    // Without includeDirs the import is not found: the message says where folders go.
    await Deno.writeTextFile(
      `${dir}/calls.http`,
      (await Deno.readTextFile(`${dir}/calls.http`)).replace(/^includeDirs.*\n/m, ""),
    );
    const missing = await dialTest([`${dir}/calls.http`, ...vars]);
    assert.equal(missing.code, 2);
    includes(missing.cases[0]?.message ?? "", 'Cannot find "common/types.proto"');
    const run = await dial(["run", `${dir}/calls.http`, ...vars]);
    assert.equal(run.code, 2);
    includes(run.stderr, "includeDirs");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("files: proto < paths are confined to the run's folder: a .proto file, an includeDirs folder or an import through a symlink outside it is refused, nothing sent, unless --allow-path", async () => {
  await using server = await startGreeter("--no-reflection");
  await using http = serve(() => new Response("ok\n"));
  const dir = await protoWorkspace();
  try {
    await Deno.mkdir(`${dir}/ws/protos`, { recursive: true });
    await Deno.copyFile(`${dir}/api/greeter.proto`, `${dir}/ws/greeter.proto`);
    const before = `GET ${http.origin}/before\n\n###\n`;
    const call = `GRPC ${server.address}/greet.v1.Greeter/SayHello\n{"name": "ann"}\n`;
    const files = {
      "file.http": `${before}proto < ../api/greeter.proto\nincludeDirs: ["../shared"]\n${call}`,
      "dirs.http": `${before}proto < ./greeter.proto\nincludeDirs: ["../shared"]\n${call}`,
      "link.http": `${before}proto < ./greeter.proto\nincludeDirs: ["./protos"]\n${call}`,
    };
    // An import folder inside that links outside: found only while the files are read.
    await Deno.symlink(`${dir}/shared/common`, `${dir}/ws/protos/common`);
    for (const [name, text] of Object.entries(files)) {
      await Deno.writeTextFile(`${dir}/ws/${name}`, text);
    }
    for (
      const [name, refused] of [
        ["file.http", "Refused the .proto file of"],
        ["dirs.http", "Refused the includeDirs folder of"],
      ]
    ) {
      const run = await dial(["run", `${dir}/ws/${name}`]);
      assert.equal(run.code, 2, run.stderr);
      includes(run.stderr, refused!);
      includes(run.stderr, "--allow-path");
    }
    // Paths as written are checked before the first request; the file checked last, while the
    // .proto files are read, fails its request only.
    assert.equal(http.requests.length, 0);
    const link = await dialTest([`${dir}/ws/link.http`]);
    assert.equal(link.code, 2);
    includes(link.cases.at(-1)?.message ?? "", "Refused the .proto import of");
    includes(link.cases.at(-1)?.message ?? "", "common/types.proto");
    const allowed = ["--allow-path", `${dir}/api`, "--allow-path", `${dir}/shared`];
    for (const name of Object.keys(files)) {
      const run = await dial(["run", `${dir}/ws/${name}`, ...allowed]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(JSON.parse(run.stdout.trimEnd().split("\n").at(-1)!).message, "Hello ann");
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
