/**
 * One hostile set (CSI, OSC 0, OSC 52, C1 CSI, a right-to-left override) fed to every path
 * that prints a server's words, on a pseudo-terminal: nothing reaches the terminal raw, headers
 * included (sent as UTF-8 bytes, which dial shows decoded).
 */
import assert from "node:assert/strict";
import { dial, dialOnTerminal, hasScript, serve } from "../_helpers.ts";
import { rawServer } from "./_raw_server.ts";

/** The hostile set: clear screen, retitle, clipboard write, 8-bit CSI, right-to-left override. */
const HOSTILE = "a\x1b[2J\x1b]0;pwned\x07\x1b]52;c;aGVsbG8=\x07\x9b2J\u202ez";
/** How a terminal shows it. */
const ESCAPED = "a\\x1b[2J\\x1b]0;pwned\\x07\\x1b]52;c;aGVsbG8=\\x07\\x9b2J\\u202ez";
/** A download name made from it: the controls removed. */
const STRIPPED = "a[2J]0;pwned]52;c;aGVsbG8=2Jz.txt";

/** @returns whether the screen holds any raw form of the set */
function rawOn(screen: string): string | undefined {
  return ["\x1b[2J", "\x1b]", "\x07", "\x9b", "\x9d", "\x9c", "\u202e", "\x80"].find((raw) =>
    screen.includes(raw)
  );
}

function jsonServer() {
  return serve(async (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/token") {
      return Response.json({ access_token: HOSTILE, token_type: "Bearer", expires_in: 60 });
    }
    if (path === "/device") {
      await request.text();
      return Response.json({
        device_code: "dev-1",
        user_code: HOSTILE,
        verification_uri: `${new URL(request.url).origin}/activate`,
        expires_in: 600,
        interval: 1,
      });
    }
    if (path === "/device-token") {
      await request.text();
      return Response.json({ access_token: "tv-token", token_type: "Bearer", expires_in: 60 });
    }
    if (path === "/denied") {
      return Response.json({ error: "invalid_client", error_description: HOSTILE }, {
        status: 400,
      });
    }
    if (path === "/graphql") {
      await request.text();
      return Response.json({ data: null, errors: [{ message: HOSTILE }] });
    }
    const name = encodeURIComponent(`${HOSTILE}.txt`);
    return new Response("saved\n", {
      headers: { "content-disposition": `attachment; filename*=UTF-8''${name}` },
    });
  });
}

function headerServer() {
  return rawServer((request) => ({
    headers: request.line.startsWith("GET /encoded")
      ? [["Content-Encoding", HOSTILE], ["Content-Type", "text/plain"]]
      : [["X-Note", HOSTILE], ["Content-Type", "text/plain"]],
  }));
}

const onTerminal = { ignore: !hasScript };

Deno.test("hostile: every printing path shows the same set escaped", onTerminal, async () => {
  await using json = jsonServer();
  await using head = headerServer();
  const cwd = await Deno.makeTempDir();
  const cases: Array<{ path: string; args: string[]; code: number; expect: string }> = [
    {
      path: "dial auth token",
      args: ["auth", "token", "--oauth2", `client_credentials:${json.origin}/token:app:secret`],
      code: 0,
      expect: ESCAPED,
    },
    {
      path: "an OAuth error_description",
      args: ["GET", json.origin, "--oauth2", `client_credentials:${json.origin}/denied:app:s`],
      code: 9,
      expect: ESCAPED,
    },
    {
      path: "a device login's user code",
      args: [
        "auth",
        "token",
        "--oauth2",
        `device_code:${json.origin}/device-token:tv`,
        "--oauth2-device-url",
        `${json.origin}/device`,
      ],
      code: 0,
      expect: `enter the code ${ESCAPED}`,
    },
    {
      path: "a GraphQL error",
      args: ["graphql", `${json.origin}/graphql`, "-q", "{ a }"],
      code: 0,
      expect: ESCAPED,
    },
    {
      path: "a header under -v",
      args: ["GET", head.origin, "-v"],
      code: 0,
      expect: `X-Note: ${ESCAPED}`,
    },
    {
      path: "the note on an unknown Content-Encoding",
      args: ["GET", `${head.origin}/encoded`],
      code: 0,
      expect: `Content-Encoding "${ESCAPED}"`,
    },
    {
      path: "a --download name (controls and bidi removed, not escaped)",
      args: ["GET", `${json.origin}/file`, "--download"],
      code: 0,
      expect: `Saved 6 B to "${STRIPPED}"`,
    },
    {
      path: "the note that a --download name is taken",
      args: ["GET", `${json.origin}/file`, "--download"],
      code: 0,
      expect: `"${STRIPPED}" already exists`,
    },
  ];
  for (const c of cases) {
    const { code, screen } = await dialOnTerminal(c.args, { cwd });
    assert.equal(code, c.code, `${c.path}: ${screen}`);
    assert.equal(rawOn(screen), undefined, `${c.path}: ${JSON.stringify(screen)}`);
    assert.ok(screen.includes(c.expect), `${c.path}: ${JSON.stringify(screen)}`);
  }
  const names = (await Array.fromAsync(Deno.readDir(cwd))).map((entry) => entry.name).sort();
  assert.deepEqual(names, [STRIPPED.replace(".txt", "-1.txt"), STRIPPED]);
  await Deno.remove(cwd, { recursive: true });
});

Deno.test("hostile: piped, the token and a GraphQL error stay byte-exact", async () => {
  await using json = jsonServer();
  const token = await dial([
    "auth",
    "token",
    "--oauth2",
    `client_credentials:${json.origin}/token:app:secret`,
  ]);
  assert.equal(token.stdout, `${HOSTILE}\n`);
  const graphql = await dial(["graphql", `${json.origin}/graphql`, "-q", "{ a }"]);
  assert.ok(graphql.stderr.includes(HOSTILE), graphql.stderr);
});

Deno.test("hostile: -v shows a Location's credentials redacted, as the next request line does", async () => {
  await using server = serve((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/next") return new Response("ok\n");
    return new Response(null, {
      status: 302,
      headers: {
        location: url.pathname === "/rel"
          ? "next?token=t0ps3cret&page=2"
          : "/next?token=t0ps3cret&page=2",
      },
    });
  });
  const traced = await dial(["GET", `${server.origin}/start`, "-v", "-L"]);
  assert.equal(traced.code, 0, traced.stderr);
  assert.ok(!traced.stderr.includes("t0ps3cret"), traced.stderr);
  assert.match(traced.stderr, /Location: \/next\?token=\(redacted\)&page=2\n/);
  assert.match(traced.stderr, /GET \/next\?token=\(redacted\)&page=2/);
  const relative = await dial(["GET", `${server.origin}/rel`, "-v"]);
  assert.ok(!relative.stderr.includes("t0ps3cret"), relative.stderr);
  assert.match(relative.stderr, /Location: next\?token=\(redacted\)&page=2\n/);
  // -i prints the response as output: the header as the server sent it.
  const included = await dial(["GET", `${server.origin}/start`, "-i"]);
  assert.match(included.stdout, /Location: \/next\?token=t0ps3cret&page=2\n/);
});
