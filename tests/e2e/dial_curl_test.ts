/**
 * `dial curl …` side by side with real curl: the same words, the same raw-recording server;
 * the method, target, body, framing and the headers that matter must arrive alike.
 * @module
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { headerValues, type RawRequest, rawServer } from "./_raw_server.ts";

const decoder = new TextDecoder();

async function curl(args: string[], cwd: string): Promise<void> {
  const out = await new Deno.Command("curl", { args: ["-sS", ...args], cwd, stdout: "null" })
    .output();
  assert.equal(out.code, 0, decoder.decode(out.stderr));
}

/** What both tools must agree on. */
function essence(request: RawRequest, headers: string[]) {
  return {
    line: request.line,
    body: decoder.decode(request.body),
    framing: request.framing,
    headers: Object.fromEntries(headers.map((h) => [h, headerValues(request, h).join(", ")])),
  };
}

const CASES: Array<{ name: string; args: (origin: string) => string[]; headers: string[] }> = [
  {
    name: "GitHub style: -H lines, a token, a JSON body with -d",
    args: (o) => [
      "-L",
      "-X",
      "POST",
      "-H",
      "Accept: application/vnd.github+json",
      "-H",
      "Authorization: Bearer ghp_example",
      "-H",
      "X-GitHub-Api-Version: 2022-11-28",
      `${o}/repos/OWNER/REPO/issues`,
      "-d",
      '{"title":"Found a bug","labels":["bug"]}',
    ],
    headers: ["accept", "authorization", "x-github-api-version", "content-type"],
  },
  {
    name: "Stripe style: -u key:, repeated -d joined with &",
    args: (o) => [
      `${o}/v1/customers`,
      "-u",
      "sk_test_4eC39HqLyjWDarjtT1zdp7dc:",
      "-d",
      "name=Jenny Rosen",
      "--data-urlencode",
      "email=jenny rosen@example.com",
    ],
    headers: ["authorization", "content-type"],
  },
  {
    name: "Slack style: --data-urlencode and -G into the query",
    args: (o) => [
      "-G",
      `${o}/api/conversations.history`,
      "--data-urlencode",
      "channel=C1234567890",
      "-d",
      "limit=5",
      "-H",
      "Authorization: Bearer xoxb-token",
    ],
    headers: ["authorization"],
  },
  {
    name: "--json sets both types; -A and -e set their headers",
    args: (o) => [
      "--json",
      '{"a":1}',
      "-A",
      "my-agent/1.0",
      "-e",
      "https://ref.test/",
      `${o}/j`,
    ],
    headers: ["content-type", "accept", "user-agent", "referer"],
  },
  {
    name: "-d @file strips newlines, --data-binary @file keeps them",
    args: (o) => [`${o}/f`, "-d", "@body.txt", "--data-binary", "@body.txt"],
    headers: ["content-type"],
  },
  {
    name: "-I sends HEAD; -b name=value sends a Cookie",
    args: (o) => ["-I", "-b", "a=1; b=2", `${o}/h`],
    headers: ["cookie"],
  },
];

for (const c of CASES) {
  Deno.test(`dial curl: ${c.name}, as curl sends it`, async () => {
    const dir = await Deno.makeTempDir();
    await Deno.writeTextFile(`${dir}/body.txt`, "line one\nline two\n");
    await using server = rawServer(() => ({ headers: [["Content-Type", "text/plain"]] }));
    const args = c.args(server.origin);
    await curl(args, dir);
    const result = await dial(["curl", ...args], { cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(server.requests.length, 2);
    const [fromCurl, fromDial] = server.requests.map((r) => essence(r, c.headers));
    assert.deepEqual(fromDial, fromCurl);
  });
}

Deno.test("dial curl: a multipart -F with a file and a field reaches the server as curl's", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/a.txt`, "file content\n");
  await using server = rawServer();
  const args = ["-F", "note=hello", "-F", "file=@a.txt;type=text/plain", `${server.origin}/up`];
  await curl(args, dir);
  const result = await dial(["curl", ...args], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  const [fromCurl, fromDial] = server.requests.map((r) => {
    const type = headerValues(r, "content-type")[0]!;
    const boundary = type.split("boundary=")[1]!;
    return { line: r.line, body: decoder.decode(r.body).replaceAll(boundary, "B") };
  });
  assert.deepEqual(fromDial, fromCurl);
});

Deno.test("dial curl: an unsupported curl flag is exit 2 naming it, nothing sent", async () => {
  await using server = rawServer();
  const result = await dial(["curl", "--trace-ascii", "x.log", server.origin]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /curl flag --trace-ascii is not supported by dial curl/);
  assert.equal(server.requests.length, 0);
});

Deno.test("dial curl: --help prints the command's help", async () => {
  const result = await dial(["curl", "--help"]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /Usage: dial curl <url> \[curl flags\]/);
});

Deno.test("dial curl: --resolve, --retry and -w go on as plain dial takes them, as curl does", async () => {
  await using server = rawServer();
  const url = `http://api.example.test:${server.port}/r`;
  const args = [
    "-s",
    "--resolve",
    `api.example.test:${server.port}:127.0.0.1`,
    "--retry",
    "1",
    "-w",
    "%{http_code}",
    url,
  ];
  const theirs = await new Deno.Command("curl", { args, stdout: "piped" }).output();
  assert.equal(theirs.code, 0);
  const ours = await dial(["curl", ...args]);
  assert.equal(ours.code, 0, ours.stderr);
  assert.equal(ours.stdout, new TextDecoder().decode(theirs.stdout));
  assert.equal(ours.stdout, "ok200");
  assert.deepEqual(
    server.requests.map((r) => r.headers.find(([n]) => n.toLowerCase() === "host")?.[1]),
    [`api.example.test:${server.port}`, `api.example.test:${server.port}`],
  );
});
