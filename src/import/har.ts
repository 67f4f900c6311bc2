/**
 * HAR 1.2 (as browsers save it): each of the page's API calls a request; the browser's loading
 * of the page itself (document, scripts, styles, images, fonts) is skipped and counted. Headers
 * a browser adds by itself (HTTP/2 pseudo-headers, `sec-*`, `accept-encoding`, `connection` …)
 * are dropped; cookies (the API's session, often) are kept as a `Cookie` header whose value,
 * like every credential, goes to the private environment.
 *
 * @see http://www.softwareishard.com/blog/har-12-spec/
 * @module
 */
import { emptyImport, type ImportResult } from "./import_model.ts";
import { isObject, type Json, list, text } from "./json_read.ts";

/** Headers a browser sends on its own, not part of what the page asked for. */
const NOISE =
  /^(:.*|sec-.*|accept-encoding|accept-language|connection|content-length|host|priority|upgrade-insecure-requests|user-agent|dnt|pragma|cache-control|te|origin|referer|if-none-match|if-modified-since)$/i;

/** Chromium's resource types that are the page's own loading, not its API calls. */
const PAGE_TYPES =
  /^(document|stylesheet|image|media|font|script|texttrack|manifest|ping|cspviolationreport|preflight|signedexchange|prefetch)$/i;
/** Response types that are a page's own resources. */
const PAGE_MIME =
  /^(text\/html|text\/css|(application|text)\/(x-)?javascript|image\/|font\/|audio\/|video\/|application\/(font|x-font)|application\/wasm)/i;

/**
 * Whether a GET entry is the browser loading the page (its document, scripts, styles,
 * images …) rather than the page calling an API: by Chromium's `_resourceType`, else by the
 * request's `Sec-Fetch-Dest` (anything but `empty`, which `fetch` and XHR send), else by the
 * response's type. A request that sends a body is always kept.
 */
function browserNoise(entry: Json): boolean {
  const r = isObject(entry.request) ? entry.request : {};
  if (text(r.method).toUpperCase() !== "GET") return false;
  const type = text(entry._resourceType);
  if (type) return PAGE_TYPES.test(type);
  const dest = list(r.headers).find((h) => isObject(h) && /^sec-fetch-dest$/i.test(text(h.name)));
  if (isObject(dest)) return text(dest.value).toLowerCase() !== "empty";
  const response = isObject(entry.response) ? entry.response : {};
  const content = isObject(response.content) ? response.content : {};
  return PAGE_MIME.test(text(content.mimeType));
}

/**
 * @param value parsed JSON
 * @returns whether it is a HAR log
 */
export function isHar(value: unknown): boolean {
  return isObject(value) && isObject(value.log) && Array.isArray(value.log.entries);
}

/**
 * Reads a HAR log.
 *
 * @param har the parsed HAR
 * @returns the import
 */
export function readHar(har: Json): ImportResult {
  const result = emptyImport("har", "har");
  const log = isObject(har.log) ? har.log : {};
  const creator = isObject(log.creator) ? text(log.creator.name) : "";
  result.name = creator ? `${creator.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-har` : "har";
  let noise = 0;
  list(log.entries).forEach((entry, index) => {
    if (!isObject(entry) || !isObject(entry.request)) return;
    const r = entry.request;
    if (browserNoise(entry)) {
      noise++;
      return;
    }
    const url = text(r.url);
    let path = url;
    try {
      path = new URL(url).pathname;
    } catch { /* keep the text */ }
    const name = `${index + 1} ${text(r.method)} ${path}`.slice(0, 80);
    const headers: Array<{ name: string; value: string }> = [];
    for (const h of list(r.headers)) {
      if (!isObject(h)) continue;
      const hn = text(h.name);
      if (NOISE.test(hn)) continue;
      headers.push({ name: hn, value: text(h.value) });
    }
    const post = isObject(r.postData) ? r.postData : undefined;
    let body: string | undefined;
    if (post) {
      if (typeof post.text === "string") body = post.text;
      else if (Array.isArray(post.params)) {
        body = post.params.map((p) => isObject(p) ? `${text(p.name)}=${text(p.value)}` : "").join(
          "&",
        );
      }
      if (post.mimeType && !headers.some((h) => /^content-type$/i.test(h.name))) {
        headers.push({ name: "Content-Type", value: text(post.mimeType) });
      }
    }
    result.requests.push({
      name,
      folder: [],
      method: text(r.method).toUpperCase() || "GET",
      url,
      headers,
      ...(body !== undefined && body !== "" ? { body } : {}),
    });
  });
  if (noise > 0) {
    result.losses.push({
      where: "every entry",
      what:
        `${noise} request(s) the browser made for the page itself (the document, scripts, styles, images, fonts): only the page's API calls are imported`,
    });
  }
  return result;
}
