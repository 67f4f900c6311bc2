/**
 * `dial curl`'s implementation: curl's words to the request command's, then the request
 * command runs them, so the request is checked, sent and printed exactly as `dial` does.
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import {
  type CurlDataPart,
  type CurlRequest,
  parseCurlArgs,
  urlencodedPiece,
} from "../import/curl_args.ts";
import type { CliContext } from "./context.ts";
import { parseArgv } from "./parse.ts";

/**
 * Runs a curl command line with dial.
 *
 * @param words the words after `dial curl`
 * @param context the run's context
 * @returns the exit code
 */
export async function runCurl(words: readonly string[], context: CliContext): Promise<number> {
  const args = await curlToDialArgs(parseCurlArgs(words));
  const { ROOT } = await import("./program.ts");
  const invocation = parseArgv(ROOT, args);
  if (invocation.kind !== "run") throw new UsageError("The curl command is not a request");
  return await invocation.run(invocation.values, context);
}

/**
 * The request command's arguments for a curl request. Files that curl reads whole (`-d @file`
 * with its newlines removed, `--data-urlencode name@file`, `-F name=<file`) are read here;
 * `--data-binary @file`, `--json @file`, `-T` and `-F name=@file` stay files dial streams.
 *
 * @param request the parsed curl command
 * @returns `[METHOD, URL, …flags]`
 */
export async function curlToDialArgs(request: CurlRequest): Promise<string[]> {
  let url = request.url;
  const flags: string[] = [];
  for (const { name, value } of request.headers) {
    flags.push("-H", value === "" ? `${name};` : `${name}: ${value}`);
  }
  if (request.upload !== undefined) flags.push("-d", `@${request.upload}`);
  else if (request.data.length > 0) {
    const single = request.data.length === 1 ? request.data[0]! : undefined;
    if (single?.kind === "file" && !request.get) flags.push("-d", `@${single.path}`);
    else {
      const text = (await Promise.all(request.data.map(dataText))).join(request.json ? "" : "&");
      if (request.get) url += (url.includes("?") ? "&" : "?") + text;
      else if (text.startsWith("@")) {
        throw new UsageError(`dial curl cannot send a body starting with "@" as text`, {
          hint: "put the body in a file and give --data-binary @file",
        });
      } else flags.push("-d", text);
    }
  }
  for (const field of request.form) flags.push("-F", await formField(field));
  flags.push(...settingFlags(request));
  // The flags plain dial has with curl's meaning go on as they are.
  flags.push(...request.passthrough);
  return [request.method, url, ...flags];
}

/** `-F`'s value for a form field: a file as `@path;filename=…;type=…`, a value (read if `<file`). */
async function formField(field: CurlRequest["form"][number]): Promise<string> {
  if ("path" in field) {
    const params = [
      field.filename !== undefined ? `;filename=${field.filename}` : "",
      field.type !== undefined ? `;type=${field.type}` : "",
    ].join("");
    return `${field.name}=@${quoteFormPath(field.path)}${params}`;
  }
  const value = "valueFrom" in field ? await Deno.readTextFile(field.valueFrom) : field.value;
  if (value.startsWith("@")) {
    throw new UsageError(`dial curl cannot send form field "${field.name}" starting with "@"`);
  }
  return `${field.name}=${value}`;
}

/** dial's flags for the settings curl's flags set, in this order. */
function settingFlags(request: CurlRequest): string[] {
  const flags: string[] = [];
  // A switch when true, else the flag with its value.
  const given: Array<[string, string | number | boolean | undefined]> = [
    ["-u", request.user],
    ["-B", request.bearer],
    ["-b", request.cookieFile],
    ["-c", request.cookieJar],
    ["-k", request.insecure],
    ["-L", request.follow],
    ["--max-redirects", request.maxRedirects],
    ["--timeout", request.maxTime],
    ["--connect-timeout", request.connectTimeout],
    ["--proxy", proxyWithUser(request)],
    ["--noproxy", request.noproxy],
    ["--cacert", request.cacert],
    ["--cert", request.cert],
    ["--key", request.key],
    ["-o", request.output],
    ["-i", request.include],
    ["-v", request.verbose],
    ["--check-status", request.fail && !request.failWithBody],
    ["--fail-with-body", request.failWithBody],
    ["--digest", request.digest],
    ["--aws-sigv4", request.awsSigv4],
    ["-C", request.continueAt],
    // curl reads netrc only when asked to; plain dial reads it unless told not to.
    ["--netrc-file", request.netrcFile],
    ["--no-netrc", !request.netrc && request.netrcFile === undefined],
  ];
  for (const [flag, value] of given) {
    if (value === true) flags.push(flag);
    else if (value !== undefined && value !== false) flags.push(flag, String(value));
  }
  return flags;
}

/** `--proxy-user` put into the proxy URL, where dial takes a proxy's login. */
function proxyWithUser(request: CurlRequest): string | undefined {
  const { proxy, proxyUser } = request;
  if (proxy === undefined || proxyUser === undefined || proxy === "") return proxy;
  const colon = proxyUser.indexOf(":");
  const login = colon < 0
    ? encodeURIComponent(proxyUser)
    : `${encodeURIComponent(proxyUser.slice(0, colon))}:${
      encodeURIComponent(proxyUser.slice(colon + 1))
    }`;
  const [, scheme = "http://", rest] = /^([a-z][a-z0-9+.-]*:\/\/)?(?:[^@/]*@)?(.*)$/is.exec(proxy)!;
  return `${scheme}${login}@${rest}`;
}

async function dataText(part: CurlDataPart): Promise<string> {
  switch (part.kind) {
    case "text":
      return part.text;
    case "file":
      return await Deno.readTextFile(part.path);
    case "file-stripped":
      return (await Deno.readTextFile(part.path)).replace(/[\r\n]/g, "");
    case "urlencode": {
      const content = part.path !== undefined ? await Deno.readTextFile(part.path) : part.text!;
      return urlencodedPiece(part, content);
    }
  }
}

function quoteFormPath(path: string): string {
  return path.includes(";") ? `"${path.replaceAll('"', '\\"')}"` : path;
}
