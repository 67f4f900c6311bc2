/**
 * AWS Signature Version 4 against AWS's published examples: the S3 API reference's four
 * signature calculations (sig-v4-header-based-auth) and the SigV4 test suite's get-vanilla.
 */
import assert from "node:assert/strict";
import {
  canonicalQuery,
  parseSigV4Value,
  scopeOf,
  signatureOf,
  type SigV4Options,
} from "../../src/auth/sigv4.ts";
import { Secret } from "../../src/secret.ts";

const S3: SigV4Options = {
  provider1: "aws",
  provider2: "amz",
  region: "us-east-1",
  service: "s3",
  accessKeyId: "AKIAIOSFODNN7EXAMPLE",
  // The S3 reference's example key has "/" where the test suite's has "+".
  secretAccessKey: new Secret("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
};
const EMPTY = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const DATE = "20130524T000000Z";

function signature(authorization: string): string {
  return /Signature=([0-9a-f]{64})$/.exec(authorization)?.[1] ?? "";
}

Deno.test("sigv4: S3 GET Object example (range header)", () => {
  const { authorization, canonicalRequest } = signatureOf(S3, {
    method: "GET",
    url: new URL("https://examplebucket.s3.amazonaws.com/test.txt"),
    headers: [["Range", "bytes=0-9"], ["x-amz-content-sha256", EMPTY], ["x-amz-date", DATE]],
    payloadHash: EMPTY,
    amzDate: DATE,
  });
  assert.equal(
    canonicalRequest,
    `GET\n/test.txt\n\nhost:examplebucket.s3.amazonaws.com\nrange:bytes=0-9\nx-amz-content-sha256:${EMPTY}\nx-amz-date:${DATE}\n\nhost;range;x-amz-content-sha256;x-amz-date\n${EMPTY}`,
  );
  assert.equal(
    signature(authorization),
    "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
  );
  assert.match(
    authorization,
    /^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/20130524\/us-east-1\/s3\/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, /,
  );
});

Deno.test("sigv4: S3 PUT Object example (date header, $ in the key, a payload)", () => {
  const hash = "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072";
  const { authorization } = signatureOf(S3, {
    method: "PUT",
    url: new URL("https://examplebucket.s3.amazonaws.com/test$file.text"),
    headers: [
      ["Date", "Fri, 24 May 2013 00:00:00 GMT"],
      ["x-amz-date", DATE],
      ["x-amz-storage-class", "REDUCED_REDUNDANCY"],
      ["x-amz-content-sha256", hash],
    ],
    payloadHash: hash,
    amzDate: DATE,
  });
  assert.equal(
    signature(authorization),
    "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd",
  );
});

Deno.test("sigv4: S3 GET Bucket Lifecycle and List Objects examples (query strings)", () => {
  const sign = (url: string) =>
    signature(
      signatureOf(S3, {
        method: "GET",
        url: new URL(url),
        headers: [["x-amz-content-sha256", EMPTY], ["x-amz-date", DATE]],
        payloadHash: EMPTY,
        amzDate: DATE,
      }).authorization,
    );
  assert.equal(
    sign("https://examplebucket.s3.amazonaws.com/?lifecycle"),
    "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543",
  );
  assert.equal(
    sign("https://examplebucket.s3.amazonaws.com/?prefix=J&max-keys=2"),
    "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7",
  );
});

Deno.test("sigv4: the test suite's get-vanilla", () => {
  const { authorization } = signatureOf({
    ...S3,
    service: "service",
    accessKeyId: "AKIDEXAMPLE",
    secretAccessKey: new Secret("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
  }, {
    method: "GET",
    url: new URL("https://example.amazonaws.com/"),
    headers: [["X-Amz-Date", "20150830T123600Z"]],
    payloadHash: EMPTY,
    amzDate: "20150830T123600Z",
  });
  assert.equal(
    authorization,
    "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31",
  );
});

Deno.test("sigv4: the value splits as curl's; region and service come from the host", () => {
  assert.deepEqual(parseSigV4Value("aws:amz:eu-west-1:es"), {
    provider1: "aws",
    provider2: "amz",
    region: "eu-west-1",
    service: "es",
  });
  assert.deepEqual(parseSigV4Value("osc"), { provider1: "osc", provider2: "osc" });
  assert.throws(() => parseSigV4Value("aws::x"), /Invalid AWS SigV4 value "aws::x"/);
  assert.deepEqual(scopeOf("ec2.us-east-1.amazonaws.com", {}), {
    region: "us-east-1",
    service: "ec2",
  });
  assert.deepEqual(scopeOf("bucket.s3.eu-central-1.amazonaws.com", {}), {
    region: "eu-central-1",
    service: "s3",
  });
  assert.deepEqual(scopeOf("127.0.0.1", { region: "r", service: "s3" }), {
    region: "r",
    service: "s3",
  });
  assert.throws(() => scopeOf("localhost", {}), /Cannot tell the region and service/);
});

Deno.test("sigv4: canonical query encodes and sorts by name, then value", () => {
  assert.equal(canonicalQuery(new URL("http://h/?b=2&a=x%20y&a=1&c")), "a=1&a=x%20y&b=2&c=");
});

Deno.test("sigv4: a streamed body (a pipe over 8 MiB) is UNSIGNED-PAYLOAD for S3, refused for others", async () => {
  const { sigv4Signer } = await import("../../src/auth/sigv4.ts");
  const request = (url: string) => ({
    method: "PUT",
    url: new URL(url),
    queryKeys: [],
    headers: [],
    body: { kind: "stream" as const, stream: new ReadableStream<Uint8Array>() },
  });
  const signed = await sigv4Signer(S3).sign(request("http://127.0.0.1:9/b/k"));
  assert.equal(
    signed.headers.find((h) => h.name === "x-amz-content-sha256")?.value,
    "UNSIGNED-PAYLOAD",
  );
  await assert.rejects(
    sigv4Signer({ ...S3, service: "execute-api" }).sign(request("http://127.0.0.1:9/x")),
    /Cannot sign a streamed body for the service "execute-api"/,
  );
});
