/**
 * `dial … --export FORMAT`: the request given by flags, printed instead of sent. The curl,
 * HTTPie, Python requests and fetch code it prints is run against a raw-recording server and
 * must send what `dial` itself sends with the same flags; secrets are read from the
 * environment unless `--with-secrets`.
 * @module
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { headerValues, type RawRequest, rawServer } from "./_raw_server.ts";

const decoder = new TextDecoder();

/** What dial and the exported code must agree on (a multipart boundary is each one's own). */
function view(r: RawRequest) {
  const type = headerValues(r, "content-type").join();
  const boundary = /boundary=(\S+)/.exec(type)?.[1];
  // After the closing delimiter comes the epilogue, which a reader ignores (RFC 2046 5.1.1):
  // dial ends it with CRLF, a .http multipart body ends at the delimiter.
  const unbound = (s: string) =>
    boundary ? s.replaceAll(boundary, "BOUNDARY").replace(/--BOUNDARY--\r\n$/, "--BOUNDARY--") : s;
  return {
    line: r.line,
    authorization: headerValues(r, "authorization"),
    key: headerValues(r, "x-api-key"),
    accept: headerValues(r, "accept").filter((v) => v !== "*/*"),
    type: unbound(type),
    body: unbound(decoder.decode(r.body)),
  };
}

const RUNNERS: Record<string, { ext: string; run: (file: string) => string[] }> = {
  curl: { ext: "sh", run: (f) => ["bash", f] },
  httpie: { ext: "sh", run: (f) => ["bash", f] },
  python: { ext: "py", run: (f) => ["python3", f] },
  fetch: {
    ext: "mjs",
    run: (f) => [Deno.execPath(), "run", "--allow-net", "--allow-env", "--allow-read", f],
  },
};

const CASES: Array<{
  name: string;
  args: (origin: string) => string[];
  env: Record<string, string>;
  secrets: string[];
}> = [
  {
    name: "Bearer token, API-key header and query key, a JSON body",
    args: (o) => [
      "POST",
      `${o}/things?kind=pen`,
      "-B",
      "tok-123",
      "-H",
      "X-Api-Key: key-456",
      "-K",
      "api_key=q-789",
      "--json",
      '{"name":"pen","n":2}',
    ],
    env: { TOKEN: "tok-123", X_API_KEY: "key-456", API_KEY: "q-789" },
    secrets: ["tok-123", "key-456", "q-789"],
  },
  {
    name: "Basic auth and a form body",
    args: (o) => ["PUT", `${o}/login`, "-u", "ann:pw-secret", "-d", "a=1", "-d", "b=x y"],
    env: { PASSWORD: "pw-secret" },
    secrets: ["pw-secret"],
  },
  {
    name: "a multipart form with a file",
    args: (o) => ["POST", `${o}/upload`, "-F", "title=Q3", "-F", "file=@notes.txt"],
    env: {},
    secrets: [],
  },
];

for (const c of CASES) {
  Deno.test(`--export: ${c.name}: curl, HTTPie, Python and fetch code send what dial sends`, async () => {
    await using server = rawServer();
    const dir = await Deno.makeTempDir({ prefix: "dial-export-flags-" });
    await Deno.writeTextFile(`${dir}/notes.txt`, "line one\nline two\n");
    const args = c.args(server.origin);
    const sent = await dial(args, { cwd: dir });
    assert.equal(sent.code, 0, sent.stderr);
    const expected = view(server.requests.splice(0)[0]!);
    for (const [target, runner] of Object.entries(RUNNERS)) {
      const exported = await dial([...args, "--export", target], { cwd: dir });
      assert.equal(exported.code, 0, exported.stderr);
      assert.equal(server.requests.length, 0, `${target}: --export sent nothing`);
      for (const secret of c.secrets) {
        assert.ok(!exported.stdout.includes(secret), `${target}: ${exported.stdout}`);
      }
      const file = `${dir}/code-${target}.${runner.ext}`;
      await Deno.writeTextFile(file, exported.stdout);
      const [cmd, ...rest] = runner.run(file);
      const out = await new Deno.Command(cmd!, {
        args: rest,
        cwd: dir,
        env: { ...c.env, PATH: Deno.env.get("PATH")!, HOME: dir },
        clearEnv: true,
        stdout: "null",
      }).output();
      assert.equal(out.code, 0, `${target}: ${decoder.decode(out.stderr)}\n${exported.stdout}`);
      assert.deepEqual(view(server.requests.splice(0)[0]!), expected, target);
    }
  });
}

Deno.test("--export curl --with-secrets writes the values; curl sends what dial sends", async () => {
  await using server = rawServer();
  const dir = await Deno.makeTempDir({ prefix: "dial-export-flags-" });
  const args = ["GET", `${server.origin}/me`, "-B", "tok-123", "-H", "X-Api-Key: key-456"];
  const sent = await dial(args);
  assert.equal(sent.code, 0, sent.stderr);
  const expected = view(server.requests.splice(0)[0]!);
  const exported = await dial([...args, "--export", "curl", "--with-secrets"]);
  assert.equal(exported.code, 0, exported.stderr);
  assert.match(exported.stdout, /tok-123/);
  await Deno.writeTextFile(`${dir}/c.sh`, exported.stdout);
  const out = await new Deno.Command("bash", {
    args: [`${dir}/c.sh`],
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH")! },
    stdout: "null",
  }).output();
  assert.equal(out.code, 0, decoder.decode(out.stderr));
  assert.deepEqual(view(server.requests.splice(0)[0]!), expected);
});

Deno.test("--export http is the request --save writes; Postman and HAR refer to the secret", async () => {
  const args = ["POST", "http://127.0.0.1:9/x", "-B", "tok-123", "--json", '{"a":1}'];
  const http = await dial([...args, "--export", "http"]);
  assert.equal(http.code, 0, http.stderr);
  assert.equal(
    http.stdout,
    [
      "# @no-redirect",
      "POST http://127.0.0.1:9/x",
      "Authorization: Bearer {{token}}",
      "Accept: application/json, */*;q=0.5",
      "Content-Type: application/json",
      "",
      '{"a":1}',
      "",
    ].join("\n"),
  );
  assert.match(http.stderr, /refers to \{\{token\}\}/);
  const postman = await dial([...args, "--export", "postman", "--with-secrets"]);
  assert.equal(postman.code, 0, postman.stderr);
  const collection = JSON.parse(postman.stdout);
  assert.deepEqual(collection.variable, [{ key: "token", value: "tok-123" }]);
  assert.equal(collection.item[0].request.header[0].value, "Bearer {{token}}");
  const har = await dial([...args, "--export", "har"]);
  assert.equal(har.code, 0, har.stderr);
  const entry = JSON.parse(har.stdout).log.entries[0].request;
  assert.deepEqual(entry.headers[0], { name: "Authorization", value: "Bearer {{TOKEN}}" });
});

Deno.test("--export: an OAuth 2.0 token is an environment lookup, never fetched; its client secret is not written", async () => {
  const exported = await dial([
    "GET",
    "http://127.0.0.1:9/me",
    "--oauth2",
    "client_credentials:http://127.0.0.1:9/token:app:app-s3cret",
    "--export",
    "python",
    "--with-secrets",
  ]);
  assert.equal(exported.code, 0, exported.stderr);
  assert.match(exported.stdout, /"Authorization": "Bearer " \+ os\.environ\["DIAL_TOKEN"\]/);
  assert.doesNotMatch(exported.stdout, /app-s3cret/);
  assert.match(exported.stderr, /reads \$DIAL_TOKEN from the environment/);
});

Deno.test("--export: curl carries -k and --connect-timeout as --curl does; code names them as not carried", async () => {
  const args = ["GET", "https://127.0.0.1:9/x", "-k", "--connect-timeout", "2"];
  const curl = await dial([...args, "--export", "curl"]);
  assert.equal(curl.code, 0, curl.stderr);
  assert.match(curl.stdout, /^curl https:\/\/127\.0\.0\.1:9\/x -k --connect-timeout 2$/m);
  assert.doesNotMatch(curl.stderr, /Not carried/);
  const python = await dial([...args, "--export", "python"]);
  assert.equal(python.code, 0, python.stderr);
  assert.match(python.stderr, /Not carried by --export: -k --connect-timeout/);
});

Deno.test("--export: usage errors before anything is sent or written", async () => {
  const both = await dial(["GET", "http://127.0.0.1:9/x", "--export", "curl", "--curl"]);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /Give one of --export, --curl/);
  const secrets = await dial(["GET", "http://127.0.0.1:9/x", "--with-secrets"]);
  assert.equal(secrets.code, 2);
  assert.match(secrets.stderr, /--with-secrets needs --curl or --export/);
  const digest = await dial([
    "GET",
    "http://127.0.0.1:9/x",
    "-u",
    "a:b",
    "--digest",
    "--export",
    "python",
  ]);
  assert.equal(digest.code, 2);
  assert.match(digest.stderr, /cannot write Digest credentials/);
  const bad = await dial(["GET", "http://127.0.0.1:9/x", "--export", "ruby"]);
  assert.equal(bad.code, 2);
});
