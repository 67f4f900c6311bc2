/**
 * `dial grpc … --save FILE.http` and `dial export` of `GRPC` requests, round-tripped against the
 * grpc-js greeter without reflection: what is saved, `dial run` of it, and its export, make
 * the same calls.
 * @module
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { includes } from "../assert.ts";
import { copyGreeterProtos, startGreeter } from "./_grpc.ts";

const GREETER = "greet.v1.Greeter";

/** A folder with the greeter's `.proto` files apart (`api/` and `shared/`) and a message file. */
async function workspace(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "dial-grpc-save-" });
  await copyGreeterProtos(dir, "api", "shared");
  await Deno.writeTextFile(`${dir}/ann.json`, '{"name": "ann", "mood": "GRUMPY"}\n');
  return dir;
}

Deno.test("grpc: --save appends the call as a GRPC request (metadata, the token in the private env file, --proto as proto < lines, -m as @timeout, -d @file as an include); dial run of it makes the same calls", async () => {
  await using server = await startGreeter("--no-reflection");
  const dir = await workspace();
  try {
    const file = `${dir}/saved.http`;
    const protos = ["--proto", `${dir}/api/greeter.proto`, "--import-path", `${dir}/shared`];
    const base = ["grpc", "--plaintext", ...protos, server.address];
    // The dot form of the method is saved by its full name.
    const echo = await dial([
      ...[...base, `${GREETER}.EchoMetadata`, "-d", '{"name":"x"}'],
      ...["-H", "x-tenant: blue", "-B", "s3cret", "-m", "5", "--save", file, "--name", "echo"],
    ]);
    assert.equal(echo.code, 0, echo.stderr);
    includes(echo.stderr, `Saved the request to ${file}; {{echo_token}} in`);
    const hello = await dial([
      ...base,
      `${GREETER}/SayHello`,
      "-d",
      `@${dir}/ann.json`,
      "--save",
      file,
    ]);
    assert.equal(hello.code, 0, hello.stderr);
    const saved = await Deno.readTextFile(file);
    assert.equal(
      saved,
      `### echo
# @name echo
# @timeout 5000 ms
proto < ./api/greeter.proto
includeDirs: ["./shared"]
GRPC ${server.address}/${GREETER}/EchoMetadata
Authorization: Bearer {{echo_token}}
x-tenant: blue

{"name":"x"}

###
proto < ./api/greeter.proto
includeDirs: ["./shared"]
GRPC ${server.address}/${GREETER}/SayHello

< ./ann.json
`,
    );
    const env = JSON.parse(await Deno.readTextFile(`${dir}/http-client.private.env.json`));
    assert.deepEqual(env, { $shared: { echo_token: "s3cret" } });
    assert.equal((await Deno.stat(`${dir}/http-client.private.env.json`)).mode! & 0o777, 0o600);
    // The server saw the same metadata both times; the replies are the same.
    includes(echo.stdout, "authorization=Bearer s3cret");
    includes(echo.stdout, "x-tenant=blue");
    const run = await dial(["run", file]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, echo.stdout + hello.stdout);
    assert.equal(JSON.parse(hello.stdout).mood, "GRUMPY");
    // dial export --to http writes the same requests; run, they make the same calls again.
    const exported = await dial(["export", file, "--to", "http", "--out", `${dir}/exported.http`]);
    assert.equal(exported.code, 0, exported.stderr);
    const again = await dial(["run", `${dir}/exported.http`]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, run.stdout);
    // No other format has a form for a gRPC call: left out, said so.
    const curl = await dial(["export", file, "--to", "curl"]);
    assert.equal(curl.code, 2);
    includes(curl.stderr, 'Not carried: the GRPC request "echo": a gRPC call has no curl form');
    includes(curl.stderr, "Nothing to export --to curl: every request is a GRPC request");
    assert.equal(curl.stdout, "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("grpc: --save writes nothing for an unknown method or messages from stdin; --name needs --save, list takes no --save", async () => {
  await using server = await startGreeter("--no-reflection");
  const dir = await workspace();
  try {
    const file = `${dir}/saved.http`;
    const base = ["grpc", "--plaintext", "--proto", `${dir}/api/greeter.proto`];
    const withImports = [...base, "--import-path", `${dir}/shared`, server.address];
    const typo = await dial([...withImports, `${GREETER}/SayHelo`, "--save", file]);
    assert.equal(typo.code, 2);
    includes(typo.stderr, `Unknown method "${GREETER}/SayHelo"`);
    const stdin = await dial([
      ...withImports,
      `${GREETER}/CollectHellos`,
      "-d",
      "@-",
      "--save",
      file,
    ], {
      stdin: '{"name":"a"}\n',
    });
    assert.equal(stdin.code, 2);
    includes(stdin.stderr, "Cannot save a call whose messages are read from stdin (-d @-)");
    const name = await dial([...withImports, `${GREETER}/SayHello`, "--name", "x"]);
    assert.equal(name.code, 2);
    includes(name.stderr, "--name needs --save FILE.http");
    const list = await dial([...withImports, "list", "--save", file]);
    assert.equal(list.code, 2);
    includes(list.stderr, "--save does not apply to list");
    await assert.rejects(Deno.stat(file), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
