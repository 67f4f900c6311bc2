/**
 * The equivalent curl command of a request (`--curl`). Secrets are included: the user asked.
 * @module
 */
import { requestUrl } from "../http/build_request.ts";
import type { PreparedRequest } from "../http/spec.ts";
import { reveal } from "../secret.ts";

/**
 * @param text any text
 * @returns the text quoted for a POSIX shell
 */
export function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * @param request the prepared request
 * @param options whether curl should follow redirects, the timeout in seconds, and more curl
 * arguments (TLS and proxy flags)
 * @returns a one-line curl command
 */
export function toCurl(
  request: PreparedRequest,
  options: { follow?: boolean; maxRedirects?: number; timeout?: number; extra?: string[] } = {},
): string {
  const args = ["curl"];
  const body = request.body;
  const impliedMethod = body ? "POST" : "GET";
  if (request.method !== impliedMethod) args.push("-X", request.method);
  args.push(requestUrl(request).href);
  for (const { name, value } of request.headers) {
    if (body?.kind === "form" && /^content-type$/i.test(name)) continue;
    args.push("-H", `${name}: ${reveal(value)}`);
  }
  if (body?.kind === "text") args.push("--data-raw", body.text);
  if (body?.kind === "file") args.push("--data-binary", `@${body.path}`);
  if (body?.kind === "stdin") args.push("--data-binary", "@-");
  if (body?.kind === "form") {
    for (const f of body.fields) {
      args.push(
        "-F",
        "path" in f ? `${f.name}=@${f.path};type=${f.contentType}` : `${f.name}=${f.value}`,
      );
    }
  }
  if (options.follow) args.push("-L", "--max-redirs", String(options.maxRedirects ?? 10));
  if (options.timeout !== undefined) args.push("--max-time", String(options.timeout));
  if (options.extra) args.push(...options.extra);
  return args.map(shellQuote).join(" ");
}
