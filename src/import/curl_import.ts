/**
 * curl commands into an import: the same reader as `dial curl` (`curl_args.ts`), each command
 * a request. What a `.http` file cannot say (`-k`, a cookie file, curl's newline stripping of
 * `-d @file`) is reported; a command dial cannot read is skipped and reported, the others
 * imported. Shell variables (`$KEY`, `${KEY}`) become `{{$processEnv KEY}}`.
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import { type CurlRequest, parseCurlArgs, passthroughFlags, urlencodedPiece } from "./curl_args.ts";
import { splitCurlCommands } from "./curl_text.ts";
import { type FormPart, multipartBody } from "./import_body.ts";
import {
  emptyImport,
  type ImportedRequest,
  importedRequest,
  type ImportResult,
} from "./import_model.ts";
import { basicValue, secretVariable } from "./import_secrets.ts";

/**
 * @param text the source text
 * @returns whether it holds a curl command
 */
export function isCurlText(text: string): boolean {
  return /^\s*(?:#[^\n]*\n\s*)*(?:\$\s*)?(['"]?)curl\1\s/.test(text);
}

/**
 * Reads one or more curl commands.
 *
 * @param text the commands (continuations, `$'…'` quoting and `#` comments allowed)
 * @returns the import
 */
export function readCurlCommands(text: string): ImportResult {
  const result = emptyImport("curl", "curl");
  const commands = splitCurlCommands(text.replace(/^\s*\$\s*/gm, ""), { shellVariables: true });
  let first: unknown;
  result.counts.requests = commands.length;
  commands.forEach((words, i) => {
    let curl: CurlRequest;
    try {
      curl = parseCurlArgs(words);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      // One command dial cannot read does not stop the others: it is skipped and reported.
      first ??= error;
      result.losses.push({
        where: `command ${i + 1} of ${commands.length}`,
        what: `not imported: ${error.message}`,
      });
      return;
    }
    result.requests.push(curlRequest(result, curl));
  });
  if (result.requests.length === 0 && first) throw first;
  return result;
}

function curlRequest(result: ImportResult, curl: CurlRequest): ImportedRequest {
  let url = /^[a-z][a-z0-9+.-]*:\/\//i.test(curl.url) ? curl.url : `http://${curl.url}`;
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch { /* keep the text */ }
  const name = `${curl.method} ${path}`;
  const lost = (what: string) => result.losses.push({ where: name, what });
  const headers = [...curl.headers];
  const comments: string[] = [];
  if (curl.user !== undefined) {
    const colon = curl.user.indexOf(":");
    const user = colon < 0 ? curl.user : curl.user.slice(0, colon);
    const password = colon < 0 ? "" : curl.user.slice(colon + 1);
    const from = (what: string) => ({ where: name, what: `${what} of -u` });
    headers.push({
      name: "Authorization",
      value: userAuthorization(result, curl, user, password, from),
    });
  }
  if (curl.bearer !== undefined) {
    headers.push({
      name: "Authorization",
      value: `Bearer ${
        secretVariable(result, "token", curl.bearer, { where: name, what: "--oauth2-bearer" })
      }`,
    });
  }
  let body: ImportedRequest["body"];
  const setType = (type: string) => {
    if (!headers.some((h) => h.name.toLowerCase() === "content-type")) {
      headers.push({ name: "Content-Type", value: type });
    }
  };
  if (curl.upload !== undefined) body = { file: curl.upload };
  else if (curl.data.length > 0) {
    const single = curl.data.length === 1 ? curl.data[0]! : undefined;
    if (single && single.kind !== "text" && single.kind !== "urlencode" && !curl.get) {
      body = { file: single.path };
      if (single.kind === "file-stripped") lost("curl's removal of line breaks from -d @file");
    } else {
      const pieces = curl.data.map((part) => {
        if (part.kind === "text") return part.text;
        if (part.kind === "urlencode" && part.text !== undefined) {
          return urlencodedPiece(part, part.text);
        }
        lost(`data read from a file (${"path" in part ? part.path : ""}) joined with other data`);
        return "";
      });
      const joined = pieces.join(curl.json ? "" : "&");
      if (curl.get) url += (url.includes("?") ? "&" : "?") + joined;
      else body = joined;
    }
    if (body !== undefined && !curl.json) setType("application/x-www-form-urlencoded");
  } else if (curl.form.length > 0) {
    // The request files' one multipart writer: each file part a `< path` include.
    const fields: FormPart[] = [];
    for (const f of curl.form) {
      if ("path" in f) {
        fields.push({
          name: f.name,
          file: f.path,
          ...(f.filename !== undefined ? { filename: f.filename } : {}),
          ...(f.type ? { contentType: f.type } : {}),
        });
      } else if ("valueFrom" in f) {
        lost(`-F ${f.name}=<${f.valueFrom}: a text field read from a file (sent as a file part)`);
        fields.push({ name: f.name, file: f.valueFrom });
      } else fields.push({ name: f.name, value: f.value });
    }
    body = multipartBody(fields, headers);
  }
  reportUnwritable(curl, lost);
  const directives = [
    ...(curl.follow ? [] : [{ name: "no-redirect" }]),
    ...(curl.maxTime !== undefined ? [{ name: "timeout", value: String(curl.maxTime) }] : []),
    ...(curl.connectTimeout !== undefined
      ? [{ name: "connection-timeout", value: String(curl.connectTimeout) }]
      : []),
  ];
  return {
    ...importedRequest(name, [], curl.method, url, headers, body),
    ...(comments.length ? { comments } : {}),
    ...(directives.length ? { directives } : {}),
  };
}

/**
 * The `Authorization` line for `-u`, as a request file writes each kind: `Basic`, `Digest` with
 * `--digest`, `AWS` with `--aws-sigv4` (its region and service kept); the password a variable.
 */
function userAuthorization(
  result: ImportResult,
  curl: CurlRequest,
  user: string,
  password: string,
  from: (what: string) => { where: string; what: string },
): string {
  if (curl.awsSigv4 !== undefined) {
    const [, , region, service] = curl.awsSigv4.split(":");
    const secret = secretVariable(result, "aws_secret", password, from("secret"));
    return [`AWS ${user} ${secret}`, region && `region:${region}`, service && `service:${service}`]
      .filter(Boolean).join(" ");
  }
  if (curl.digest) {
    return `Digest ${user} ${secretVariable(result, "password", password, from("password"))}`;
  }
  return basicValue(result, "password", user, password, from);
}

/** What the command asks for that a request file cannot say: `dial run`'s flags, files, netrc. */
function reportUnwritable(curl: CurlRequest, lost: (what: string) => void): void {
  if (curl.insecure) lost("-k (run with dial run -k)");
  if (curl.cookieFile !== undefined) lost(`cookie file ${curl.cookieFile}`);
  if (curl.cookieJar !== undefined) lost(`cookie jar ${curl.cookieJar}`);
  if (curl.proxy !== undefined) lost("--proxy (run with dial run --proxy)");
  if (curl.cacert !== undefined || curl.cert !== undefined) {
    lost("TLS files (give them to dial run)");
  }
  if (curl.output !== undefined) lost(`-o ${curl.output}`);
  if (curl.continueAt !== undefined) lost(`-C ${curl.continueAt}`);
  if (curl.netrc || curl.netrcFile !== undefined) lost("netrc (dial run reads ~/.netrc itself)");
  if ((curl.digest || curl.awsSigv4 !== undefined) && curl.user === undefined) {
    lost(`${curl.digest ? "--digest" : "--aws-sigv4"} without -u (no credentials to write)`);
  }
  for (const flag of passthroughFlags(curl)) {
    lost(`${flag} (give it to dial run)`);
  }
}
