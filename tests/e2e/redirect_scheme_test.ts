/**
 * A server on the redirect path cannot make dial read a local file: a hop to `file:` (or
 * `data:`, or anything but http: and https:) is refused in the CLI, the library and the UI,
 * with the scheme named, exit 47 (curl's too-many-redirects code), and nothing read from the target. curl, HTTPie and wget
 * refuse the same hop.
 */
import assert from "node:assert/strict";
import { dial, serve } from "../_helpers.ts";
import { DialError, ErrorCode, send } from "../../mod.ts";
import { startUiServer } from "../../src/ui/server.ts";
import { apiHeaders, sessionOf } from "../ui/_session.ts";

const MARKER = "local-secret-8c1f";

async function setup() {
  const dir = await Deno.makeTempDir();
  const secret = `${dir}/secret.txt`;
  await Deno.writeTextFile(secret, `${MARKER}\n`);
  const server = serve((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/data") {
      return new Response(null, { status: 302, headers: { location: "data:,gotcha" } });
    }
    return new Response(null, { status: 302, headers: { location: `file://${secret}` } });
  });
  return {
    server,
    async [Symbol.asyncDispose]() {
      await server[Symbol.asyncDispose]();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("redirect scheme: dial -L refuses a redirect to file: and data:, exit 47, nothing read", async () => {
  await using s = await setup();
  const file = await dial(["GET", `${s.server.origin}/file`, "-L"]);
  assert.equal(file.code, 47, file.stderr);
  assert.equal(file.stdout, "");
  assert.ok(!file.stderr.includes(MARKER), file.stderr);
  assert.match(file.stderr, /^error: Refused a redirect to a "file:" URL from 127\.0\.0\.1:\d+/);
  assert.match(file.stderr, /only http: and https: redirects are followed/);
  const data = await dial(["GET", `${s.server.origin}/data`, "-L", "-o", "-"]);
  assert.equal(data.code, 47, data.stderr);
  assert.ok(!data.stdout.includes("gotcha"));
  assert.match(data.stderr, /"data:" URL/);
  // Without -L the redirect is shown, as before.
  const shown = await dial(["GET", `${s.server.origin}/file`, "-i"]);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /^HTTP\/1.1 302 Found\n/);
});

Deno.test("redirect scheme: the library's send() refuses a redirect to file:", async () => {
  await using s = await setup();
  const spec = {
    method: "GET",
    url: new URL(`${s.server.origin}/file`),
    headers: [],
    auth: { queryKeys: [] },
  };
  const error = await send(spec, {
    follow: true,
  }).then(() => undefined, (e) => e);
  assert.ok(error instanceof DialError, String(error));
  assert.equal(error.code, ErrorCode.RedirectScheme);
  assert.equal(error.exitCode, 47);
  assert.ok(!error.message.includes(MARKER));
});

Deno.test("redirect scheme: the UI refuses a redirect to file: (followed by default)", async () => {
  await using s = await setup();
  await using ui = await startUiServer({ assets: { js: "", css: "" } });
  const session = await sessionOf(ui);
  const response = await fetch(new URL("/api/http", ui.url), {
    method: "POST",
    headers: apiHeaders(session),
    body: JSON.stringify({ method: "GET", url: `${s.server.origin}/file` }),
  });
  const text = await response.text();
  assert.ok(!text.includes(MARKER), text);
  const [event] = text.trim().split("\n").map((line) => JSON.parse(line));
  assert.equal(event.type, "error", text);
  assert.equal(event.error.code, "redirect_scheme");
  assert.match(event.error.message, /"file:" URL/);
  assert.equal(event.error.hint, "untick Follow redirects to see the redirect");
});
