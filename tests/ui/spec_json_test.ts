import assert from "node:assert/strict";
import { parseUiAuth, parseUiRequest } from "../../src/ui/api/spec_json.ts";
import { UsageError } from "../../src/errors/mod.ts";

/**
 * @param panel the OAuth 2.0 panel's fields, over the authorization code flow of client `app`
 * @returns the OAuth 2.0 options it becomes (the test fails unless it becomes OAuth 2.0)
 */
function oauth2Of(panel: Record<string, unknown>) {
  const { auth } = parseUiAuth({
    kind: "oauth2",
    flow: "authorization_code",
    clientId: "app",
    ...panel,
  });
  assert.ok(auth.authorization?.kind === "oauth2");
  return auth.authorization.oauth2;
}

Deno.test("ui api: Basic, Bearer and API-key panels become the CLI's auth spec", () => {
  const basic = parseUiAuth({ kind: "basic", username: "ann", password: "p:w" });
  assert.equal(basic.auth.authorization?.kind, "basic");
  const bearer = parseUiAuth({ kind: "bearer", token: " t0k " });
  assert.equal(
    bearer.auth.authorization?.kind === "bearer" && bearer.auth.authorization.token.reveal(),
    "t0k",
  );
  const header = parseUiAuth({ kind: "apikey", in: "header", name: "X-Api-Key", value: "k" });
  assert.equal(header.headers[0]?.name, "X-Api-Key");
  assert.equal(String(header.headers[0]?.value), "(redacted)");
  const query = parseUiAuth({ kind: "apikey", in: "query", name: "api_key", value: "k" });
  assert.equal(query.auth.queryKeys[0]?.value.reveal(), "k");
});

Deno.test("ui api: OAuth 2.0 fields become the same options as the --oauth2 flags", () => {
  const options = oauth2Of({
    tokenUrl: "http://127.0.0.1:9/token",
    authUrl: "http://127.0.0.1:9/authorize",
    scope: "read write",
    port: "9999",
  });
  assert.equal(options.tokenUrl?.href, "http://127.0.0.1:9/token");
  assert.equal(options.port, 9999);
  assert.equal(options.scope, "read write");
  assert.equal(options.clientSecret, undefined);
});

Deno.test("ui api: the issuer and extra parameters become --oauth2-issuer and --oauth2-param", () => {
  const options = oauth2Of({
    tokenUrl: "",
    issuer: "http://127.0.0.1:9/tenant",
    params: [
      { name: "audience", value: "https://api/" },
      { name: "prompt", value: "login", enabled: false },
      { name: "", value: "ignored" },
    ],
  });
  assert.equal(options.tokenUrl, undefined);
  assert.equal(options.issuer?.href, "http://127.0.0.1:9/tenant");
  assert.deepEqual(options.params, [["audience", "https://api/"]]);
  assert.throws(
    () =>
      parseUiAuth({
        kind: "oauth2",
        flow: "client_credentials",
        tokenUrl: "http://a/t",
        clientId: "a",
        params: [{ name: "grant_type", value: "x" }],
      }),
    /"grant_type" cannot be set/,
  );
  assert.throws(
    () => parseUiAuth({ kind: "oauth2", flow: "client_credentials", clientId: "a" }),
    /Missing token URL for OAuth 2.0/,
  );
});

Deno.test("ui api: Digest and AWS SigV4 panels become the --digest and --aws-sigv4 specs", () => {
  const digest = parseUiAuth({ kind: "digest", username: "ann", password: "pw" });
  assert.equal(digest.auth.authorization?.kind, "digest");
  const { auth } = parseUiAuth({
    kind: "aws-sigv4",
    sigv4: "aws:amz:eu-west-1:es",
    accessKeyId: "AKID",
    secretAccessKey: "s3cr3t",
    sessionToken: "tok",
  });
  assert.ok(auth.authorization?.kind === "aws-sigv4");
  const sigv4 = auth.authorization.sigv4;
  assert.deepEqual([sigv4.provider1, sigv4.provider2, sigv4.region, sigv4.service], [
    "aws",
    "amz",
    "eu-west-1",
    "es",
  ]);
  assert.equal(sigv4.secretAccessKey.reveal(), "s3cr3t");
  assert.equal(sigv4.sessionToken?.reveal(), "tok");
  assert.equal(JSON.stringify(auth).includes("s3cr3t"), false);
  assert.throws(
    () => parseUiAuth({ kind: "aws-sigv4", sigv4: "aws", accessKeyId: "", secretAccessKey: "" }),
    /Missing access key id or secret/,
  );
});

Deno.test("ui api: each bad auth field is a usage error naming it", () => {
  const cases: Array<[unknown, RegExp]> = [
    [
      { kind: "magic" },
      /Invalid auth.kind: expected one of none, basic, digest, bearer, apikey, oauth2, aws-sigv4/,
    ],
    [{ kind: "basic", username: "" }, /Missing user name for Basic auth/],
    [{ kind: "bearer", token: "" }, /Missing token for Bearer auth/],
    [{ kind: "apikey", in: "header", name: "" }, /Missing name for the API key/],
    [{ kind: "oauth2", flow: "implicit" }, /Invalid auth.flow/],
    [
      { kind: "oauth2", flow: "password", tokenUrl: "x", clientId: "a", username: "u" },
      /Invalid URL "x"/,
    ],
    [
      { kind: "oauth2", flow: "authorization_code", tokenUrl: "http://a/t", clientId: "a" },
      /Missing authorization URL for the authorization_code flow/,
    ],
  ];
  for (const [value, message] of cases) {
    assert.throws(
      () => parseUiAuth(value),
      (e: unknown) => e instanceof UsageError && message.test(e.message),
    );
  }
});

Deno.test("ui api: a request appends enabled query parameters and skips disabled rows", () => {
  const spec = parseUiRequest({
    method: "post",
    url: "http://127.0.0.1:9/x?a=1",
    params: [{ name: "b", value: "2 3", enabled: true }, { name: "c", value: "4", enabled: false }],
    headers: [{ name: "X-Token", value: "s", enabled: true }],
    body: { kind: "json", text: '{"n":1}' },
  });
  assert.equal(spec.method, "POST");
  assert.equal(spec.url.href, "http://127.0.0.1:9/x?a=1&b=2+3");
  assert.equal(String(spec.headers[0]?.value), "(redacted)");
  assert.deepEqual(spec.body, { kind: "text", text: '{"n":1}', contentType: "application/json" });
});

Deno.test("ui api: a JSON body must be valid JSON", () => {
  assert.throws(
    () => parseUiRequest({ url: "http://a/", body: { kind: "json", text: "{" } }),
    /Invalid JSON body/,
  );
});

Deno.test("ui api: auth and an Authorization header conflict, as -u and -H do", () => {
  assert.throws(
    () =>
      parseUiRequest({
        url: "http://a/",
        auth: { kind: "bearer", token: "t" },
        headers: [{ name: "Authorization", value: "x", enabled: true }],
      }),
    /Conflicting auth and Authorization header/,
  );
});

Deno.test("ui api: a URL without a scheme is read as on the command line", () => {
  const url = (text: string) => parseUiRequest({ url: text }).url.href;
  assert.equal(url("localhost:8080/x"), "http://localhost:8080/x");
  assert.equal(url(":3000/api"), "http://localhost:3000/api");
  assert.equal(url("example.com"), "http://example.com/");
  assert.equal(url("https://example.com/a"), "https://example.com/a");
  assert.throws(() => parseUiRequest({ url: "ftp://example.com/" }), /scheme must be/);
});

Deno.test("ui api: a JSON body's error names the problem, never the text (it may hold a secret)", () => {
  assert.throws(
    () => parseUiRequest({ url: "http://a/", body: { kind: "json", text: "s3cret-token" } }),
    (error: unknown) => {
      assert.ok(error instanceof UsageError);
      assert.match(error.message, /^Invalid JSON body: /);
      assert.doesNotMatch(error.message, /s3cret/);
      return true;
    },
  );
});

Deno.test("ui api: client_credentials needs a client secret, as --oauth2 does", () => {
  const oauth2 = {
    kind: "oauth2",
    flow: "client_credentials",
    tokenUrl: "http://a/t",
    clientId: "c",
  };
  assert.throws(() => parseUiAuth(oauth2), (error: unknown) => {
    assert.ok(error instanceof UsageError);
    assert.equal(error.message, "Missing client secret for the client_credentials flow");
    assert.deepEqual(error.remedy, { give: "client_secret" });
    return true;
  });
  assert.equal(parseUiAuth({ ...oauth2, clientSecret: "s" }).auth.authorization?.kind, "oauth2");
});
