/**
 * HTTP Digest access authentication (RFC 7616): parse a `WWW-Authenticate: Digest` challenge
 * and compute the `Authorization` answer, with MD5, SHA-256 and SHA-512-256 (and their
 * `-sess` variants), `qop=auth`, a client nonce and nonce counting. Loaded only with `--digest`
 * (it uses node:crypto, since Web Crypto has no MD5).
 * @module
 */
import { bodyChunks } from "../http/body.ts";
import { createHash, randomBytes } from "node:crypto";
import { requestUrl } from "../http/build_request.ts";
import type { PreparedRequest, RequestSigner } from "../http/request_spec.ts";
import { Secret } from "../secret.ts";

/** One `Digest` challenge's parameters. */
export interface DigestChallenge {
  /** The protection space. */
  realm: string;
  /** The server nonce. */
  nonce: string;
  /** Sent back unchanged. */
  opaque?: string;
  /** `MD5` (default), `SHA-256`, `SHA-512-256`, each optionally `-sess`. */
  algorithm: string;
  /** The qop values offered (`auth`, `auth-int`); empty for an RFC 2069 challenge. */
  qop: string[];
  /** Whether the previous nonce was merely stale (the credentials were right). */
  stale: boolean;
  /** Whether the server asks for a hashed user name (RFC 7616 3.4.4). */
  userhash: boolean;
}

const HASHES: Record<string, string> = {
  "MD5": "md5",
  "SHA-256": "sha256",
  "SHA-512-256": "sha512-256",
};

/** Algorithms in the order dial prefers them when a server offers several challenges. */
const PREFERENCE = ["SHA-512-256", "SHA-256", "MD5"];

/**
 * Parses `WWW-Authenticate` values into their challenges (scheme and auth-params), as RFC 9110
 * 11.6.1 writes them: several challenges may share one header, separated by commas.
 *
 * @param values the header values (a response may carry several)
 * @returns each challenge's scheme (lowercase) and parameters (names lowercase)
 */
export function parseChallenges(
  values: string[],
): Array<{ scheme: string; params: Record<string, string> }> {
  const challenges: Array<{ scheme: string; params: Record<string, string> }> = [];
  for (const value of values) {
    // Lexed into tokens, quoted strings, "=" and ","; whitespace separates.
    const lexemes: Array<{ kind: "token" | "quoted" | "=" | ","; text: string }> = [];
    const lexer = /\s*(?:("(?:[^"\\]|\\.)*")|([!#$%&'*+.^_`|~0-9A-Za-z/-]+=*)|(=)|(,))/y;
    for (let match; (match = lexer.exec(value)) !== null;) {
      if (match[1] !== undefined) {
        lexemes.push({ kind: "quoted", text: match[1].slice(1, -1).replace(/\\(.)/g, "$1") });
      } else if (match[2] !== undefined) {
        // A token ending in "=" is a token68, or a name whose "=" was glued to it.
        const glued = /^([^=]+)(=+)$/.exec(match[2]);
        if (glued) {
          lexemes.push({ kind: "token", text: glued[1]! });
          for (const _ of glued[2]!) lexemes.push({ kind: "=", text: "=" });
        } else lexemes.push({ kind: "token", text: match[2] });
      } else lexemes.push({ kind: match[3] ? "=" : ",", text: match[3] ?? "," });
    }
    let current: { scheme: string; params: Record<string, string> } | undefined;
    for (let i = 0; i < lexemes.length; i++) {
      const lexeme = lexemes[i]!;
      if (lexeme.kind !== "token") continue;
      const next = lexemes[i + 1];
      if (next?.kind === "=" && current) {
        const valueLexeme = lexemes[i + 2];
        const text = valueLexeme && valueLexeme.kind !== "," && valueLexeme.kind !== "="
          ? valueLexeme.text
          : "";
        current.params[lexeme.text.toLowerCase()] = text;
        i += text === "" && valueLexeme?.kind !== "quoted" ? 1 : 2;
        continue;
      }
      const previous = lexemes[i - 1];
      if (current && previous && previous.kind !== ",") continue; // token68 after a scheme
      current = { scheme: lexeme.text.toLowerCase(), params: {} };
      challenges.push(current);
    }
  }
  return challenges;
}

/**
 * Picks the Digest challenge dial answers: the strongest algorithm it supports.
 *
 * @param headers the 401 response's headers
 * @returns the challenge, or undefined when there is no usable Digest challenge
 */
export function digestChallenge(headers: Headers): DigestChallenge | undefined {
  const values = headers.get("www-authenticate");
  if (values === null) return undefined;
  const found: DigestChallenge[] = [];
  for (const { scheme, params } of parseChallenges([values])) {
    if (scheme !== "digest" || params.realm === undefined || params.nonce === undefined) continue;
    const algorithm = (params.algorithm ?? "MD5").toUpperCase();
    if (!HASHES[algorithm.replace(/-SESS$/, "")]) continue;
    const qop = (params.qop ?? "").split(",").map((q) => q.trim().toLowerCase()).filter(Boolean);
    // qop=auth is preferred; auth-int (the body's hash too) when it is the only one offered.
    if (qop.length > 0 && !qop.includes("auth") && !qop.includes("auth-int")) continue;
    found.push({
      realm: params.realm,
      nonce: params.nonce,
      ...(params.opaque !== undefined ? { opaque: params.opaque } : {}),
      algorithm,
      qop,
      stale: (params.stale ?? "").toLowerCase() === "true",
      userhash: (params.userhash ?? "").toLowerCase() === "true",
    });
  }
  const rank = (c: DigestChallenge) => PREFERENCE.indexOf(c.algorithm.replace(/-SESS$/, ""));
  return found.sort((a, b) => rank(a) - rank(b))[0];
}

/** What one Digest answer is computed from. */
export interface DigestInput {
  /** The user name. */
  username: string;
  /** The password. */
  password: Secret;
  /** The request method. */
  method: string;
  /** The request target as sent: path and query. */
  uri: string;
  /** The nonce count, 1 for the first use of a nonce. */
  nc: number;
  /** The client nonce; random when absent. */
  cnonce?: string;
  /** For `qop=auth-int`: the request body's hash (hex, the challenge's algorithm). */
  bodyHash?: string;
}

/**
 * Computes the `Authorization: Digest …` value answering a challenge.
 *
 * @param challenge the server's challenge
 * @param input credentials, method, URI, nonce count
 * @returns the header value
 * @see https://www.rfc-editor.org/rfc/rfc7616#section-3.4
 */
export function digestAuthorization(challenge: DigestChallenge, input: DigestInput): Secret {
  const base = challenge.algorithm.replace(/-SESS$/, "");
  const sess = challenge.algorithm.endsWith("-SESS");
  const h = (text: string) => createHash(HASHES[base]!).update(text, "utf8").digest("hex");
  const cnonce = input.cnonce ?? randomBytes(16).toString("hex");
  const nc = input.nc.toString(16).padStart(8, "0");
  let ha1 = h(`${input.username}:${challenge.realm}:${input.password.reveal()}`);
  if (sess) ha1 = h(`${ha1}:${challenge.nonce}:${cnonce}`);
  const qop = digestQop(challenge);
  const ha2 = qop === "auth-int"
    ? h(`${input.method}:${input.uri}:${input.bodyHash ?? h("")}`)
    : h(`${input.method}:${input.uri}`);
  const response = qop
    ? h(`${ha1}:${challenge.nonce}:${nc}:${cnonce}:${qop}:${ha2}`)
    : h(`${ha1}:${challenge.nonce}:${ha2}`);
  const username = challenge.userhash ? h(`${input.username}:${challenge.realm}`) : input.username;
  const parts = [
    `username=${quote(username)}`,
    `realm=${quote(challenge.realm)}`,
    `nonce=${quote(challenge.nonce)}`,
    `uri=${quote(input.uri)}`,
    `algorithm=${challenge.algorithm}`,
    `response=${quote(response)}`,
    ...(challenge.opaque !== undefined ? [`opaque=${quote(challenge.opaque)}`] : []),
    ...(qop ? [`qop=${qop}`, `nc=${nc}`, `cnonce=${quote(cnonce)}`] : []),
    ...(challenge.userhash ? ["userhash=true"] : []),
  ];
  return new Secret(`Digest ${parts.join(", ")}`);
}

/** The qop answered: `auth` when offered, else `auth-int`, none for an RFC 2069 challenge. */
function digestQop(challenge: DigestChallenge): "auth" | "auth-int" | undefined {
  if (challenge.qop.length === 0) return undefined;
  return challenge.qop.includes("auth") ? "auth" : "auth-int";
}

/** The hash of a request body for `qop=auth-int`, read as it is sent. */
async function bodyHash(request: PreparedRequest, algorithm: string): Promise<string> {
  const hash = createHash(HASHES[algorithm.replace(/-SESS$/, "")]!);
  if (request.body) {
    const body = request.body;
    if (body.kind === "text") hash.update(body.text, "utf8");
    else if (body.kind === "bytes") hash.update(body.bytes);
    else for await (const chunk of bodyChunks(body)) hash.update(chunk);
  }
  return hash.digest("hex");
}

function quote(text: string): string {
  return `"${text.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

/**
 * The Digest signer of one run: it answers the first 401 challenge, then sends the answer
 * (with the nonce count raised) on every later request to the same origin, such as a redirect
 * hop, until the server sends a new challenge.
 *
 * @param username the user name
 * @param password the password
 * @returns the signer
 */
export function digestSigner(username: string, password: Secret): RequestSigner {
  let challenge: DigestChallenge | undefined;
  let nc = 0;
  let answeredNonce: string | undefined;
  return {
    scheme: "digest",
    async sign(request) {
      if (!challenge) return request;
      nc++;
      answeredNonce = challenge.nonce;
      const target = requestUrl(request);
      const value = digestAuthorization(challenge, {
        username,
        password,
        method: request.method,
        uri: `${target.pathname}${target.search}`,
        nc,
        ...(digestQop(challenge) === "auth-int"
          ? { bodyHash: await bodyHash(request, challenge.algorithm) }
          : {}),
      });
      const headers = request.headers.filter((h) => h.name.toLowerCase() !== "authorization");
      return { ...request, headers: [{ name: "Authorization", value }, ...headers] };
    },
    challenge(response) {
      const next = digestChallenge(response.headers);
      if (!next) return false;
      // The same nonce refused again, not as stale: the credentials are wrong.
      if (answeredNonce === next.nonce && !next.stale) return false;
      challenge = next;
      nc = 0;
      return true;
    },
    curlArgs: (show = (s) => s.reveal()) => [
      "--digest",
      "-u",
      `${username}:${show(password, "password")}`,
    ],
  };
}
