import assert from "node:assert/strict";
import { busyFor, spawnDial } from "./_spawn.ts";
import { dial, serve } from "../_helpers.ts";
import { project } from "./_files.ts";

function echoServer() {
  return serve(async (request) => {
    const body = request.body ? await request.text() : "";
    return Response.json({ path: new URL(request.url).pathname, body });
  });
}

Deno.test("scripts: a handler that replaces JSON.parse in one file reads nothing of the next files'", async () => {
  await using server = echoServer();
  const dir = await project({
    "http-client.env.json": JSON.stringify({ dev: { key: "victim-key-41" } }),
    // The attacker's file: JSON.parse replaced and a setter on every object's "environment",
    // each collecting every later script's input on the global object.
    "a_attacker.http": `GET {{origin}}/a

> {%
  globalThis.loot = [];
  var parse = JSON.parse;
  JSON.parse = function (text) { globalThis.loot.push(String(text)); return parse(text); };
  Object.defineProperty(Object.prototype, "environment", {
    configurable: true,
    set: function (v) { globalThis.loot.push(String(v && v.key)); },
  });
  client.test("planted", function () {});
%}
`,
    "b_victim.http": `GET {{origin}}/b
X-Key: {{key}}

> {%
  client.test("victim ran", function () {
    client.assert(request.headers.valueOf("X-Key") === "victim-key-41");
  });
%}
`,
    // The attacker's second file sends what it found.
    "c_attacker.http": `< {%
  request.variables.set("loot", String(globalThis.loot));
%}
POST {{origin}}/exfil

{{loot}}
`,
  });
  const result = await dial(["test", dir, "--env", "dev", "--var", `origin=${server.origin}`]);
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.match(result.stdout, /victim ran/);
  const exfil = server.requests.find((r) => new URL(r.url).pathname === "/exfil");
  assert.ok(exfil, "the attacker's request was sent");
  const sent = await exfil.text();
  assert.equal(sent.includes("victim-key-41"), false, sent);
  assert.equal(sent, "undefined");
});

Deno.test("scripts: an endless script is stopped by the deadline and the next file runs", async () => {
  await using server = echoServer();
  const dir = await project({
    "a.http": `GET {{origin}}/a

> {%
  while (true) {}
%}
`,
    "b.http": `GET {{origin}}/b

> {%
  client.test("b ran", function () { client.assert(response.status === 200); });
%}
`,
  });
  const result = await dial(["test", dir, "--var", `origin=${server.origin}`]);
  // A script that fails is an error of its request (exit 1, the script's code).
  assert.equal(result.code, 1, result.stdout + result.stderr);
  assert.match(result.stdout, /a\.http:3: Script timed out after 5 s/);
  assert.match(result.stdout, /✓ .*b\.http › .* › b ran/);
});

Deno.test("scripts: a memory bomb is refused with a clear error", async () => {
  await using server = echoServer();
  const dir = await project({
    "bomb.http": `GET {{origin}}/a

> {%
  var a = [];
  while (true) a.push(new Array(1e5).fill(1));
%}
`,
  });
  const result = await dial(["test", dir, "--var", `origin=${server.origin}`]);
  assert.equal(result.code, 1, result.stdout + result.stderr);
  assert.match(result.stdout, /bomb\.http:5: Script ran out of memory \(64 MiB\)/);
});

Deno.test("scripts: Ctrl-C ends dial run while a script runs: exit 130, no script error", async () => {
  const arrived = Promise.withResolvers<void>();
  await using server = serve(() => {
    arrived.resolve();
    return Response.json({ ok: true });
  });
  const dir = await project({ "loop.http": "GET {{origin}}/a\n\n> {%\n  while (true) {}\n%}\n" });
  const child = spawnDial(["run", `${dir}/loop.http`, "--var", `origin=${server.origin}`], {
    stdin: "null",
  });
  await arrived.promise;
  // The signal comes while the script loops (dial busy on the CPU), not while dial still waits
  // for the response (its own listener would end it then, and the script would never run).
  await busyFor(child, 300, 2000);
  child.kill("SIGINT");
  const { code, stderr } = await child.output();
  const text = new TextDecoder().decode(stderr);
  assert.equal(code, 130, text);
  assert.doesNotMatch(text, /timed out|error:/);
});

Deno.test("scripts: SIGTERM ends dial test while a script runs, without waiting for the deadline", async () => {
  const arrived = Promise.withResolvers<void>();
  await using server = serve((request) => {
    if (new URL(request.url).pathname === "/a") arrived.resolve();
    return Response.json({ ok: true });
  });
  const loop = (path: string) => `GET {{origin}}${path}\n\n> {%\n  while (true) {}\n%}\n`;
  const dir = await project({ "loop.http": `${loop("/a")}\n###\n${loop("/b")}` });
  const child = spawnDial(["test", dir, "--var", `origin=${server.origin}`], { stdin: "null" });
  await arrived.promise;
  await busyFor(child, 300, 2000);
  child.kill("SIGTERM");
  const { code, stdout, stderr } = await child.output();
  const output = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  assert.equal(code, 143, output);
  // Stopped by the signal, not by the 5 s deadline; the next request is never sent.
  assert.doesNotMatch(output, /timed out/);
  assert.deepEqual(server.requests.map((r) => new URL(r.url).pathname), ["/a"]);
});

Deno.test("scripts: a file that is not JavaScript is never run as a script (its values stay unread)", async () => {
  await using server = echoServer();
  const dir = await project({
    ".env": 'API_KEY="sk-live-31337"\nTOKEN=abcdef123456\n',
    "steal.http": `### handler
GET {{origin}}/b

> ./.env

### send
< {%
  request.variables.set("loot", String(globalThis.API_KEY) + String(globalThis.TOKEN));
%}
POST {{origin}}/exfil

{{loot}}
`,
  });
  const result = await dial(["test", dir, "--var", `origin=${server.origin}`]);
  const output = result.stdout + result.stderr;
  // Evaluated, `KEY="v"` lines became globals a later script could send, and a ReferenceError
  // printed a value; the file is refused before anything is read or sent.
  assert.match(
    output,
    /steal\.http:4:1: The script file "\.\/\.env" is not a JavaScript file \(\.js\)/,
  );
  assert.doesNotMatch(output, /sk-live-31337|abcdef123456/);
  assert.deepEqual(server.requests.map((r) => new URL(r.url).pathname), []);
});
