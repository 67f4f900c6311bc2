/**
 * AWS SigV4 in request files, in REST Client's and httpyac's form
 * (`Authorization: AWS key secret [token:…] [region:…] [service:…]`): dial run and httpyac run
 * the same file against the verifying store (its own check, aws4 and the AWS SDK's signer).
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { httpyac } from "./_files.ts";
import { startSigV4Server } from "./_sigv4_server.ts";

const KEY = "AKIDFILES";
const SECRET = "files/secret+key";

async function project(origin: string, object: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "dial-sigv4-files-" });
  await Deno.writeTextFile(
    `${dir}/s3.http`,
    `### put
PUT ${origin}/bucket/${object}
Content-Type: text/plain
Authorization: AWS {{key}} {{secret}} region:us-east-1 service:s3

hello from a request file

### get
GET ${origin}/bucket/${object}
Authorization: AWS {{key}} {{secret}} region:us-east-1 service:s3
`,
  );
  await Deno.writeTextFile(`${dir}/http-client.env.json`, JSON.stringify({ dev: { key: KEY } }));
  await Deno.writeTextFile(
    `${dir}/http-client.private.env.json`,
    JSON.stringify({ dev: { secret: SECRET } }),
  );
  return dir;
}

Deno.test("sigv4 files: dial run and httpyac sign the same file; the store verifies both", async () => {
  await using s3 = startSigV4Server({ [KEY]: SECRET });
  const mine = await project(s3.origin, "dial.txt");
  const result = await dial(["run", `${mine}/s3.http`, "--env", "dev"]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /hello from a request file/);
  assert.doesNotMatch(result.stdout + result.stderr, /files\/secret/);
  const theirs = await project(s3.origin, "httpyac.txt");
  const output = await httpyac([`${theirs}/s3.http`, "--all", "--env", "dev", "-o", "body"], {
    cwd: theirs,
  });
  const text = output.stdout + output.stderr;
  assert.equal(output.code, 0, text);
  assert.match(text, /hello from a request file/);
  assert.deepEqual(s3.verdicts.map((v) => [v.method, v.path, v.ok]), [
    ["PUT", "/bucket/dial.txt", true],
    ["GET", "/bucket/dial.txt", true],
    ["PUT", "/bucket/httpyac.txt", true],
    ["GET", "/bucket/httpyac.txt", true],
  ]);
});

Deno.test("sigv4 files: a wrong secret is the store's 403; an S3 v2 header is sent as written", async () => {
  await using s3 = startSigV4Server({ [KEY]: SECRET });
  const dir = await Deno.makeTempDir({ prefix: "dial-sigv4-files-" });
  await Deno.writeTextFile(
    `${dir}/s3.http`,
    `GET ${s3.origin}/bucket/x
Authorization: AWS ${KEY} not-the-secret region:us-east-1 service:s3

### v2
GET ${s3.origin}/bucket/y
Authorization: AWS ${KEY}:c2lnbmF0dXJl
`,
  );
  const result = await dial(["test", `${dir}/s3.http`]);
  assert.deepEqual(s3.verdicts.map((v) => v.reason), [
    "signature does not match",
    "no SigV4 Authorization header",
  ]);
  assert.doesNotMatch(result.stdout + result.stderr, /not-the-secret/);
});
