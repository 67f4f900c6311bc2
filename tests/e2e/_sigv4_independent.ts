/**
 * AWS Signature Version 4 as two signers nobody here wrote compute it, for the verifying store
 * (`_sigv4_server.ts`): `aws4` (the most used npm signer) and `@smithy/signature-v4` (the AWS
 * SDK's). Given a request's signed headers, date and scope, each computes the signature the
 * request should carry.
 * @module
 */
import aws4 from "aws4";
import { SignatureV4 } from "@smithy/signature-v4";
import { createHash, createHmac } from "node:crypto";
import { Buffer } from "node:buffer";

/** What the request says it signed. */
export interface SignedRequest {
  method: string;
  url: URL;
  /** The signed headers' lower-case names and values, as received. */
  headers: Record<string, string>;
  body: Uint8Array;
  region: string;
  service: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

function bytes(data: string | ArrayBuffer | ArrayBufferView): string | Uint8Array {
  if (typeof data === "string") return data;
  return ArrayBuffer.isView(data)
    ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
    : new Uint8Array(data);
}

/** The Smithy signer's hash: SHA-256, or HMAC-SHA256 with a key (node:crypto). */
class Sha256 {
  #hash: ReturnType<typeof createHash> | ReturnType<typeof createHmac>;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.#hash = secret === undefined ? createHash("sha256") : createHmac("sha256", bytes(secret));
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.#hash.update(bytes(data));
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.#hash.digest()));
  }
}

const SIGNATURE = /Signature=([0-9a-f]{64})/;

/**
 * @param request the request as received
 * @returns the signatures aws4 and @smithy/signature-v4 compute for it
 */
export async function independentSignatures(
  request: SignedRequest,
): Promise<{ aws4: string; smithy: string }> {
  const { url } = request;
  const signer = new aws4.RequestSigner({
    method: request.method,
    host: request.headers.host,
    path: `${url.pathname}${url.search}`,
    headers: { ...request.headers },
    body: Buffer.from(request.body),
    service: request.service,
    region: request.region,
    doNotModifyHeaders: true,
  }, {
    accessKeyId: request.accessKeyId,
    secretAccessKey: request.secretAccessKey,
    ...(request.sessionToken ? { sessionToken: request.sessionToken } : {}),
  });
  // With doNotModifyHeaders aws4 would take the time from the clock, not from x-amz-date.
  signer.datetime = request.headers["x-amz-date"] ?? "";
  const signed = signer.sign();
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of url.searchParams) {
    const had = query[name];
    query[name] = had === undefined ? value : [...[had].flat(), value];
  }
  const amzDate = request.headers["x-amz-date"] ?? "";
  const date = new Date(
    amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, "$1-$2-$3T$4:$5:$6Z"),
  );
  const smithy = await new SignatureV4({
    credentials: {
      accessKeyId: request.accessKeyId,
      secretAccessKey: request.secretAccessKey,
      ...(request.sessionToken ? { sessionToken: request.sessionToken } : {}),
    },
    region: request.region,
    service: request.service,
    sha256: Sha256,
    // S3 signs the path as sent; other services encode it once more (AWS's rule).
    uriEscapePath: request.service !== "s3",
    applyChecksum: false,
  }).sign({
    method: request.method,
    protocol: url.protocol,
    hostname: url.hostname,
    ...(url.port ? { port: Number(url.port) } : {}),
    path: url.pathname,
    query,
    headers: { ...request.headers },
    body: request.body,
  }, {
    signingDate: date,
    // Exactly the headers the request lists (the SDK would leave out some dial may sign).
    signableHeaders: new Set(Object.keys(request.headers)),
  });
  const header = (headers: Record<string, unknown> | undefined) =>
    String(headers?.Authorization ?? headers?.authorization ?? "");
  return {
    aws4: SIGNATURE.exec(header(signed.headers as Record<string, unknown>))?.[1] ?? "",
    smithy: SIGNATURE.exec(header(smithy.headers))?.[1] ?? "",
  };
}
