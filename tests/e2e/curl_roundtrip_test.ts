/**
 * `--curl` round trip: the printed command, run by real curl, sends what dial sends.
 */
import assert from "node:assert/strict";
import { includes } from "../assert.ts";
import { dial } from "../_helpers.ts";
import { type RawRequest, rawServer } from "./_raw_server.ts";

/** Headers every client sets its own way; the rest must match. */
const CLIENT_OWN = new Set([
  "accept",
  "accept-encoding",
  "accept-language",
  "connection",
  "content-length",
  "transfer-encoding",
  "expect",
  "content-type",
]);

/** A request reduced to what must match: line, headers dial was told to send, body. */
function essence(request: RawRequest): unknown {
  const type = request.headers.find(([k]) => k.toLowerCase() === "content-type")?.[1] ?? "";
  const boundary = /boundary=(.+)$/.exec(type)?.[1];
  let body = new TextDecoder().decode(request.body);
  if (boundary) body = body.replaceAll(boundary, "BOUNDARY");
  return {
    line: request.line,
    type: boundary ? type.replace(boundary, "BOUNDARY") : type,
    headers: request.headers
      .map(([k, v]) => `${k.toLowerCase()}: ${v}`)
      .filter((h) => !CLIENT_OWN.has(h.slice(0, h.indexOf(":"))))
      .sort(),
    body,
  };
}

/** Sends with dial, prints with --curl, runs the command with curl; returns both requests. */
async function roundTrip(args: string[], cwd?: string) {
  await using server = rawServer();
  const url = (path: string) => path.replace("ORIGIN", server.origin);
  const real = args.map(url);
  const sent = await dial(real, cwd ? { cwd } : {});
  assert.equal(sent.code, 0, sent.stderr);
  const printed = await dial([...real, "--curl", "--with-secrets"], cwd ? { cwd } : {});
  assert.equal(printed.code, 0, printed.stderr);
  const command = printed.stdout.trim();
  const curl = await new Deno.Command("sh", {
    args: ["-c", `${command} -s -o /dev/null --max-time 10`],
    ...(cwd ? { cwd } : {}),
  }).output();
  assert.equal(curl.code, 0, `${command}\n${new TextDecoder().decode(curl.stderr)}`);
  assert.equal(server.requests.length, 2, command);
  return { command, dial: server.requests[0]!, curl: server.requests[1]! };
}

Deno.test("curl round trip: HEAD is -I, not -X HEAD", async () => {
  const trip = await roundTrip(["HEAD", "ORIGIN/h", "-H", "X-A: 1"]);
  includes(trip.command, "curl -I ");
  assert.deepEqual(essence(trip.curl), essence(trip.dial));
});

Deno.test("curl round trip: a URL with [] and {} gets -g", async () => {
  const trip = await roundTrip(["GET", "ORIGIN/a?f[0]=x&q={y}"]);
  includes(trip.command, " -g ");
  assert.deepEqual(essence(trip.curl), essence(trip.dial));
});

Deno.test("curl round trip: -F text values are literal, file fields keep filename and type", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/a;b.txt`, "file-content\n");
  await Deno.writeTextFile(`${dir}/secret.txt`, "must not be read\n");
  const trip = await roundTrip([
    "POST",
    "ORIGIN/form",
    "-F",
    "lt=<secret.txt",
    "-F",
    "semi=x;type=text/evil",
    "-F",
    `up=@"a;b.txt";filename=report.csv;type=text/csv`,
  ], dir);
  includes(trip.command, "--form-string");
  assert.deepEqual(essence(trip.curl), essence(trip.dial));
  const body = new TextDecoder().decode(trip.dial.body);
  includes(body, 'name="lt"\r\n\r\n<secret.txt\r\n');
  includes(body, 'name="semi"\r\n\r\nx;type=text/evil\r\n');
  includes(
    body,
    'name="up"; filename="report.csv"\r\nContent-Type: text/csv\r\n\r\nfile-content\n',
  );
  assert.equal(body.includes("must not be read"), false);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("curl round trip: -u, -K and --json", async () => {
  const trip = await roundTrip([
    "PUT",
    "ORIGIN/j",
    "-u",
    "ann:pä ss",
    "-K",
    "key=a b&c",
    "--json",
    '{"it\'s":[1, 2]}',
    "-H",
    "X-Empty:",
  ]);
  assert.deepEqual(essence(trip.curl), essence(trip.dial));
  assert.equal(trip.dial.line, "PUT /j?key=a%20b%26c HTTP/1.1");
});

Deno.test("-F: an unknown parameter on a file field is a usage error", async () => {
  const file = await Deno.makeTempFile();
  const result = await dial(["POST", "http://127.0.0.1:9/", "-F", `f=@${file};size=3`]);
  assert.equal(result.code, 2);
  includes(result.stderr, 'unknown parameter "size"');
  await Deno.remove(file);
});

Deno.test("curl round trip: cookies set on a redirect hop follow it in curl too", async () => {
  await using server = rawServer((r) =>
    r.line.startsWith("GET /a")
      ? { status: "302 Found", headers: [["location", "/b"], ["set-cookie", "sid=1"]] }
      : {}
  );
  const args = ["GET", `${server.origin}/a`, "-L"];
  assert.equal((await dial(args)).code, 0);
  const printed = await dial([...args, "--curl"]);
  includes(printed.stdout, " -b ''");
  const curl = await new Deno.Command("sh", {
    args: ["-c", `${printed.stdout.trim()} -s -o /dev/null`],
  }).output();
  assert.equal(curl.code, 0);
  const cookies = server.requests.map((r) =>
    r.headers.find(([k]) => k.toLowerCase() === "cookie")?.[1]
  );
  assert.deepEqual(cookies, [undefined, "sid=1", undefined, "sid=1"]);
});

Deno.test("curl round trip: repeated -d values (joined with &, as curl joins them) go literally", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/part.txt`, "c=3");
  const trip = await roundTrip(
    ["POST", "ORIGIN/d", "-d", "a=1", "-d", "b=it's 2", "-d", "@part.txt"],
    dir,
  );
  includes(trip.command, "--data-raw");
  assert.deepEqual(essence(trip.curl), essence(trip.dial));
  assert.equal(new TextDecoder().decode(trip.dial.body), "a=1&b=it's 2&c=3");
  await Deno.remove(dir, { recursive: true });
});
