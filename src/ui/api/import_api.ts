/**
 * A curl command pasted into the HTTP tab becomes the tab's request, read by the same curl
 * reader as `dial curl` and `dial import` (`src/import/curl_args.ts`): method, URL, headers,
 * body (`-d`, `--json`, `-F` text fields, `-G`), follow (`-L`) and the time limit (`-m`), with
 * `-u` and `--oauth2-bearer` recognised as the request's `Authorization` header. Nothing is read
 * from disk: a command that includes a file says so. What a tab cannot hold (`-k`, a proxy,
 * certificates, cookie files) is named in `notes`.
 * @module
 */
import type { CurlRequest } from "../../import/curl_args.ts";
import { parseCurlArgs, passthroughFlags, urlencodedPiece } from "../../import/curl_args.ts";
import { splitCurlCommands } from "../../import/curl_text.ts";
import { UsageError } from "../../errors/mod.ts";
import type { HttpDraft } from "../web/workspace/request_edit.ts";
import type { ApiContext } from "./http_api.ts";
import { object, readJson, string } from "./decode.ts";

/** The tab's fields for a pasted command (its form holds no files: nothing is read from disk). */
export interface PastedRequest extends Omit<HttpDraft, "form"> {
  form: Array<Omit<HttpDraft["form"][number], "file">>;
  follow: boolean;
  timeoutSeconds?: string;
  /** What the command asked for that the tab does not carry. */
  notes: string[];
}

/**
 * @param text a curl command as pasted (continuations, quoting, a `$ ` prompt allowed)
 * @returns the tab's fields
 * @throws {UsageError} when it is not one curl command, or it reads a file
 */
export function pastedCurl(text: string): PastedRequest {
  const commands = splitCurlCommands(text.replace(/^\s*\$\s*/gm, ""));
  if (commands.length !== 1) {
    throw new UsageError(`Expected one curl command, got ${commands.length}`, {
      hint: "paste one command at a time",
    });
  }
  return fields(parseCurlArgs(commands[0]!));
}

function fields(curl: CurlRequest): PastedRequest {
  const notes: string[] = [];
  const headers = curl.headers.map((h) => ({ ...h, enabled: true }));
  const has = (name: string) => headers.some((h) => h.name.toLowerCase() === name);
  if (curl.user !== undefined) {
    // The request file's forms, answered by the same step on Send: Digest and AWS as written.
    const colon = curl.user.indexOf(":");
    const [user, password] = colon < 0
      ? [curl.user, ""]
      : [curl.user.slice(0, colon), curl.user.slice(colon + 1)];
    const [, , region, service] = (curl.awsSigv4 ?? "").split(":");
    const value = curl.awsSigv4 !== undefined
      ? [`AWS ${user} ${password}`, region && `region:${region}`, service && `service:${service}`]
        .filter(Boolean).join(" ")
      : curl.digest
      ? `Digest ${user} ${password}`
      : `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(curl.user)))}`;
    headers.push({ name: "Authorization", value, enabled: true });
  }
  if (curl.bearer !== undefined) {
    headers.push({ name: "Authorization", value: `Bearer ${curl.bearer}`, enabled: true });
  }
  const file = curl.data.find((part) => part.kind !== "text" && part.kind !== "urlencode") ??
    curl.data.find((part) => part.kind === "urlencode" && part.path !== undefined);
  if (file || curl.upload !== undefined) {
    throw new UsageError("The pasted command sends a file (@file or -T)", {
      hint: "paste the file's content into the body instead",
    });
  }
  const pieces = curl.data.map((part) =>
    part.kind === "text"
      ? part.text
      : part.kind === "urlencode"
      ? urlencodedPiece(part, part.text ?? "")
      : ""
  );
  const data = pieces.join(curl.json ? "" : "&");
  let url = /^[a-z][a-z0-9+.-]*:\/\//i.test(curl.url) ? curl.url : `http://${curl.url}`;
  let bodyKind: PastedRequest["bodyKind"] = "none";
  let body = "";
  if (curl.get && data !== "") {
    url += `${url.includes("?") ? "&" : "?"}${data}`;
  } else if (data !== "") {
    body = data;
    // -d '{"a":1}' -H 'Content-Type: application/json' is JSON too, as the server will read it.
    const type = headers.find((h) => h.name.toLowerCase() === "content-type")?.value ?? "";
    bodyKind = curl.json || /[/+]json\b/i.test(type) ? "json" : "text";
    if (!curl.json && !has("content-type")) {
      headers.push({
        name: "Content-Type",
        value: "application/x-www-form-urlencoded",
        enabled: true,
      });
    }
  }
  const form: PastedRequest["form"] = [];
  for (const field of curl.form) {
    if ("value" in field) form.push({ name: field.name, value: field.value, enabled: true });
    else {
      throw new UsageError(`The pasted command sends a file in form field "${field.name}"`, {
        hint: "attach the file to the form row instead",
      });
    }
  }
  if (form.length > 0) bodyKind = "form";
  if (curl.insecure) notes.push("-k (set in dial ui's flags, not per request)");
  if (curl.proxy !== undefined) notes.push("--proxy (set in dial ui's flags)");
  if (curl.cacert !== undefined || curl.cert !== undefined || curl.key !== undefined) {
    notes.push("certificates (set in dial ui's flags)");
  }
  if (curl.continueAt !== undefined) notes.push(`-C ${curl.continueAt} (a tab does not resume)`);
  for (const flag of passthroughFlags(curl)) {
    notes.push(`${flag} (dial run's flag; a tab does not carry it)`);
  }
  if (curl.cookieFile !== undefined || curl.cookieJar !== undefined) {
    notes.push("cookie files (the workspace has its own jar)");
  }
  return {
    method: curl.method,
    url,
    headers,
    bodyKind,
    body,
    form,
    follow: curl.follow,
    ...(curl.maxTime !== undefined ? { timeoutSeconds: String(curl.maxTime) } : {}),
    notes,
  };
}

/**
 * `POST /api/import/curl`: `{text}` → {@link PastedRequest}.
 *
 * @param request the call
 * @param _context unused
 * @returns the tab's fields
 */
export async function handleImportCurl(request: Request, _context: ApiContext): Promise<Response> {
  const json = object(await readJson(request), "request");
  return Response.json(pastedCurl(string(json.text, "text")));
}
