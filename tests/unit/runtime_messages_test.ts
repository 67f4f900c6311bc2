import assert from "node:assert/strict";
import { codeOf, sourceFiles } from "../_sources.ts";
import {
  jsonErrorReason,
  RUNTIME_MESSAGES,
  TLS_CHECKS,
} from "../../src/errors/runtime_messages.ts";
import { unusedPort } from "../_ports.ts";

/** The table, and dial's own tunnel and handshake, which word failures as Deno's do. */
const WRITERS = [
  "src/errors/runtime_messages.ts",
  "src/http/connect.ts",
  "src/http/websocket.ts",
];

Deno.test("runtime messages: V8 still quotes JSON input, and the reason is kept without it", () => {
  let thrown: unknown;
  try {
    JSON.parse("s3cret");
  } catch (error) {
    thrown = error;
  }
  // Canary: the day V8 stops quoting the input, the pattern and its scrubbing can go.
  assert.match((thrown as Error).message, RUNTIME_MESSAGES.jsonQuotedInput);
  assert.doesNotMatch(jsonErrorReason(thrown), /s3cret/);
  assert.ok(jsonErrorReason(thrown).length > 0);
});

Deno.test("runtime messages: Deno's fetch names a refused connection as the table expects", async () => {
  const port = unusedPort();
  const error = await fetch(`http://127.0.0.1:${port}/`).then(() => undefined, (e) => e);
  const texts: string[] = [];
  for (let e: unknown = error; e instanceof Error; e = e.cause) texts.push(e.message);
  assert.match(texts.join(" "), RUNTIME_MESSAGES.refused);
  assert.match(texts.join(" "), RUNTIME_MESSAGES.tcpConnect);
});

Deno.test("runtime messages: every TLS check has its words", () => {
  const checks = TLS_CHECKS.map(([, check]) => check);
  assert.deepEqual(new Set(checks).size, checks.length);
});

Deno.test("runtime messages: the runtime's wording is matched only in src/errors/runtime_messages.ts", async () => {
  // Words only the runtime uses: a pattern over them elsewhere is a second table.
  const words = [
    "ECONNREFUSED",
    "tcp connect",
    '" is not valid JSON',
    "invalid status code",
    "UnknownIssuer",
    "unsuccessful tunnel",
    "failed to lookup",
  ];
  const found: string[] = [];
  for (const path of await sourceFiles("src", ["src/ui/web"])) {
    if (WRITERS.includes(path)) continue;
    const code = await codeOf(path);
    for (const word of words) if (code.includes(word)) found.push(`${path}: ${word}`);
  }
  assert.deepEqual(found, []);
});
