/**
 * Sending a streamed body of known length with `Content-Length` framing.
 *
 * Deno's fetch sends every `ReadableStream` body with `Transfer-Encoding: chunked` and drops a
 * `Content-Length` header given with it (denoland/deno#24197; the fix, #35109, is not in Deno
 * 2.9). Servers such as Python's wsgiref, S3 presigned PUTs and many proxies then read an
 * empty body. A `Blob` gets a length but lives in memory, and `node:fs.openAsBlob` reads the
 * whole file too. Deno's `node:http` client does stream a body under a `Content-Length` the
 * caller sets, so file and multipart bodies go through it: the bytes are read chunk by chunk,
 * with backpressure, and counted against the announced length.
 * @module
 */
import { Buffer } from "node:buffer";
import http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";
import tls from "node:tls";
import zlib from "node:zlib";

/** A request for {@link sizedFetch}. */
export interface SizedRequest {
  /** The method, as sent. */
  method: string;
  /** The target URL (userinfo and fragment are not sent). */
  url: URL;
  /** Header lines exactly as they go on the wire, values as byte strings. */
  headers: Array<[string, string]>;
  /** The body chunks; their total must be the announced `Content-Length`. */
  body: AsyncIterable<Uint8Array>;
  /** The announced length. */
  length: number;
  /** Aborts the exchange, body included. */
  signal?: AbortSignal;
}

/**
 * Sends a request over HTTP/1.1 with a streamed body of known length and answers with a web
 * {@link Response} that behaves like fetch's: gzip and br bodies are decoded, headers kept.
 *
 * @param request the request
 * @returns the response head; its body streams
 */
export function sizedFetch(request: SizedRequest): Promise<Response> {
  const { url, signal } = request;
  const client = url.protocol === "https:" ? https : http;
  return new Promise<Response>((resolve, reject) => {
    signal?.throwIfAborted();
    const outgoing = client.request({
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ""),
      port: url.port || (url.protocol === "https:" ? 443 : 80),
      path: url.pathname + url.search,
      method: request.method,
      headers: request.headers.flat(),
      setHost: false,
      ...(url.protocol === "https:" ? { ca: trustedCertificates() } : {}),
    });
    const onAbort = () => outgoing.destroy(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    outgoing.on("error", (error) => reject(error));
    outgoing.on("response", (incoming) => {
      const headers = new Headers();
      const raw = incoming.rawHeaders;
      for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
      const noBody = request.method === "HEAD" || [204, 205, 304].includes(incoming.statusCode!);
      const encoding = headers.get("content-encoding")?.trim().toLowerCase();
      let source: Readable = incoming;
      if (encoding === "gzip" || encoding === "x-gzip") source = incoming.pipe(zlib.createGunzip());
      if (encoding === "br") source = incoming.pipe(zlib.createBrotliDecompress());
      if (source !== incoming) incoming.on("error", (error) => source.destroy(error));
      source.on("close", () => signal?.removeEventListener("abort", onAbort));
      const body = noBody ? null : Readable.toWeb(source) as ReadableStream<Uint8Array>;
      if (noBody) incoming.resume();
      resolve(
        new Response(body, {
          status: incoming.statusCode!,
          statusText: incoming.statusMessage ?? "",
          headers,
        }),
      );
    });
    writeBody(outgoing, request).catch((error) => {
      outgoing.destroy(error);
      reject(error);
    });
  });
}

async function writeBody(outgoing: http.ClientRequest, request: SizedRequest): Promise<void> {
  let sent = 0;
  for await (const chunk of request.body) {
    sent += chunk.byteLength;
    if (sent > request.length) break;
    if (!outgoing.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))) {
      await new Promise<void>((resolve, reject) => {
        const onDrain = () => {
          outgoing.off("close", onClose);
          resolve();
        };
        const onClose = () => {
          outgoing.off("drain", onDrain);
          reject(new Error("connection closed while sending"));
        };
        outgoing.once("drain", onDrain).once("close", onClose);
      });
    }
  }
  if (sent !== request.length) {
    throw new Error(
      `the body changed while it was sent: ${request.length} bytes announced, ${
        sent > request.length ? "more" : sent
      } read`,
    );
  }
  outgoing.end();
}

/**
 * The roots fetch trusts, which node:https does not read on its own: `DENO_TLS_CA_STORE`
 * (`mozilla`, the default, and/or `system`) and `DENO_CERT` (a PEM file).
 */
function trustedCertificates(): string[] {
  const stores = (Deno.env.get("DENO_TLS_CA_STORE") ?? "mozilla").split(",").map((s) => s.trim());
  const roots: string[] = [];
  if (stores.includes("mozilla")) roots.push(...tls.rootCertificates);
  if (stores.includes("system")) {
    const system = (tls as unknown as { getCACertificates(kind: string): string[] })
      .getCACertificates("system");
    roots.push(...system);
  }
  const extra = Deno.env.get("DENO_CERT");
  if (extra) roots.push(Deno.readTextFileSync(extra));
  return roots;
}
