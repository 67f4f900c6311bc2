/**
 * The equivalent curl command of a request (`--curl`). Secrets are included: the user asked.
 * @module
 */
import { withQueryKeys } from "../http/build_request.ts";
import { isCredentialName } from "../credential_name.ts";
import type { PreparedRequest } from "../http/request_spec.ts";
import { reveal, Secret } from "../secret.ts";

/**
 * @param text any text
 * @returns the text quoted for a POSIX shell
 */
export function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/** Quotes a file name inside a curl `-F` value (curl's own `"…"` with `\\` escapes). */
function curlQuote(text: string): string {
  return `"${text.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

/**
 * The same request as a curl command line, for `--curl` and the UI's "Copy as curl": pasted
 * into a POSIX shell it sends the same method, URL, headers and body.
 *
 * @param request the prepared request
 * @param options whether curl should follow redirects (with its cookie engine on, as dial
 *   carries cookies across hops), the timeout in seconds, the cookie files (`-b`, `-c`), more
 *   curl arguments (TLS and proxy flags), and how each word is quoted (`dial export` writes
 *   secrets as `"$NAME"` lookups)
 * @returns a one-line curl command
 */
export function toCurl(
  request: PreparedRequest,
  options: {
    follow?: boolean;
    maxRedirects?: number;
    timeout?: number;
    cookieFiles?: { read?: string; write?: string };
    extra?: string[];
    quote?: (word: string) => string;
    /**
     * How a secret is written: a credential header's value, an API key in the query, a
     * Digest or SigV4 password (default: the value itself). `name` says what it is.
     */
    show?: (secret: Secret, name: string) => string;
  } = {},
): string {
  const show = options.show ?? ((secret: Secret) => secret.reveal());
  const args = ["curl"];
  const body = request.body;
  const impliedMethod = body ? "POST" : "GET";
  if (request.method === "HEAD") args.push("-I");
  else if (request.method !== impliedMethod) args.push("-X", request.method);
  const url = withQueryKeys(
    request.url,
    request.queryKeys.map((key) => ({ ...key, value: new Secret(show(key.value, key.name)) })),
  ).href;
  // curl reads [] and {} in a URL as globs unless told not to.
  if (/[[\]{}]/.test(url)) args.push("-g");
  args.push(url);
  // OPTIONS * (RFC 9112 §3.2.4): curl sends the URL's origin with `*` as the request-target.
  if (request.target) args.push("--request-target", request.target);
  for (const { name, value, remove } of request.headers) {
    if (body?.kind === "form" && /^content-type$/i.test(name)) continue;
    const secret = typeof value !== "string" || isCredentialName(name);
    const text = secret ? shownCredential(name, reveal(value), show) : value;
    // `-H "Name:"` removes the header in curl (and dial); `-H "Name;"` sends it empty.
    args.push("-H", remove ? `${name}:` : text === "" ? `${name};` : `${name}: ${text}`);
  }
  if (body?.kind === "text") args.push("--data-raw", body.text);
  if (body?.kind === "file") args.push("--data-binary", `@${body.path}`);
  if (body?.kind === "bytes") {
    // Repeated -d values joined in memory: text goes literally, other bytes come from stdin.
    const text = utf8Text(body.bytes);
    if (text !== undefined) args.push("--data-raw", text);
    else args.push("--data-binary", "@-");
  }
  if (body?.kind === "stdin" || body?.kind === "stream") args.push("--data-binary", "@-");
  if (body?.kind === "form") {
    for (const f of body.fields) {
      // --form-string takes the value literally; -F would read `@file`, `<file` and `;type=`.
      if (!("path" in f)) args.push("--form-string", `${f.name}=${f.value}`);
      else {
        args.push(
          "-F",
          `${f.name}=@${curlQuote(f.path)};filename=${curlQuote(f.filename)};type=${f.contentType}`,
        );
      }
    }
  }
  if (options.follow) args.push("-L", "--max-redirs", String(options.maxRedirects ?? 10));
  const files = options.cookieFiles ?? {};
  const read = files.read ?? files.write;
  // `-b ''` turns curl's cookie engine on without a file, so cookies follow redirect hops.
  if (read !== undefined || options.follow) args.push("-b", read ?? "");
  if (files.write !== undefined) args.push("-c", files.write);
  if (options.timeout !== undefined) args.push("--max-time", String(options.timeout));
  // Per-request credentials (Digest, SigV4): curl computes them itself from the same inputs.
  if (request.signer) args.push(...request.signer.curlArgs(show));
  if (options.extra) args.push(...options.extra);
  return args.map(options.quote ?? shellQuote).join(" ");
}

/** A credential header's value: the scheme of an Authorization kept, the rest as `show` says. */
function shownCredential(
  name: string,
  value: string,
  show: (secret: Secret, name: string) => string,
): string {
  const scheme = /^authorization$/i.test(name) ? /^(\S+) (.+)$/.exec(value) : null;
  if (!scheme) return show(new Secret(value), name);
  const what = /^bearer$/i.test(scheme[1]!) ? "token" : `${scheme[1]}_credentials`;
  return `${scheme[1]} ${show(new Secret(scheme[2]!), what)}`;
}

/** @returns the bytes as text when they are UTF-8 without NUL, else undefined */
function utf8Text(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
