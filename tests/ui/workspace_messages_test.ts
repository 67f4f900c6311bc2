/**
 * What the UI says about a workspace's files names them as its sidebar does, relative to the
 * workspace: the runner reads a file by its real path (includes resolve beside it), and the
 * messages of ▶ Run, Send and a file that does not parse reach the page without that path.
 */
import assert from "node:assert/strict";
import { startUiServer, type UiServer } from "../../src/ui/server.ts";
import { apiHeaders, sessionOf } from "./_session.ts";

const ASSETS = { js: "/* app */", css: "/* css */" };

async function post(server: UiServer, session: string, path: string, body: unknown) {
  const response = await fetch(new URL(path, server.url), {
    method: "POST",
    headers: apiHeaders(session),
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

/** @returns the NDJSON answer's events (a file's run or send) */
function events(text: string): Array<Record<string, unknown>> {
  return text.trim().split("\n").map((line) => JSON.parse(line));
}

Deno.test("ui workspace: ▶ Run, Send and a file that does not parse name the workspace's files relative to it, never by their absolute path", async () => {
  const base = await Deno.makeTempDir({ prefix: "dial-ui-messages-" });
  const root = await Deno.realPath(base);
  try {
    await Deno.mkdir(`${root}/ws/sub`, { recursive: true });
    await Deno.mkdir(`${root}/config`);
    // Port 9 (discard) is never reached: each request fails before it is sent.
    await Deno.writeTextFile(
      `${root}/ws/sub/api.http`,
      "GET http://127.0.0.1:9/{{missing}}\n\n###\nPOST http://127.0.0.1:9/\n\n< ./nope.json\n",
    );
    await Deno.writeTextFile(`${root}/ws/sub/broken.http`, "GET http://127.0.0.1:9/\nNo colon\n");
    await using server = await startUiServer({
      assets: ASSETS,
      workspace: `${root}/ws`,
      configDir: `${root}/config`,
    });
    const session = await sessionOf(server);

    const run = await post(server, session, "/api/workspace/run", { path: "sub/api.http" });
    assert.equal(run.status, 200);
    const errors = events(run.text).filter((e) => e.type === "result").map((e) => e.error);
    assert.deepEqual(errors, [
      {
        code: "usage",
        message: 'sub/api.http:1:20: Undefined variable "missing" in the URL',
        hint: "define it in http-client.env.json, or as @missing = … in the file",
      },
      {
        code: "usage",
        message: 'sub/api.http:6:1: Cannot read the body file "sub/nope.json": no such file',
      },
    ]);

    const draft = { method: "GET", url: "http://127.0.0.1:9/{{missing}}" };
    const send = await post(server, session, "/api/http/file", {
      path: "sub/api.http",
      index: 1,
      draft,
    });
    assert.equal(send.status, 200);
    const result = events(send.text).find((e) => e.type === "result");
    assert.equal(
      (result?.error as { message?: string } | undefined)?.message,
      'sub/api.http:1:20: Undefined variable "missing" in the URL',
    );

    const broken = await post(server, session, "/api/http/file", {
      path: "sub/broken.http",
      index: 1,
      draft: { method: "GET", url: "http://127.0.0.1:9/" },
    });
    assert.equal(broken.status, 400);
    assert.match(JSON.parse(broken.text).error.message, /^sub\/broken\.http:2:/);

    for (const answer of [run, send, broken]) {
      assert.ok(!answer.text.includes(root), `no absolute path in ${answer.text}`);
    }
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
