import assert from "node:assert/strict";
import { excludes, includes } from "../assert.ts";
import { dial, dialOnTerminal, hasScript, serve } from "../_helpers.ts";

/** A server that echoes what it received as JSON. */
function echo() {
  return serve(async (request) =>
    Response.json({
      method: request.method,
      url: request.url,
      headers: Object.fromEntries(request.headers),
      body: await request.text(),
    })
  );
}

Deno.test("request: -u sends Basic with the UTF-8 bytes, split at the first colon", async () => {
  await using server = echo();
  const result = await dial(["GET", `${server.origin}/me`, "-u", "jürgen:pä:ss"]);
  assert.equal(result.code, 0, result.stderr);
  const expected = `Basic ${new TextEncoder().encode("jürgen:pä:ss").toBase64()}`;
  assert.equal(server.requests[0]!.headers.get("authorization"), expected);
});

Deno.test("request: --auth is the long form of -u", async () => {
  await using server = echo();
  const result = await dial(["GET", `${server.origin}/me`, "--auth", "ann:pw"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(server.requests[0]!.headers.get("authorization"), `Basic ${btoa("ann:pw")}`);
});

Deno.test("request: -u without a password and no terminal is a usage error, nothing sent", async () => {
  await using server = echo();
  const result = await dial(["GET", `${server.origin}/me`, "-u", "ann"], { stdin: "" });
  assert.equal(result.code, 2);
  includes(result.stderr, 'error: Missing password in -u "ann"');
  assert.equal(server.requests.length, 0);
});

Deno.test("request: -B and --bearer send a Bearer token", async () => {
  await using server = echo();
  for (const flag of ["-B", "--bearer"]) {
    const result = await dial(["GET", `${server.origin}/me`, flag, "t0k.en"]);
    assert.equal(result.code, 0, result.stderr);
  }
  assert.deepEqual(server.requests.map((r) => r.headers.get("authorization")), [
    "Bearer t0k.en",
    "Bearer t0k.en",
  ]);
});

Deno.test("request: -K appends encoded query keys and keeps the query", async () => {
  await using server = echo();
  const result = await dial([
    "GET",
    `${server.origin}/items?page=2`,
    "-K",
    "api_key=a b&c=é",
    "--api-key-query",
    "sig=x=y",
  ]);
  assert.equal(result.code, 0, result.stderr);
  const url = new URL(server.requests[0]!.url);
  assert.equal(url.search, "?page=2&api_key=a%20b%26c%3D%C3%A9&sig=x%3Dy");
  assert.equal(url.searchParams.get("api_key"), "a b&c=é");
});

Deno.test("request: an API key in any -H header is sent as given", async () => {
  await using server = echo();
  const result = await dial([
    "GET",
    `${server.origin}/`,
    "-H",
    "X-Api-Key: k1",
    "-H",
    "X-Custom-Token:  v:with:colons ",
  ]);
  assert.equal(result.code, 0, result.stderr);
  const headers = server.requests[0]!.headers;
  assert.equal(headers.get("x-api-key"), "k1");
  assert.equal(headers.get("x-custom-token"), "v:with:colons");
});

Deno.test("request: two flags setting Authorization are a usage error naming both", async () => {
  await using server = echo();
  const cases: Array<[string[], string]> = [
    [["-u", "a:b", "-B", "t"], "-u and -B"],
    [["-B", "t", "-H", "Authorization: Bearer x"], '-B and -H "Authorization: …"'],
    [["-u", "a:b", "--oauth2", "client_credentials:http://127.0.0.1:9/t:id:s"], "-u and --oauth2"],
  ];
  for (const [flags, names] of cases) {
    const result = await dial(["GET", `${server.origin}/`, ...flags]);
    assert.equal(result.code, 2, flags.join(" "));
    includes(result.stderr, `error: Conflicting flags ${names}`);
  }
  assert.equal(server.requests.length, 0);
});

Deno.test("request: malformed values are usage errors with nothing sent", async () => {
  await using server = echo();
  const cases: Array<[string[], string]> = [
    [
      ["GET", `${server.origin}/`, "-K", "novalue"],
      "Cannot parse -K API key: expected <name>=<value>",
    ],
    [["GET", `${server.origin}/`, "-H", "NoColon"], 'Cannot parse -H header: missing ":"'],
    [["GET", "not a url"], 'Invalid URL "not a url"'],
    [["GET", "ftp://127.0.0.1/x"], "scheme must be http: or https:"],
    [["POST", `${server.origin}/`, "--json", "{bad"], "Invalid JSON in --json"],
    [["POST", `${server.origin}/`, "-d", "@/no/such/file"], 'Cannot read file "/no/such/file"'],
    [["GET", `${server.origin}/`, "--timeout", "soon"], 'Invalid --timeout "soon"'],
    [
      ["GET", `${server.origin}/`, "--oauth2", "implicit:http://x/t:id"],
      'Unknown OAuth 2.0 flow "implicit"',
    ],
    [
      ["GET", `${server.origin}/`, "--oauth2", "password:/token:id"],
      "must be an absolute http(s) URL",
    ],
    [
      ["GET", `${server.origin}/`, "--oauth2", "password:http://127.0.0.1:9/token"],
      "Missing client id",
    ],
    [["GET", `${server.origin}/`, "--oauth2-scope", "read"], "--oauth2-scope needs --oauth2"],
    [["GET", `${server.origin}/`, "--nope"], "unknown option '--nope'"],
  ];
  for (const [args, message] of cases) {
    const result = await dial(args);
    assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
    includes(result.stderr, message);
    excludes(result.stderr, "    at ", "no stack trace");
  }
  assert.equal(server.requests.length, 0);
});

// -v with every secret redacted is the golden case tests/golden/verbose_redacted_secrets.
Deno.test("request: --offline prints the redacted request and sends nothing", async () => {
  await using server = echo();
  const patch = ["PATCH", `${server.origin}/x`, "-u", "ann:SECRET", "--json", '{"a":1}'];
  const result = await dial([...patch, "--offline"]);
  assert.equal(result.code, 0, result.stderr);
  includes(result.stdout, "PATCH /x HTTP/1.1");
  includes(result.stdout, "Authorization: (redacted)");
  includes(result.stdout, '{"a":1}');
  excludes(result.stdout, btoa("ann:SECRET"));
  assert.equal(server.requests.length, 0);
});

Deno.test("request: --curl --with-secrets prints a runnable curl command with the secrets", async () => {
  await using server = echo();
  const post = ["POST", `${server.origin}/x`, "-B", "tok", "-K", "k=v", "-d", "a=1"];
  const result = await dial([...post, "--curl", "--with-secrets"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(
    result.stdout.trim(),
    `curl '${server.origin}/x?k=v' -H 'Authorization: Bearer tok' -H 'User-Agent: dial/0.1.0' -H 'Content-Type: application/x-www-form-urlencoded' --data-raw a=1`,
  );
  assert.equal(server.requests.length, 0);
  // The printed command really does the same request.
  const curl = await new Deno.Command("bash", {
    args: ["-c", result.stdout.trim() + " -s -o /dev/null"],
  }).output();
  assert.equal(curl.code, 0);
  const sent = server.requests[0]!;
  assert.equal(sent.method, "POST");
  assert.equal(new URL(sent.url).search, "?k=v");
  assert.equal(sent.headers.get("authorization"), "Bearer tok");
  assert.equal(await sent.text(), "a=1");
});

Deno.test("request: --curl writes secrets as environment lookups, named on stderr; set, they send the same request", async () => {
  await using server = echo();
  const secrets = ["-B", "tok", "-K", "k=v", "-H", "X-Api-Key: ak"];
  const args = ["POST", `${server.origin}/x`, ...secrets, "-d", "a=1"];
  const result = await dial([...args, "--curl"]);
  assert.equal(result.code, 0, result.stderr);
  for (const secret of ["tok", "k=v", "ak"]) {
    assert.ok(!result.stdout.includes(secret), result.stdout);
  }
  assert.match(result.stdout, /Authorization: Bearer '"\$\{TOKEN\}"/);
  assert.match(result.stderr, /reads \$K, \$TOKEN, \$X_API_KEY from the environment/);
  const curl = await new Deno.Command("bash", {
    args: ["-c", result.stdout.trim() + " -s -o /dev/null"],
    env: { TOKEN: "tok", K: "v", X_API_KEY: "ak" },
  }).output();
  assert.equal(curl.code, 0);
  const sent = server.requests[0]!;
  assert.equal(sent.headers.get("authorization"), "Bearer tok");
  assert.equal(sent.headers.get("x-api-key"), "ak");
  assert.equal(new URL(sent.url).search, "?k=v");
});

Deno.test({
  name: "request: -u user prompts for the password on a terminal without echo",
  ignore: !hasScript,
  async fn() {
    await using server = echo();
    const { code, screen } = await dialOnTerminal(
      ["GET", `${server.origin}/me`, "-u", "ann", "-s"],
      {
        prompt: 'Password for "ann": ',
        type: "pä:ss\r",
      },
    );
    assert.equal(code, 0, screen);
    excludes(screen, "pä:ss");
    assert.equal(
      server.requests[0]!.headers.get("authorization"),
      `Basic ${new TextEncoder().encode("ann:pä:ss").toBase64()}`,
    );
  },
});
