/**
 * Exported requests as code: curl (the `--curl` writer, with environment lookups), HTTPie,
 * Python requests, JavaScript fetch, and HAR entries. Each writer quotes text for its language
 * and turns each secret into that language's environment lookup.
 * @module
 */
import { defaultPort } from "../http/authority.ts";
import { requestUrl } from "../http/build_request.ts";
import { shellQuote, toCurl } from "../output/curl.ts";
import { reveal } from "../secret.ts";
import { type ExportedRequest, type Segment, segments } from "./export_request.ts";

/** What `dial export --to` and `dial … --export` write (the CLI lists them: `EXPORT_FORMATS`). */
export type ExportTarget = "curl" | "http" | "postman" | "har" | "fetch" | "python" | "httpie";

/**
 * What a format cannot carry of an `OPTIONS *` request (RFC 9112 §3.2.4), each checked against a
 * raw socket: curl (`--request-target '*'`) and Python (urllib3, which requests is built on) send
 * the asterisk form; HTTPie and fetch always send a path, and a HAR request is an absolute URL,
 * so what they write sends `OPTIONS /`.
 *
 * @param target the format
 * @param follow whether the request follows redirects
 * @returns the "Not carried" text, or undefined when the format sends `*`
 */
export function asteriskLoss(target: ExportTarget, follow: boolean): string | undefined {
  if (target === "python") {
    return follow
      ? "following a redirect of OPTIONS * (urllib3 sends it with redirect=False)"
      : undefined;
  }
  const sends = {
    httpie: "HTTPie cannot send the asterisk form: the command sends OPTIONS /",
    fetch: "fetch cannot send the asterisk form: the code sends OPTIONS /",
    har: "a HAR request's URL has a path: it reads OPTIONS /",
  }[target as string];
  return sends && `the request-target * (${sends})`;
}

/** A shell word: quoted text and `"$NAME"` lookups side by side (the shell joins them). */
export function shellWord(value: string): string {
  return segments(value).map((s) => "env" in s ? `"\${${s.env}}"` : shellQuote(s.text)).join("");
}

/**
 * @param exported the request
 * @param extra curl arguments to add (the transport flags of `dial … --export curl`)
 * @returns a curl command line
 */
export function curlCode(exported: ExportedRequest, extra: readonly string[] = []): string {
  const { prepared, basic, file } = exported;
  return toCurl(prepared, {
    follow: file.follow,
    ...(file.timeoutMs !== undefined ? { timeout: file.timeoutMs / 1000 } : {}),
    extra: [...(basic ? ["-u", `${basic.username}:${basic.password}`] : []), ...extra],
    quote: shellWord,
  });
}

/**
 * @param exported the request
 * @returns an HTTPie command line
 */
export function httpieCode(exported: ExportedRequest): string {
  const { prepared, basic, file } = exported;
  // --ignore-stdin: in a script HTTPie would otherwise read a non-terminal stdin as the body.
  const words = ["http", "--ignore-stdin"];
  if (file.follow) words.push("--follow");
  if (basic) words.push("-a", shellWord(`${basic.username}:${basic.password}`));
  const body = prepared.body;
  if (body?.kind === "text") words.push("--raw", shellWord(body.text));
  words.push(prepared.method, shellWord(requestUrl(prepared).href));
  for (const h of prepared.headers) {
    const value = reveal(h.value);
    // HTTPie: `Name:` removes the header, `Name;` sends it empty.
    words.push(
      shellWord(h.remove ? `${h.name}:` : value === "" ? `${h.name};` : `${h.name}:${value}`),
    );
  }
  // HTTPie's default Accept is JSON's; curl, requests and fetch send */* (dial too).
  if (!prepared.headers.some((h) => h.name.toLowerCase() === "accept")) words.push("Accept:'*/*'");
  if (body?.kind === "file") words.push(`@${shellQuote(body.path)}`);
  return words.join(" ");
}

function pyString(value: string): string {
  const parts = segments(value).map((s) =>
    "env" in s ? `os.environ[${JSON.stringify(s.env)}]` : JSON.stringify(s.text)
  );
  return parts.join(" + ");
}

/** Options of {@link pythonCode}. */
export interface PythonCodeOptions {
  /** Write the imports (default true; false for the second and later requests of one program). */
  imports?: boolean;
  /** Some request of the program reads the environment (`import os`); default: this one does. */
  readsEnvironment?: boolean;
  /** Some request of the program is `OPTIONS *` (`import urllib3`); default: this one is. */
  asterisk?: boolean;
}

/**
 * @param exported the request
 * @param options whether to write the imports
 * @returns a Python program using requests
 */
export function pythonCode(exported: ExportedRequest, options: PythonCodeOptions = {}): string {
  const { prepared, basic, file } = exported;
  const lines = options.imports === false ? [] : [
    ...(options.readsEnvironment ?? exported.envVars.length > 0 ? ["import os", ""] : []),
    "import requests",
    ...(options.asterisk ?? prepared.target !== undefined ? ["import urllib3"] : []),
    "",
  ];
  const headers = prepared.headers.map((h) =>
    `    ${JSON.stringify(h.name)}: ${pyString(reveal(h.value))},`
  );
  const args = [JSON.stringify(prepared.method), pyString(requestUrl(prepared).href)];
  if (headers.length) lines.push("headers = {", ...headers, "}");
  if (headers.length) args.push("headers=headers");
  const body = prepared.body;
  if (body?.kind === "text") {
    lines.push(`data = ${pyString(body.text)}`);
    args.push('data=data.encode("utf-8")');
  } else if (body?.kind === "file") args.push(`data=open(${JSON.stringify(body.path)}, "rb")`);
  if (prepared.target) return [...lines, ...asteriskPython(exported, args.slice(2)), ""].join("\n");
  if (basic) args.push(`auth=(${pyString(basic.username)}, ${pyString(basic.password)})`);
  if (!file.follow) args.push("allow_redirects=False");
  if (file.timeoutMs !== undefined) args.push(`timeout=${file.timeoutMs / 1000}`);
  lines.push(
    `response = requests.request(${args.join(", ")})`,
    "print(response.status_code)",
    "print(response.text)",
  );
  return `${lines.join("\n")}\n`;
}

/**
 * `OPTIONS *` in Python: requests always sends a path, urllib3 sends the target it is given
 * (to the pool's own server, hence `assert_same_host=False`; it cannot follow a redirect there).
 */
function asteriskPython(exported: ExportedRequest, args: string[]): string[] {
  const { prepared, basic, file } = exported;
  const url = requestUrl(prepared);
  const tls = url.protocol === "https:";
  const port = url.port || defaultPort(url.protocol);
  args = args.map((a) => a.replace(/^data=/, "body="));
  if (basic) {
    const pair = `${pyString(basic.username)} + ":" + ${pyString(basic.password)}`;
    const auth = `urllib3.make_headers(basic_auth=${pair})`;
    const i = args.indexOf("headers=headers");
    if (i >= 0) args[i] = `headers={**headers, **${auth}}`;
    else args.unshift(`headers=${auth}`);
  }
  if (file.timeoutMs !== undefined) args.push(`timeout=${file.timeoutMs / 1000}`);
  return [
    `pool = urllib3.${tls ? "HTTPS" : "HTTP"}ConnectionPool(${pyString(url.hostname)}, ${port})`,
    `response = pool.urlopen(${
      [JSON.stringify(prepared.method), '"*"', ...args, "redirect=False", "assert_same_host=False"]
        .join(", ")
    })`,
    "print(response.status)",
    'print(response.data.decode("utf-8", "replace"))',
  ];
}

function jsString(value: string): string {
  const parts: Segment[] = segments(value);
  if (parts.every((s) => "text" in s)) return JSON.stringify(value);
  return `\`${
    parts.map((s) => "env" in s ? `\${process.env.${s.env}}` : s.text.replace(/[`\\$]/g, "\\$&"))
      .join("")
  }\``;
}

/**
 * @param exported the request
 * @returns a JavaScript module using fetch (Deno, Node 18+, browsers)
 */
export function fetchCode(exported: ExportedRequest): string {
  const { prepared, basic, file } = exported;
  const headers = prepared.headers.map((h) =>
    `    ${JSON.stringify(h.name)}: ${jsString(reveal(h.value))},`
  );
  if (basic) {
    headers.push(
      `    "Authorization": "Basic " + btoa(${jsString(`${basic.username}:${basic.password}`)}),`,
    );
  }
  const options = [`  method: ${JSON.stringify(prepared.method)},`];
  if (headers.length) options.push("  headers: {", ...headers, "  },");
  const body = prepared.body;
  if (body?.kind === "text") options.push(`  body: ${jsString(body.text)},`);
  if (body?.kind === "file") {
    options.push(
      `  body: await (await import("node:fs/promises")).readFile(${JSON.stringify(body.path)}),`,
    );
  }
  if (!file.follow) options.push(`  redirect: "manual",`);
  return [
    `const response = await fetch(${jsString(requestUrl(prepared).href)}, {`,
    ...options,
    "});",
    "console.log(response.status);",
    "console.log(await response.text());",
    "",
  ].join("\n");
}

/** The `{{NAME}}` placeholder a HAR entry shows for a secret it does not hold. */
function harValue(value: string): string {
  return segments(value).map((s) => "env" in s ? `{{${s.env}}}` : s.text).join("");
}

/**
 * @param exported the request
 * @returns a HAR 1.2 request object
 */
export function harRequest(exported: ExportedRequest): Record<string, unknown> {
  const { prepared, basic } = exported;
  const url = requestUrl(prepared);
  const headers = prepared.headers.map((h) => ({ name: h.name, value: harValue(reveal(h.value)) }));
  if (basic) {
    const pair = `${basic.username}:${basic.password}`;
    const value = segments(pair).some((s) => "env" in s)
      ? `Basic {{base64 ${harValue(pair)}}}`
      : `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(pair)))}`;
    headers.push({ name: "Authorization", value });
  }
  const body = prepared.body;
  const type = prepared.headers.find((h) => h.name.toLowerCase() === "content-type");
  return {
    method: prepared.method,
    url: harValue(url.href),
    httpVersion: "HTTP/1.1",
    cookies: [],
    headers,
    queryString: [...url.searchParams].map(([name, value]) => ({ name, value: harValue(value) })),
    ...(body?.kind === "text"
      ? {
        postData: { mimeType: type ? reveal(type.value) : "text/plain", text: harValue(body.text) },
      }
      : {}),
    headersSize: -1,
    bodySize: body?.kind === "text" ? new TextEncoder().encode(body.text).length : body ? -1 : 0,
  };
}
