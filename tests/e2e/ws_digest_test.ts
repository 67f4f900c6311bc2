/**
 * Digest on WebSocket handshakes, against Debian's lighttpd verifying Digest (mod_auth,
 * htdigest) in front of a WebSocket backend: the first upgrade is refused with the challenge,
 * the second answers it, as curl answers any 401; `dial ws` and `dial graphql --transport ws`.
 */
import assert from "node:assert/strict";
import { dial, serve } from "../_helpers.ts";
import { hasLighttpd, startDigestGate } from "./_lighttpd.ts";
import { subscriptionServer } from "./_graphql_servers.ts";

const ignore = !hasLighttpd;
const PASSWORD = "s3cr:et pass";

/** A WebSocket echo backend that says which credentials its handshake carried. */
function echoBackend() {
  return serve((request) => {
    const scheme = request.headers.get("authorization")?.split(" ")[0] ?? "none";
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return new Response("not a websocket request", { status: 426 });
    }
    const { socket, response } = Deno.upgradeWebSocket(request);
    socket.onmessage = (event) => socket.send(`echo ${event.data} (${scheme})`);
    return response;
  });
}

for (const algorithm of ["MD5", "SHA-256"] as const) {
  Deno.test({
    name: `ws digest: dial ws answers lighttpd's ${algorithm} challenge on a second upgrade`,
    ignore,
    async fn() {
      await using backend = echoBackend();
      await using gate = await startDigestGate(backend.port, { ann: PASSWORD }, algorithm);
      const url = `${gate.origin.replace("http:", "ws:")}/chat?room=1`;
      const result = await dial(
        ["ws", url, "--digest", "-u", `ann:${PASSWORD}`, "-v", "--max-messages", "1"],
        { stdin: "hello\n" },
      );
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, "echo hello (Digest)\n");
      // -v shows both handshakes: without credentials, then with the answer (redacted).
      const handshakes = result.stderr.split("GET /chat?room=1 HTTP/1.1").slice(1);
      assert.equal(handshakes.length, 2, result.stderr);
      assert.doesNotMatch(handshakes[0]!, /authorization/i);
      assert.match(handshakes[1]!, /\nAuthorization: \(redacted\)\n/);
      assert.doesNotMatch(result.stderr, /s3cr/);
      assert.doesNotMatch(gate.log(), /auth failed/);
    },
  });
}

Deno.test({
  name: "ws digest: a wrong password is refused once more and shown as the 401, exit 4",
  ignore,
  async fn() {
    await using backend = echoBackend();
    await using gate = await startDigestGate(backend.port, { ann: PASSWORD });
    const url = `${gate.origin.replace("http:", "ws:")}/chat`;
    const result = await dial(["ws", url, "--digest", "-u", "ann:wrong"], { stdin: "hello\n" });
    assert.equal(result.code, 4, result.stderr);
    assert.match(result.stderr, /WebSocket handshake refused by 127\.0\.0\.1:\d+: HTTP 401/);
    assert.match(gate.log(), /digest: auth failed for ann: wrong password/);
    // Exactly one answered attempt: lighttpd logged one failure.
    assert.equal(gate.log().match(/auth failed/g)?.length, 1);
  },
});

Deno.test({
  name: "ws digest: dial graphql --transport ws subscribes through the Digest gate",
  ignore,
  async fn() {
    await using backend = subscriptionServer({ kind: "none" });
    await using gate = await startDigestGate(backend.port, { ann: PASSWORD }, "SHA-256");
    const result = await dial([
      "graphql",
      `${gate.origin}/graphql`,
      "--transport",
      "ws",
      "-q",
      "subscription { countdown(from: 2) }",
      "--digest",
      "-u",
      `ann:${PASSWORD}`,
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(
      result.stdout.trim().split("\n").map((line) => JSON.parse(line)),
      [{ data: { countdown: 2 } }, { data: { countdown: 1 } }, { data: { countdown: 0 } }],
    );
  },
});
