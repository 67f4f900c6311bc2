/**
 * The plans of `dial sse`, `dial ws` and `dial graphql`: flags checked and the request built
 * with nothing sent (no server runs in these tests).
 * @module
 */
import assert from "node:assert/strict";
import { testContext } from "../_run_cli.ts";
import { parseArgv } from "../../src/cli/parse.ts";
import { ROOT } from "../../src/cli/program.ts";
import { ssePlan } from "../../src/cli/sse_run.ts";
import type { SseFlagValues } from "../../src/cli/sse.ts";
import { wsPlan } from "../../src/cli/ws_run.ts";
import type { WsFlagValues } from "../../src/cli/ws.ts";
import { UsageError } from "../../src/errors/mod.ts";
import { graphqlPlan } from "../../src/cli/graphql_run.ts";
import type { GraphQLFlagValues } from "../../src/cli/graphql.ts";

/** The arguments and flag values `dial …argv` parses to. */
function parsed(argv: string[]) {
  const invocation = parseArgv(ROOT, argv);
  if (invocation.kind !== "run") throw new Error(`not a run: ${argv.join(" ")}`);
  return invocation.values as unknown as {
    args: Record<string, string | undefined>;
    flags: Record<string, unknown>;
  };
}

async function sse(argv: string[], stdin?: string) {
  const { args, flags } = parsed(["sse", ...argv]);
  const context = testContext(stdin === undefined ? {} : { stdin });
  return await ssePlan(args.method, args.url, flags as unknown as SseFlagValues, context);
}

async function ws(argv: string[]) {
  const { args, flags } = parsed(["ws", ...argv]);
  return await wsPlan(args.url!, flags as unknown as WsFlagValues, testContext());
}

Deno.test("sse plan: a GET for text/event-stream with the auth header, events filtered and counted", async () => {
  const plan = await sse([
    "http://127.0.0.1:9/events",
    "--event",
    "update",
    "--max-events",
    "3",
    "-H",
    "X-Trace: 1",
    "-B",
    "tok",
  ]);
  assert.equal(plan.spec.method, "GET");
  assert.equal(plan.spec.url.href, "http://127.0.0.1:9/events");
  assert.deepEqual([...plan.wanted], ["update"]);
  assert.equal(plan.maxEvents, 3);
  assert.equal(plan.format, "data");
  assert.ok(plan.spec.headers.some((h) => h.name === "X-Trace"));
});

Deno.test("sse plan: a stdin body is read once so every reconnection sends it again; --jsonl prints JSON", async () => {
  const plan = await sse(["POST", "http://127.0.0.1:9/events", "--jsonl", "-d", "@-"], "q=1");
  assert.equal(plan.spec.method, "POST");
  assert.deepEqual(
    plan.spec.body && "text" in plan.spec.body ? plan.spec.body.text : undefined,
    "q=1",
  );
  assert.equal(plan.format, "json");
});

Deno.test("sse plan: mistakes are usage errors before anything is sent", async () => {
  for (
    const [argv, message] of [
      [["GET", "http://127.0.0.1:9/e", "-d", "x=1"], /cannot be sent with GET/],
      [["http://127.0.0.1:9/e", "--last-event-id", "a\nb"], /--last-event-id/],
      [["http://127.0.0.1:9/e", "--events", "--json"], /Conflicting flags --events and --json/],
    ] as const
  ) {
    await assert.rejects(sse([...argv]), (error: unknown) => {
      assert.ok(error instanceof UsageError, String(error));
      assert.match(error.message, message);
      return true;
    });
  }
});

Deno.test("ws plan: the handshake request, subprotocols and the binary encoding; a bad subprotocol is refused", async () => {
  const plan = await ws(["ws://127.0.0.1:9/live", "--subprotocol", "chat.v1", "--hex"]);
  assert.equal(plan.spec.method, "GET");
  assert.equal(plan.spec.url.href, "ws://127.0.0.1:9/live");
  assert.deepEqual(plan.protocols, ["chat.v1"]);
  assert.equal(plan.binary, "hex");
  await assert.rejects(ws(["ws://127.0.0.1:9/live", "--subprotocol", "a b"]), /not an HTTP token/);
});

async function graphql(argv: string[]) {
  const { args, flags } = parsed(["graphql", ...argv]);
  return await graphqlPlan(args.url!, flags as unknown as GraphQLFlagValues, testContext());
}

Deno.test("graphql plan: an operation with variables picks its transport; a subscription streams", async () => {
  const plan = await graphql([
    "http://127.0.0.1:9/graphql",
    "-q",
    "query Q($n: Int) { items(first: $n) { id } }",
    "--variables",
    '{"n": 2}',
  ]);
  assert.equal(plan.mode, "operation");
  if (plan.mode !== "operation") return;
  assert.equal(plan.transport, "single");
  assert.deepEqual(plan.request.variables, { n: 2 });
  const ws = await graphql([
    "ws://127.0.0.1:9/graphql",
    "-q",
    "subscription { ticks }",
    "--transport",
    "ws",
    "--init-payload",
    '{"token": "t"}',
  ]);
  assert.equal(ws.mode === "operation" && ws.transport, "ws");
  assert.deepEqual(ws.mode === "operation" && ws.initPayload, { token: "t" });
  assert.equal((await graphql(["http://127.0.0.1:9/graphql", "--schema"])).mode, "schema");
});

Deno.test("graphql plan: mistakes are usage errors before anything is sent", async () => {
  for (
    const [argv, message] of [
      [["--schema", "-q", "{a}"], /Conflicting flags --schema and --query/],
      [["-q", "{a}", "--refresh-schema"], /--refresh-schema needs --schema/],
      [[], /Missing --query/],
      [["-q", "{ a"], /Cannot parse the query at line 1/],
      [["-q", "{a}", "--init-payload", "{}"], /--init-payload needs --transport ws/],
    ] as const
  ) {
    await assert.rejects(graphql(["http://127.0.0.1:9/graphql", ...argv]), (error: unknown) => {
      assert.ok(error instanceof UsageError, String(error));
      assert.match(error.message, message);
      return true;
    });
  }
});
