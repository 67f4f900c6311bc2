import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { rawServer, requestPath } from "./_raw_server.ts";
import { unusedPort } from "../_ports.ts";

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
  const port = unusedPort();
  const args = ["-w", "%{http_code} %{exitcode}\\n", `http://127.0.0.1:${port}/`];
  const fromCurl = await curl(args);
  const fromDial = await dial(args);
  assert.equal(fromDial.code, fromCurl.code);
  assert.equal(fromDial.stdout, fromCurl.stdout);
  assert.equal(fromDial.stdout, "000 7\n");
});

Deno.test("write-out: %{stderr} switches the stream; an unknown variable is a warning, as in curl", async () => {
  await using server = rawServer(() => ({ body: "" }));
  const split = await dial(["-w", "out %{stderr}err %{http_code}", server.origin]);
  assert.equal(split.stdout, "out ");
  assert.match(split.stderr, /err 200$/);
  // As curl: a warning, the variable printed empty, the request sent.
  const unknown = await dial(["-w", "[%{no_such_thing}]", server.origin]);
  assert.equal(unknown.code, 0, unknown.stderr);
  assert.match(unknown.stderr, /unknown variable "%\{no_such_thing\}"/);
  assert.equal(unknown.stdout, "[]");
  assert.equal(server.requests.length, 2);
});

Deno.test("write-out: per-phase timings in order, head size, version and peer as curl reports them", async () => {
  await using server = rawServer(() => ({ headers: [["X-Pad", "abc"]], body: "hello" }));
  const format =
    "%{http_version} %{size_header} %{size_upload} %{remote_ip} %{remote_port} %{num_redirects}|%{time_namelookup} %{time_connect} %{time_appconnect} %{time_pretransfer} %{time_starttransfer} %{time_total}";
  const args = ["-s", "-o", "/dev/null", "-w", format, "-d", "12345", `${server.origin}/`];
  const fromCurl = await curl(args);
  const fromDial = await dial(["POST", ...args.filter((a) => a !== "-s")]);
  assert.equal(fromDial.code, 0, fromDial.stderr);
  const [facts, times] = fromDial.stdout.split("|");
  assert.equal(facts, fromCurl.stdout.split("|")[0]);
  // The head: status line 17, X-Pad 12, Content-Length 19, Connection 19, blank line 2.
  assert.equal(facts, `1.1 69 5 127.0.0.1 ${server.port} 0`);
  const seconds = times!.split(" ").map(Number);
  // namelookup ≤ connect, appconnect 0 without TLS, pretransfer ≤ starttransfer ≤ total.
  assert.ok(seconds[0]! <= seconds[1]!, times);
  assert.equal(seconds[2], 0);
  assert.ok(seconds[1]! <= seconds[3]! && seconds[3]! <= seconds[4]! && seconds[4]! <= seconds[5]!);
  assert.ok(seconds[5]! > 0);
});

Deno.test("write-out: %{time_namelookup} times the lookup of a name apart from connecting, as curl", async () => {
  await using server = rawServer(() => ({ body: "hello" }));
  const format = "%{time_namelookup} %{time_connect} %{remote_ip}";
  const url = `http://localhost:${server.port}/`;
  const fromCurl = await curl(["-o", "/dev/null", "-w", format, url]);
  const fromDial = await dial(["-o", "/dev/null", "-w", format, url]);
  assert.equal(fromDial.code, 0, fromDial.stderr);
  const [lookup, connect, ip] = fromDial.stdout.split(" ");
  // Resolving "localhost" takes time (curl's is above 0 too); it ends before the socket opens.
  assert.ok(Number(fromCurl.stdout.split(" ")[0]) > 0, fromCurl.stdout);
  assert.ok(Number(lookup) > 0 && Number(lookup) <= Number(connect), fromDial.stdout);
  assert.equal(ip, fromCurl.stdout.split(" ")[2]);
  // A name that does not resolve is curl's exit 6 on this path too.
  const missing = ["-w", format, "http://nonexistent.invalid/"];
  const [curlMissing, dialMissing] = [await curl(missing), await dial(missing)];
  assert.equal(curlMissing.code, 6);
  assert.equal(dialMissing.code, 6, dialMissing.stderr);
  assert.match(dialMissing.stderr, /nonexistent\.invalid/);
});
