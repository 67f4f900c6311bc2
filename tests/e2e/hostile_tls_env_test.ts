/**
 * `NODE_TLS_REJECT_UNAUTHORIZED=0` in the environment has no effect on dial: an untrusted
 * certificate fails as without it, on every way a request goes out (a plain GET, a file
 * upload, a form); only dial's own `-k` skips verification, with its warning.
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { makeCertificates, serveTls } from "./_tls.ts";

Deno.test("tls env: NODE_TLS_REJECT_UNAUTHORIZED=0 does not turn certificate checks off", async () => {
  const certs = await makeCertificates();
  const server = serveTls(certs.self, certs.selfKey, async (request) => {
    await request.body?.cancel();
    return new Response("reached\n");
  });
  const url = `https://127.0.0.1:${server.addr.port}/`;
  const file = `${certs.dir}/upload.txt`;
  await Deno.writeTextFile(file, "data\n");
  const env = { NODE_TLS_REJECT_UNAUTHORIZED: "0" };
  try {
    for (const extra of [[], ["-d", `@${file}`], ["-F", `f=@${file}`], ["--json", "{}"]]) {
      const result = await dial(["POST", url, ...extra], { env });
      assert.equal(result.code, 60, `${extra.join(" ")}: ${result.stderr}`);
      assert.equal(result.stdout, "");
      assert.match(result.stderr, /TLS|certificate/i, extra.join(" "));
    }
    // dial's own switch still works, and says what it does.
    const insecure = await dial(["POST", url, "-k", "-d", `@${file}`], { env });
    assert.equal(insecure.code, 0, insecure.stderr);
    assert.equal(insecure.stdout, "reached\n");
    assert.match(insecure.stderr, /warning:.*-k/i);
  } finally {
    await server.shutdown();
    await Deno.remove(certs.dir, { recursive: true });
  }
});
