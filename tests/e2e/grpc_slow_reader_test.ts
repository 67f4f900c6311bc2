/**
 * Server-streaming replies read by a slow reader (a terminal, a handler, the UI): dial's call
 * ends OK with every reply. Under Deno's node:http2 a stream read with Node's async iterator
 * failed here with "Premature close" (src/grpc/h2_stream_reader.ts, and its canary).
 * @module
 */
import assert from "node:assert/strict";
import type { JsonValue } from "@bufbuild/protobuf";
import { callMethod } from "../../src/grpc/call.ts";
import { openChannel } from "../../src/grpc/channel.ts";
import { ReflectionClient } from "../../src/grpc/reflection.ts";
import { findMethod, reflectionSource } from "../../src/grpc/schema.ts";
import { startGreeter } from "./_grpc.ts";

async function* one(): AsyncGenerator<JsonValue> {
  yield { name: "s", times: 3 };
}

Deno.test("grpc: a slow reader of a server stream gets every reply and OK, every time", async () => {
  await using server = await startGreeter();
  for (let i = 0; i < 8; i++) {
    const channel = await openChannel(new URL(`http://${server.address}`), {});
    try {
      const transport = channel.transport;
      const client = new ReflectionClient(transport, { headers: new Headers() });
      const { method, registry } = await findMethod(
        reflectionSource(client, ""),
        "greet.v1.Greeter/StreamHellos",
        "",
      );
      const replies: JsonValue[] = [];
      for await (
        const reply of callMethod(transport, method, one(), { headers: new Headers(), registry })
      ) {
        replies.push(reply);
        // A reader busy with each reply when the trailers arrive.
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
      assert.equal(replies.length, 3);
    } finally {
      channel.close();
    }
  }
});
