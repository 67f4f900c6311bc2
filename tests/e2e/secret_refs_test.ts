import assert from "node:assert/strict";
import { excludes, includes } from "../assert.ts";
import { dial, serve } from "../_helpers.ts";

const SECRET = "S3CRET-value";

/** A server that records what it received. */
function echo() {
  return serve((request) => Response.json({ headers: Object.fromEntries(request.headers) }));
}

async function secretFile(text: string): Promise<string> {
  const path = await Deno.makeTempFile({ prefix: "dial-secret-" });
  await Deno.writeTextFile(path, text);
  return path;
}

const basic = (user: string, password: string) =>
  `Basic ${new TextEncoder().encode(`${user}:${password}`).toBase64()}`;

Deno.test("refs: -B reads @PATH (one trailing newline dropped), @-, @env:NAME and @@literal", async () => {
  await using server = echo();
  const url = `${server.origin}/me`;
  const file = await secretFile(`${SECRET}\n`);
  const crlf = await secretFile(`${SECRET}\r\n`);
  const runs = [
    await dial(["GET", url, "-B", `@${file}`]),
    await dial(["GET", url, "-B", `@${crlf}`]),
    await dial(["GET", url, "-B", "@-"], { stdin: `${SECRET}\n` }),
    await dial(["GET", url, "-B", "@env:API_TOKEN"], { env: { API_TOKEN: SECRET } }),
    await dial(["GET", url, "--bearer", "@@literal"]),
  ];
  for (const run of runs) assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(server.requests.map((r) => r.headers.get("authorization")), [
    `Bearer ${SECRET}`,
    `Bearer ${SECRET}`,
    `Bearer ${SECRET}`,
    `Bearer ${SECRET}`,
    "Bearer @literal",
  ]);
});

Deno.test("refs: -u takes a reference for the whole value or after the first colon", async () => {
  await using server = echo();
  const url = `${server.origin}/me`;
  const whole = await secretFile(`ann:${SECRET}\n`);
  const runs = [
    await dial(["GET", url, "-u", `@${whole}`]),
    await dial(["GET", url, "-u", "@env:CREDS"], { env: { CREDS: `ann:${SECRET}` } }),
    await dial(["GET", url, "-u", "ann:@env:PW"], { env: { PW: SECRET } }),
    await dial(["GET", url, "-u", "ann:@-"], { stdin: `${SECRET}\n` }),
    await dial(["GET", url, "-u", `ann:@${await secretFile(SECRET)}`]),
    await dial(["GET", url, "-u", "ann:@@pw"]),
  ];
  for (const run of runs) assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(server.requests.map((r) => r.headers.get("authorization")), [
    basic("ann", SECRET),
    basic("ann", SECRET),
    basic("ann", SECRET),
    basic("ann", SECRET),
    basic("ann", SECRET),
    basic("ann", "@pw"),
  ]);
});

Deno.test("refs: each -K value may be a reference", async () => {
  await using server = echo();
  const file = await secretFile(`${SECRET}\n`);
  const result = await dial([
    "GET",
    `${server.origin}/items`,
    "-K",
    `a=@${file}`,
    "-K",
    "b=@env:KEY_B",
    "-K",
    "c=@-",
    "-K",
    "d=@@x",
  ], { env: { KEY_B: "bee" }, stdin: "sea\n" });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(
    new URL(server.requests[0]!.url).search,
    `?a=${SECRET}&b=bee&c=sea&d=%40x`,
  );
});

Deno.test("refs: -H @PATH and -H @- read header lines, skipping blanks and comments", async () => {
  await using server = echo();
  const file = await secretFile(`# API headers\nX-Api-Key: ${SECRET}\n\nX-Team: blue\r\n`);
  const fromFile = await dial(["GET", `${server.origin}/a`, "-H", `@${file}`, "-v"]);
  assert.equal(fromFile.code, 0, fromFile.stderr);
  const fromStdin = await dial(["GET", `${server.origin}/b`, "-H", "@-"], {
    stdin: "X-Other: one\nX-Token: two\n",
  });
  assert.equal(fromStdin.code, 0, fromStdin.stderr);
  assert.equal(server.requests[0]!.headers.get("x-api-key"), SECRET);
  assert.equal(server.requests[0]!.headers.get("x-team"), "blue");
  assert.equal(server.requests[1]!.headers.get("x-other"), "one");
  assert.equal(server.requests[1]!.headers.get("x-token"), "two");
  // A credential-named header from a file is redacted like one given on the command line.
  assert.match(fromFile.stderr, /x-api-key: \(redacted\)/i);
  excludes(fromFile.stderr, SECRET);
});

Deno.test("refs: a bad line in a header file names the line, not its text", async () => {
  await using server = echo();
  const file = await secretFile(`X-Ok: 1\nAuthorization Bearer ${SECRET}\n`);
  const result = await dial(["GET", server.origin, "-H", `@${file}`]);
  assert.equal(result.code, 2);
  includes(result.stderr, `Cannot parse line 2 of -H @${file}`);
  excludes(result.stderr, SECRET);
  assert.equal(server.requests.length, 0);
});

Deno.test("refs: a missing file, an unset variable and two stdin readers are exit 2, no secret shown", async () => {
  await using server = echo();
  const url = `${server.origin}/me`;
  const cases: Array<[string[], string, Record<string, string>?]> = [
    [["-B", "@/nonexistent/token"], "Cannot read -B @/nonexistent/token: no such file"],
    [
      ["-B", "@env:NOT_SET_ANYWHERE"],
      "Cannot read -B @env:NOT_SET_ANYWHERE: the environment variable NOT_SET_ANYWHERE is not set",
    ],
    [["-u", "ann:@env:NOPE"], "Cannot read -u USER:@env:NOPE"],
    [["-K", "k=@/nonexistent/k"], "Cannot read -K k=@/nonexistent/k: no such file"],
    [["-B", "@-", "-K", "k=@-"], "Both -K k=@- and -B @- read standard input"],
    [["-u", "ann:@-", "-H", "@-"], "Both -H @- and -u USER:@- read standard input"],
    [["-H", "@-", "-H", "@-"], "Both -H @- and -H @- read standard input"],
    [["-d", "@-", "-B", "@-"], "Both -d @- and -B @- read standard input"],
    [["-H", "@/nonexistent/headers"], "Cannot read -H @/nonexistent/headers: no such file"],
  ];
  for (const [flags, message, env] of cases) {
    const method = flags.includes("-d") ? "POST" : "GET";
    const result = await dial([method, url, ...flags], {
      stdin: `${SECRET}\n`,
      env: { OTHER: SECRET, ...env },
    });
    assert.equal(result.code, 2, `${flags.join(" ")}: ${result.stderr}`);
    includes(result.stderr, message);
    excludes(result.stderr + result.stdout, SECRET);
  }
  assert.equal(server.requests.length, 0);
});

Deno.test("refs: the same references work in dial graphql, dial sse and dial ws", async () => {
  await using server = serve((request) => {
    if (request.headers.get("upgrade") === "websocket") {
      const { socket, response } = Deno.upgradeWebSocket(request);
      socket.onopen = () => socket.close(1000);
      return response;
    }
    if (new URL(request.url).pathname === "/events") {
      return new Response("data: hi\n\n", { headers: { "content-type": "text/event-stream" } });
    }
    return Response.json({ data: { __typename: "Query" } });
  });
  const env = { TOKEN: SECRET };
  const gql = await dial([
    "graphql",
    `${server.origin}/graphql`,
    "-q",
    "{ __typename }",
    "-B",
    "@env:TOKEN",
  ], { env });
  assert.equal(gql.code, 0, gql.stderr);
  const sse = await dial(["sse", `${server.origin}/events`, "-B", "@-", "--max-events", "1"], {
    stdin: `${SECRET}\n`,
  });
  assert.equal(sse.code, 0, sse.stderr);
  const ws = await dial(["ws", `ws://127.0.0.1:${server.port}/ws`, "-u", "ann:@env:TOKEN"], {
    env,
    stdin: "",
  });
  assert.equal(ws.code, 0, ws.stderr);
  const auth = server.requests.map((r) => r.headers.get("authorization"));
  assert.deepEqual(auth, [`Bearer ${SECRET}`, `Bearer ${SECRET}`, basic("ann", SECRET)]);
});

Deno.test("refs: a child given every credential by reference shows none in /proc/<pid>/cmdline", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  let release!: () => void;
  const hold = new Promise<void>((resolve) => release = resolve);
  let arrived!: () => void;
  const reached = new Promise<void>((resolve) => arrived = resolve);
  await using server = serve(async () => {
    arrived();
    await hold;
    return new Response("ok");
  });
  const file = await secretFile(`${SECRET}-file\n`);
  const main = new URL("../../main.ts", import.meta.url).pathname;
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--quiet",
      main,
      "GET",
      `${server.origin}/slow`,
      "-B",
      `@${file}`,
      "-K",
      "k=@env:DIAL_TEST_KEY",
      "-H",
      "@-",
    ],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { DIAL_TEST_KEY: `${SECRET}-env` },
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(`X-Api-Key: ${SECRET}-stdin\n`));
  await writer.close();
  await reached;
  const cmdline = await Deno.readTextFile(`/proc/${child.pid}/cmdline`);
  release();
  const output = await child.output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  includes(cmdline, "@env:DIAL_TEST_KEY");
  excludes(cmdline, SECRET);
  const received = server.requests[0]!;
  assert.equal(received.headers.get("authorization"), `Bearer ${SECRET}-file`);
  assert.equal(received.headers.get("x-api-key"), `${SECRET}-stdin`);
  assert.equal(new URL(received.url).searchParams.get("k"), `${SECRET}-env`);
});
