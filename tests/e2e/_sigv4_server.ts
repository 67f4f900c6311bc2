/**
 * A small S3-style object store on 127.0.0.1 port 0 that verifies AWS Signature Version 4 on
 * every request, written from AWS's documentation independently of dial's signer (Web Crypto
 * here, node:crypto there), and accepts a signature only when `aws4` and the AWS SDK's
 * `@smithy/signature-v4` compute the same one (`_sigv4_independent.ts`). No S3 server from npm
 * or Debian verifies SigV4 (s3rver accepts any V4 signature); curl --aws-sigv4's signatures
 * are checked by the same three in the tests. A WebSocket upgrade that passes is echoed.
 * @module
 */

import { independentSignatures } from "./_sigv4_independent.ts";

/** A verdict the server recorded. */
export interface Verdict {
  method: string;
  path: string;
  ok: boolean;
  reason?: string;
  signedHeaders?: string;
  payloadHash?: string;
}

/** A running verifier. */
export interface SigV4Server {
  origin: string;
  verdicts: Verdict[];
  [Symbol.asyncDispose](): Promise<void>;
}

const encoder = new TextEncoder();

async function hmac(key: Uint8Array, text: string): Promise<Uint8Array> {
  const k = await crypto.subtle.importKey(
    "raw",
    key as Uint8Array<ArrayBuffer>,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, encoder.encode(text)));
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return new Uint8Array(digest).toHex();
}

/** RFC 3986 unreserved characters stay; everything else is %XX, upper case. */
function uriEncode(text: string): string {
  let out = "";
  for (const byte of encoder.encode(text)) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

function canonicalQuery(search: string): string {
  if (search.length <= 1) return "";
  const pairs = search.slice(1).split("&").filter(Boolean).map((pair) => {
    const [name = "", ...rest] = pair.split("=");
    return [uriEncode(decodeURIComponent(name)), uriEncode(decodeURIComponent(rest.join("=")))];
  });
  pairs.sort((a, b) => (a[0]! + "\0" + a[1]!) < (b[0]! + "\0" + b[1]!) ? -1 : 1);
  return pairs.map(([n, v]) => `${n}=${v}`).join("&");
}

/**
 * Starts the store. Keys: `{accessKeyId: secret}`; objects live in memory.
 *
 * @param keys the known key pairs
 * @param options the session token a key must come with, and the region
 * @returns the running server
 */
export function startSigV4Server(
  keys: Record<string, string>,
  options: { sessionTokens?: Record<string, string>; region?: string } = {},
): SigV4Server {
  const objects = new Map<string, Uint8Array>();
  const verdicts: Verdict[] = [];
  const region = options.region ?? "us-east-1";
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const url = new URL(request.url);
    const body = new Uint8Array(await request.arrayBuffer());
    const refuse = (reason: string) => {
      verdicts.push({ method: request.method, path: url.pathname, ok: false, reason });
      return Response.json({ error: "SignatureDoesNotMatch", reason }, { status: 403 });
    };
    const match =
      /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/
        .exec(request.headers.get("authorization") ?? "");
    if (!match) return refuse("no SigV4 Authorization header");
    const [, keyId, date, scopeRegion, service, signedHeaders, signature] =
      match as unknown as string[];
    const secret = keys[keyId!];
    if (secret === undefined) return refuse("unknown access key");
    if (scopeRegion !== region) return refuse(`wrong region ${scopeRegion}`);
    const amzDate = request.headers.get("x-amz-date") ?? "";
    if (!amzDate.startsWith(date!)) return refuse("x-amz-date does not match the scope");
    const names = signedHeaders!.split(";");
    if (!names.includes("host") || !names.includes("x-amz-date")) {
      return refuse("host and x-amz-date must be signed");
    }
    const expectedToken = options.sessionTokens?.[keyId!];
    if (expectedToken !== undefined) {
      if (request.headers.get("x-amz-security-token") !== expectedToken) {
        return refuse("missing or wrong session token");
      }
      if (!names.includes("x-amz-security-token")) return refuse("session token not signed");
    }
    const bodyHash = await sha256(body);
    const declared = request.headers.get("x-amz-content-sha256");
    if (declared !== null && declared !== "UNSIGNED-PAYLOAD" && declared !== bodyHash) {
      return refuse("x-amz-content-sha256 does not match the body");
    }
    const payloadHash = declared ?? bodyHash;
    const path = url.pathname.split("/").map((s) => uriEncode(decodeURIComponent(s))).join("/");
    const canonical = [
      request.method,
      path || "/",
      canonicalQuery(url.search),
      names.map((n) => `${n}:${(request.headers.get(n) ?? "").trim()}\n`).join(""),
      signedHeaders,
      payloadHash,
    ].join("\n");
    const stringToSign = [
      "AWS4-HMAC-SHA256",
      amzDate,
      `${date}/${scopeRegion}/${service}/aws4_request`,
      await sha256(encoder.encode(canonical)),
    ].join("\n");
    let key = await hmac(encoder.encode(`AWS4${secret}`), date!);
    for (const part of [scopeRegion!, service!, "aws4_request"]) key = await hmac(key, part);
    const expected = (await hmac(key, stringToSign)).toHex();
    if (expected !== signature) return refuse("signature does not match");
    // The same, as aws4 and the AWS SDK's signer compute it.
    const independent = await independentSignatures({
      method: request.method,
      url,
      headers: Object.fromEntries(names.map((n) => [n, (request.headers.get(n) ?? "").trim()])),
      body,
      region: scopeRegion!,
      service: service!,
      accessKeyId: keyId!,
      secretAccessKey: secret,
      ...(expectedToken !== undefined ? { sessionToken: expectedToken } : {}),
    });
    if (independent.aws4 !== signature) {
      return refuse(`aws4 computes another signature (signed ${signedHeaders})`);
    }
    if (independent.smithy !== signature) {
      return refuse(`@smithy/signature-v4 computes another signature (signed ${signedHeaders})`);
    }
    verdicts.push({
      method: request.method,
      path: url.pathname,
      ok: true,
      signedHeaders: signedHeaders!,
      payloadHash,
    });
    if (request.headers.get("upgrade")?.toLowerCase() === "websocket") {
      const { socket, response } = Deno.upgradeWebSocket(request);
      socket.onmessage = (event) => socket.send(`signed ${event.data}`);
      return response;
    }
    if (url.pathname.startsWith("/redirect")) {
      return new Response(null, {
        status: 307,
        headers: { location: url.searchParams.get("to")! },
      });
    }
    if (request.method === "PUT") {
      objects.set(url.pathname, body);
      return new Response(null, { status: 200 });
    }
    const object = objects.get(url.pathname);
    return object
      ? new Response(object as Uint8Array<ArrayBuffer>)
      : Response.json({ error: "NoSuchKey" }, { status: 404 });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    verdicts,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      await server.finished;
    },
  };
}
