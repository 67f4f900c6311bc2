/**
 * `--aws-sigv4` end to end against a SigV4-verifying S3-style store (tests/e2e/_sigv4_server.ts),
 * side by side with `curl --aws-sigv4` on the same server: text, file and stdin uploads,
 * credentials from -u and from the AWS environment variables with a session token, a wrong
 * secret, redirects.
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { startSigV4Server } from "./_sigv4_server.ts";

const KEY = "AKIDDIALTEST";
const SECRET = "dial/secret+key";
const SIGV4 = "aws:amz:us-east-1:s3";
/** Signing with the test key, as each signed request here does. */
const SIGNED = ["--aws-sigv4", SIGV4, "-u", `${KEY}:${SECRET}`];

async function curl(args: string[]) {
  const output = await new Deno.Command("curl", {
    args: ["-sS", ...SIGNED, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: output.code, stdout: new TextDecoder().decode(output.stdout) };
}

Deno.test("sigv4: dial and curl --aws-sigv4 both pass the verifier, and read each other's objects", async () => {
  await using s3 = startSigV4Server({ [KEY]: SECRET });
  const put = await dial([
    "PUT",
    `${s3.origin}/bucket/from-dial.txt`,
    "--aws-sigv4",
    SIGV4,
    "-u",
    `${KEY}:@env:SECRET`,
    "-d",
    "hello from dial",
  ], { env: { SECRET } });
  assert.equal(put.code, 0, put.stderr);
  // curl 7.88 sends no x-amz-content-sha256; the verifier then hashes the body it got.
  const theirs = await curl([
    "-X",
    "PUT",
    "--data-binary",
    "hello from curl",
    `${s3.origin}/bucket/from-curl.txt`,
  ]);
  assert.equal(theirs.code, 0);
  const readByCurl = await curl([`${s3.origin}/bucket/from-dial.txt`]);
  assert.equal(readByCurl.stdout, "hello from dial");
  const readByDial = await dial([
    "GET",
    `${s3.origin}/bucket/from-curl.txt?x-id=GetObject&a=b%20c`,
    ...SIGNED,
  ]);
  assert.equal(readByDial.stdout, "hello from curl");
  assert.deepEqual(
    s3.verdicts.map((v) => v.ok),
    [true, true, true, true],
    JSON.stringify(s3.verdicts),
  );
  // dial signs the payload hash header S3 requires, and the content type of its body.
  assert.equal(s3.verdicts[0]!.signedHeaders, "content-type;host;x-amz-content-sha256;x-amz-date");
});

Deno.test("sigv4: a file upload and a piped body are hashed; a pipe over 8 MiB goes as UNSIGNED-PAYLOAD to S3", async () => {
  await using s3 = startSigV4Server({ [KEY]: SECRET });
  const file = await Deno.makeTempFile();
  await Deno.writeTextFile(file, "x".repeat(200_000));
  const fromFile = await dial(["PUT", `${s3.origin}/b/big.txt`, ...SIGNED, "-d", `@${file}`]);
  assert.equal(fromFile.code, 0, fromFile.stderr);
  const fromStdin = await dial(["PUT", `${s3.origin}/b/stdin.txt`, ...SIGNED, "-d", "@-"], {
    stdin: "piped",
  });
  assert.equal(fromStdin.code, 0, fromStdin.stderr);
  const large = new Uint8Array(9 * 1024 * 1024).fill(97);
  const streamed = await dial(["PUT", `${s3.origin}/b/large.txt`, ...SIGNED, "-d", "@-"], {
    stdin: large,
  });
  assert.equal(streamed.code, 0, streamed.stderr);
  assert.deepEqual(s3.verdicts.map((v) => [v.ok, v.payloadHash]), [
    [true, await sha256Hex("x".repeat(200_000))],
    [true, await sha256Hex("piped")],
    [true, "UNSIGNED-PAYLOAD"],
  ]);
  const back = await curl([`${s3.origin}/b/stdin.txt`]);
  assert.equal(back.stdout, "piped");
  await Deno.remove(file);
});

Deno.test("sigv4: credentials and session token from AWS_* variables, the token signed", async () => {
  await using s3 = startSigV4Server({ [KEY]: SECRET }, { sessionTokens: { [KEY]: "tok/en+1" } });
  const env = {
    AWS_ACCESS_KEY_ID: KEY,
    AWS_SECRET_ACCESS_KEY: SECRET,
    AWS_SESSION_TOKEN: "tok/en+1",
  };
  const result = await dial(["GET", `${s3.origin}/b/none`, "--aws-sigv4", SIGV4, "-v"], { env });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(s3.verdicts[0]?.ok, true, JSON.stringify(s3.verdicts));
  assert.match(s3.verdicts[0]!.signedHeaders!, /x-amz-security-token/);
  // Under -v the signature and the token are redacted; the date is shown.
  assert.match(result.stderr, /^authorization: \(redacted\)$/mi);
  assert.match(result.stderr, /^x-amz-security-token: \(redacted\)$/mi);
  assert.match(result.stderr, /^x-amz-date: \d{8}T\d{6}Z$/mi);
  assert.doesNotMatch(result.stderr, /tok\/en\+1|dial\/secret/);
  const noToken = await dial(["GET", `${s3.origin}/b/none`, "--aws-sigv4", SIGV4], {
    env: { AWS_ACCESS_KEY_ID: KEY, AWS_SECRET_ACCESS_KEY: SECRET },
  });
  assert.equal(noToken.code, 0);
  assert.equal(s3.verdicts[1]?.reason, "missing or wrong session token");
});

Deno.test("sigv4: a wrong secret is refused by the verifier (403, as for curl)", async () => {
  await using s3 = startSigV4Server({ [KEY]: SECRET });
  const result = await dial([
    "GET",
    `${s3.origin}/b/x`,
    "--aws-sigv4",
    SIGV4,
    "-u",
    `${KEY}:wrong`,
    "--check-status",
  ]);
  assert.equal(result.code, 4);
  const theirs = await new Deno.Command("curl", {
    args: [
      "-s",
      "-o",
      "/dev/null",
      "-w",
      "%{http_code}",
      "--aws-sigv4",
      SIGV4,
      "-u",
      `${KEY}:wrong`,
      `${s3.origin}/b/x`,
    ],
    stdout: "piped",
  }).output();
  assert.equal(new TextDecoder().decode(theirs.stdout), "403");
  assert.deepEqual(s3.verdicts.map((v) => v.reason), [
    "signature does not match",
    "signature does not match",
  ]);
});

Deno.test("sigv4: each same-origin redirect hop is signed anew; another origin gets nothing", async () => {
  await using s3 = startSigV4Server({ [KEY]: SECRET });
  await using other = startSigV4Server({ [KEY]: SECRET });
  const to = encodeURIComponent("/b/target?x=1");
  const result = await dial(["GET", `${s3.origin}/redirect?to=${to}`, "-L", ...SIGNED]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(s3.verdicts.map((v) => [v.path, v.ok]), [["/redirect", true], [
    "/b/target",
    true,
  ]]);
  const away = encodeURIComponent(`${other.origin}/b/elsewhere`);
  await dial(["GET", `${s3.origin}/redirect?to=${away}`, "-L", ...SIGNED]);
  assert.deepEqual(other.verdicts.map((v) => v.reason), ["no SigV4 Authorization header"]);
});

Deno.test("sigv4: --curl gives curl --aws-sigv4; credentials are required; -B conflicts", async () => {
  const shown = await dial([
    "GET",
    "http://127.0.0.1:9/b",
    "--aws-sigv4",
    SIGV4,
    "-u",
    "k:s",
    "--curl",
  ]);
  assert.match(shown.stdout, /--aws-sigv4 aws:amz:us-east-1:s3 -u k:"\$\{AWS_SECRET_ACCESS_KEY\}"/);
  const secrets = await dial(
    ["GET", "http://127.0.0.1:9/b", "--aws-sigv4", SIGV4, "-u", "k:s", "--curl", "--with-secrets"],
  );
  assert.match(secrets.stdout, /--aws-sigv4 aws:amz:us-east-1:s3 -u k:s/);
  const none = await dial(["GET", "http://127.0.0.1:9/b", "--aws-sigv4", SIGV4]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /--aws-sigv4 needs credentials/);
  const both = await dial(["GET", "http://127.0.0.1:9/b", "--aws-sigv4", SIGV4, "-B", "t"]);
  assert.match(both.stderr, /Conflicting flags --aws-sigv4 and -B/);
});

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return new Uint8Array(digest).toHex();
}

Deno.test("sigv4: dial graphql and dial sse sign their requests too", async () => {
  await using s3 = startSigV4Server({ [KEY]: SECRET });
  // The store answers 404 (it speaks neither protocol); what counts is that it verified them.
  await dial(["graphql", `${s3.origin}/graphql`, "-q", "{ a }", ...SIGNED]);
  await dial(["sse", `${s3.origin}/events`, ...SIGNED]);
  assert.deepEqual(s3.verdicts.map((v) => [v.method, v.path, v.ok]), [
    ["POST", "/graphql", true],
    ["GET", "/events", true],
  ]);
});

Deno.test("sigv4: dial ws signs the upgrade GET; the store (and aws4, the AWS SDK's signer) accept it", async () => {
  await using s3 = startSigV4Server({ [KEY]: SECRET });
  const url = `${s3.origin.replace("http:", "ws:")}/stream?channel=a%20b`;
  const result = await dial(
    ["ws", url, "--aws-sigv4", SIGV4, "-u", `${KEY}:${SECRET}`, "--max-messages", "1"],
    { stdin: "hello\n" },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "signed hello\n");
  assert.deepEqual(s3.verdicts.map((v) => [v.method, v.path, v.ok, v.signedHeaders]), [
    ["GET", "/stream", true, "host;x-amz-content-sha256;x-amz-date"],
  ]);
  const wrong = await dial(
    ["ws", url, "--aws-sigv4", SIGV4, "-u", `${KEY}:not-the-secret`],
    { stdin: "hello\n" },
  );
  assert.equal(wrong.code, 4, wrong.stderr);
  assert.match(wrong.stderr, /WebSocket handshake refused by 127\.0\.0\.1:\d+: HTTP 403/);
  assert.equal(s3.verdicts[1]?.reason, "signature does not match");
});
