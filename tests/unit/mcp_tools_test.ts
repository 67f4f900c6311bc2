import assert from "node:assert/strict";
import { parseHttpFile } from "../../src/files/parse_http_file.ts";
import { lines, parseLine } from "../../src/mcp/json_rpc.ts";
import { toolName, workspaceTools } from "../../src/mcp/mcp_tools.ts";
import { Redactor } from "../../src/mcp/redactor.ts";
import { Secret } from "../../src/secret.ts";

Deno.test("mcp redactor: a secret goes in every form a server echoes it in", () => {
  const redactor = new Redactor();
  redactor.add('p@ss "w/rd"');
  const bytes = new TextEncoder().encode('p@ss "w/rd"');
  for (
    const form of [
      'p@ss "w/rd"',
      encodeURIComponent('p@ss "w/rd"'),
      "p%40ss+%22w%2Frd%22",
      JSON.stringify('p@ss "w/rd"').slice(1, -1),
      bytes.toBase64(),
    ]
  ) {
    assert.equal(redactor.redact(`<${form}>`), "<(redacted)>", form);
  }
  assert.deepEqual(redactor.redactDeep({ [`k p@ss "w/rd"`]: ['x p@ss "w/rd"'] }), {
    "k (redacted)": ["x (redacted)"],
  });
  assert.ok(redactor.leaks(JSON.stringify({ a: 'p@ss "w/rd"' })));
});

Deno.test("mcp redactor: a value not read yet is skipped, not revealed", () => {
  class Pending extends Secret {
    override reveal(): string {
      throw new Error("not read yet");
    }
  }
  const redactor = new Redactor();
  redactor.addSecrets(["plain", new Secret("s3cret"), new Pending("")]);
  assert.equal(redactor.size, 1);
  assert.equal(redactor.redact("plain s3cret"), "plain (redacted)");
});

Deno.test("mcp tools: names from file and request, at most 64 characters, unique", () => {
  assert.equal(toolName("users/api.http", "get user"), "users_api_get_user");
  const long = toolName("a".repeat(50) + ".http", "b".repeat(50));
  assert.equal(long.length, 64);
  assert.match(long, /^a+_b+_[0-9a-f]{8}$/);
  const file = parseHttpFile(
    "# @name x\nGET http://h/{{id}}\n\n###\n# @name x\nPOST http://h/{{token}}\n",
    "api.http",
  );
  const tools = workspaceTools([{
    path: "api.http",
    relative: "api.http",
    file,
    environment: {
      variables: new Map([["token", new Secret("t")]]),
      shared: new Map(),
      auth: new Map(),
      files: [],
      defaultHeaders: new Map(),
      notices: [],
    },
  }]);
  assert.deepEqual(tools.map((t) => [t.name, t.inputs, t.safe]), [
    ["api_x", ["id"], true],
    ["api_x_2", [], false],
  ]);
});

Deno.test("mcp json-rpc: lines split across chunks, and what each line is", async () => {
  const chunks = [
    '{"jsonrpc":"2.0",',
    '"id":1,"method":"ping"}\r\n{"jsonrpc":"2.0","me',
    'thod":"x"}',
  ];
  const input = ReadableStream.from(chunks.map((c) => new TextEncoder().encode(c)));
  const read: string[] = [];
  for await (const line of lines(input)) read.push(line);
  assert.deepEqual(read.map((l) => parseLine(l).kind), ["request", "notification"]);
  assert.equal(parseLine("{").kind, "invalid");
  assert.deepEqual(parseLine('{"jsonrpc":"2.0","id":true,"method":"x"}'), {
    kind: "invalid",
    id: null,
    code: -32600,
    message: 'Invalid request: "id" must be a string or a number',
  });
  assert.equal(parseLine('{"jsonrpc":"2.0","id":3,"result":{}}').kind, "response");
});
