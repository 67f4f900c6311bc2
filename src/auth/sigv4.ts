/**
 * AWS Signature Version 4 (`--aws-sigv4 provider1[:provider2[:region[:service]]]`, curl's
 * spelling): the canonical request, the string to sign, the derived signing key and the
 * `Authorization` header, for each request `send` makes. Loaded only when used.
 * @module
 */
import { createHash, createHmac } from "node:crypto";
import { bodyChunks } from "../http/body.ts";
import { requestUrl } from "../http/build_request.ts";
import type { PreparedRequest, RequestSigner } from "../http/request_spec.ts";
import { Secret } from "../secret.ts";
import { UsageError } from "../errors/mod.ts";
import type { SigV4Options } from "./sigv4_value.ts";

export { parseSigV4Value, type SigV4Options } from "./sigv4_value.ts";

/** The hash S3 accepts in place of a payload hash it cannot be given in advance. */
export const UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";

const EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/**
 * Headers never signed: set or changed on the way (RFC 9110 hop by hop, agents, proxies and
 * caches); the AWS SDK's signer (`@smithy/signature-v4`) leaves out the same ones.
 */
const UNSIGNED_HEADERS = new Set([
  "authorization",
  "cache-control",
  "connection",
  "expect",
  "from",
  "keep-alive",
  "max-forwards",
  "pragma",
  "referer",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "user-agent",
  "x-amzn-trace-id",
]);

const REGION = /^[a-z]{2}(-gov|-iso[a-z]*)?-[a-z]+-\d+$/;

/**
 * The region and service of a request: as given, else read from the host name as curl does
 * (`service.region.…`), knowing AWS's `….service.region.amazonaws.com` names.
 *
 * @param host the request's host name
 * @param options region and service when given
 * @returns region and service
 * @throws {UsageError} when the host does not name them
 */
export function scopeOf(
  host: string,
  options: Pick<SigV4Options, "region" | "service">,
): { region: string; service: string } {
  if (options.region && options.service) {
    return { region: options.region, service: options.service };
  }
  const labels = host.toLowerCase().split(".");
  const at = labels.findIndex((label) => REGION.test(label));
  let service: string | undefined;
  let region: string | undefined;
  if (at > 0) {
    region = labels[at];
    service = labels[at - 1];
    // S3's dash form: bucket.s3-us-west-2.amazonaws.com is also written s3.
  } else if (labels.length >= 3) {
    service = labels[0];
    region = labels[1];
  }
  service = options.service ?? service;
  region = options.region ?? region;
  if (!service || !region) {
    throw new UsageError(
      `Cannot tell the region and service of "${host}" for AWS Signature Version 4`,
      {
        remedy: { write: "sigv4_region" },
      },
    );
  }
  return { region, service };
}

/**
 * RFC 3986 encoding as SigV4 asks: everything but `A-Za-z0-9-._~` percent-encoded, upper case.
 *
 * @param text any text
 * @returns the encoded text
 */
export function awsEncode(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * @param url the request URL
 * @param service the service (S3 paths are encoded once, others twice)
 * @returns the canonical URI
 */
export function canonicalUri(url: URL, service: string): string {
  const once = url.pathname.split("/").map((segment) => awsEncode(decode(segment)));
  const path = service === "s3" ? once : once.map(awsEncode);
  return path.join("/") || "/";
}

/**
 * @param url the request URL (with `-K` keys)
 * @returns the canonical query string: pairs encoded, sorted by name then value
 */
export function canonicalQuery(url: URL): string {
  const raw = url.search.slice(1);
  if (raw === "") return "";
  const pairs = raw.split("&").filter((p) => p !== "").map((pair) => {
    const eq = pair.indexOf("=");
    const name = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? "" : pair.slice(eq + 1);
    return [awsEncode(decode(name)), awsEncode(decode(value))] as const;
  });
  pairs.sort(([a, x], [b, y]) => a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0);
  return pairs.map(([name, value]) => `${name}=${value}`).join("&");
}

/** What one signature is computed over. */
export interface SigningInput {
  /** The method. */
  method: string;
  /** The URL as sent. */
  url: URL;
  /** Headers to sign, names as given (the host header is added). */
  headers: Array<[string, string]>;
  /** Hex SHA-256 of the body, or {@link UNSIGNED_PAYLOAD}. */
  payloadHash: string;
  /** `YYYYMMDDTHHMMSSZ`. */
  amzDate: string;
}

/**
 * Computes a SigV4 `Authorization` value.
 *
 * @param options providers, scope and credentials
 * @param input the request's parts
 * @returns the header value and the canonical request (for tests and -v)
 * @see https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html
 */
export function signatureOf(
  options: SigV4Options,
  input: SigningInput,
): { authorization: string; canonicalRequest: string; stringToSign: string } {
  const { region, service } = scopeOf(input.url.hostname, options);
  const lower = options.provider1.toLowerCase();
  const upper = options.provider1.toUpperCase();
  const headers = new Map<string, string[]>();
  headers.set("host", [input.url.host]);
  for (const [name, value] of input.headers) {
    const key = name.toLowerCase();
    if (key === "host") continue;
    headers.set(key, [...(headers.get(key) ?? []), value.trim().replace(/\s+/g, " ")]);
  }
  const names = [...headers.keys()].sort();
  const canonicalHeaders = names.map((n) => `${n}:${headers.get(n)!.join(",")}\n`).join("");
  const signedHeaders = names.join(";");
  const canonicalRequest = [
    input.method,
    canonicalUri(input.url, service),
    canonicalQuery(input.url),
    canonicalHeaders,
    signedHeaders,
    input.payloadHash,
  ].join("\n");
  const date = input.amzDate.slice(0, 8);
  const scope = `${date}/${region}/${service}/${lower}4_request`;
  const stringToSign = [
    `${upper}4-HMAC-SHA256`,
    input.amzDate,
    scope,
    sha256Hex(canonicalRequest),
  ].join("\n");
  const hmac = (key: string | Uint8Array, data: string) =>
    createHmac("sha256", key).update(data, "utf8").digest();
  let key = hmac(`${upper}4${options.secretAccessKey.reveal()}`, date);
  for (const part of [region, service, `${lower}4_request`]) key = hmac(key, part);
  const signature = createHmac("sha256", key).update(stringToSign, "utf8").digest("hex");
  return {
    authorization:
      `${upper}4-HMAC-SHA256 Credential=${options.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
    canonicalRequest,
    stringToSign,
  };
}

function sha256Hex(text: string | Uint8Array): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * @param date a time
 * @returns `YYYYMMDDTHHMMSSZ`
 */
export function amzDate(date: Date): string {
  return date.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
}

/**
 * The payload hash of a request body: hashed as it will be sent (files and forms are read
 * once more for it; a pipe of up to 8 MiB is in memory by now); a longer pipe cannot be read
 * twice, so it is {@link UNSIGNED_PAYLOAD}.
 *
 * @param request the prepared request
 * @returns hex SHA-256, or UNSIGNED-PAYLOAD for stdin
 */
export async function payloadHash(request: PreparedRequest): Promise<string> {
  const body = request.body;
  if (!body) return EMPTY_SHA256;
  // A pipe larger than dial keeps in memory (or not read yet, under --offline) cannot be hashed
  // before it is sent.
  if (body.kind === "stdin" || body.kind === "stream") return UNSIGNED_PAYLOAD;
  if (body.kind === "text") return sha256Hex(new TextEncoder().encode(body.text));
  if (body.kind === "bytes") return sha256Hex(body.bytes);
  const hash = createHash("sha256");
  for await (const chunk of bodyChunks(body)) hash.update(chunk);
  return hash.digest("hex");
}

/**
 * The SigV4 signer: signs each request `send` makes (each same-origin redirect hop too) with
 * the time of sending.
 *
 * @param options providers, scope and credentials
 * @param now the clock (tests pin it)
 * @returns the signer
 */
export function sigv4Signer(
  options: SigV4Options,
  now: () => Date = () => new Date(),
): RequestSigner {
  const prefix = `x-${options.provider2.toLowerCase()}-`;
  return {
    scheme: "aws-sigv4",
    async sign(request) {
      const url = requestUrl(request);
      const { service } = scopeOf(url.hostname, options);
      const hash = await payloadHash(request);
      if (hash === UNSIGNED_PAYLOAD && service !== "s3") {
        throw new UsageError(
          `Cannot sign a streamed body for the service "${service}": SigV4 needs its SHA-256 before it is sent`,
          { remedy: { use: "sigv4_body_file" } },
        );
      }
      const date = amzDate(now());
      const own = (name: string) => {
        const key = name.toLowerCase();
        return key === `${prefix}date` || key === `${prefix}content-sha256` ||
          key === `${prefix}security-token` || key === "authorization";
      };
      const headers = request.headers.filter((h) => !own(h.name));
      const added: Array<{ name: string; value: string | Secret }> = [
        { name: `X-${capital(options.provider2)}-Date`, value: date },
        ...(service === "s3" ? [{ name: `${prefix}content-sha256`, value: hash }] : []),
        ...(options.sessionToken
          ? [{ name: `${prefix}security-token`, value: options.sessionToken }]
          : []),
      ];
      const signed: Array<[string, string]> = [...added, ...headers]
        .filter((h) => !UNSIGNED_HEADERS.has(h.name.toLowerCase()))
        .map((h) => [h.name, typeof h.value === "string" ? h.value : h.value.reveal()]);
      const { authorization } = signatureOf(options, {
        method: request.method,
        url,
        headers: signed,
        payloadHash: hash,
        amzDate: date,
      });
      return {
        ...request,
        headers: [
          { name: "Authorization", value: new Secret(authorization) },
          ...added,
          ...headers,
        ],
      };
    },
    curlArgs: (show = (s) => s.reveal()) => [
      "--aws-sigv4",
      [options.provider1, options.provider2, options.region, options.service]
        .filter((p) => p !== undefined).join(":"),
      "-u",
      `${options.accessKeyId}:${show(options.secretAccessKey, "aws_secret_access_key")}`,
      ...(options.sessionToken
        ? ["-H", `${prefix}security-token: ${show(options.sessionToken, "aws_session_token")}`]
        : []),
    ],
  };
}

function capital(text: string): string {
  const lower = text.toLowerCase();
  return lower.slice(0, 1).toUpperCase() + lower.slice(1);
}
