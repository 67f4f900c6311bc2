import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { rawServer, requestPath } from "./_raw_server.ts";

async function curl(args: string[]) {
  const output = await new Deno.Command("curl", {
    args: ["-q", "-s", ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: output.code, stdout: new TextDecoder().decode(output.stdout) };
}

function redirecting() {
  return rawServer((request) =>
    requestPath(request) === "/start"
      ? { status: "302 Found", headers: [["Location", "/end?x=1"]], body: "" }
      : {
        status: "201 Created",
        headers: [["Content-Type", "text/csv; charset=utf-8"], ["X-Id", "42"]],
        body: "a,b\n1,2\n".repeat(100),
      }
  );
}

const SHARED =
  "%{http_code}|%{response_code}|%{size_download}|%{url_effective}|%{content_type}|%{remote_ip}|%{num_redirects}|%{method}|%header{x-id}\\n";

Deno.test("write-out: the variables dial shares with curl print what curl prints", async () => {
  await using server = redirecting();
  for (const extra of [[], ["-L"]]) {
    const args = [...extra, "-o", "/dev/null", "-w", SHARED, `${server.origin}/start`];
    const fromCurl = await curl(args);
    const fromDial = await dial(args);
    assert.equal(fromDial.code, 0, fromDial.stderr);
    assert.equal(fromDial.stdout, fromCurl.stdout);
  }
  const direct = await dial(["-w", "%{http_code} %{size_download}", `${server.origin}/end`]);
  assert.equal(direct.stdout, `${"a,b\n1,2\n".repeat(100)}201 800`);
});

Deno.test("write-out: times are measured, %{json} holds the variables as curl names them", async () => {
  await using server = redirecting();
  const args = ["-L", "-s", "-o", "/dev/null", "-w", "%{json}", `${server.origin}/start`];
  const fromDial = JSON.parse((await dial(args)).stdout);
  const fromCurl = JSON.parse((await curl(args)).stdout);
  for (
    const name of [
      "http_code",
      "response_code",
      "size_download",
      "url_effective",
      "num_redirects",
      "method",
      "content_type",
      "remote_ip",
    ]
  ) {
    assert.deepEqual(fromDial[name], fromCurl[name], name);
  }
  assert.equal(typeof fromDial.time_total, "number");
  assert.ok(fromDial.time_total > 0);
  assert.ok(fromDial.time_starttransfer > 0);
  assert.ok(fromDial.time_starttransfer <= fromDial.time_total);
});

Deno.test("write-out: a failure prints 000 and the exit code, as curl", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const args = ["-w", "%{http_code} %{exitcode}\\n", `http://127.0.0.1:${port}/`];
  const fromCurl = await curl(args);
  const fromDial = await dial(args);
  assert.equal(fromDial.code, fromCurl.code);
  assert.equal(fromDial.stdout, fromCurl.stdout);
  assert.equal(fromDial.stdout, "000 7\n");
});

Deno.test("write-out: %{stderr} switches the stream; an unknown variable sends nothing", async () => {
  await using server = rawServer(() => ({ body: "" }));
  const split = await dial(["-w", "out %{stderr}err %{http_code}", server.origin]);
  assert.equal(split.stdout, "out ");
  assert.match(split.stderr, /err 200$/);
  const unknown = await dial(["-w", "%{time_connect}", server.origin]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /^error: Unknown -w variable "%\{time_connect\}"$/m);
  assert.equal(server.requests.length, 1);
});
