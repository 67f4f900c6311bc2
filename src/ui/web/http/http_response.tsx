/**
 * The HTTP tab's response: its shape as the page keeps it, the check of the server's answer,
 * and the view (status, time, size, headers, body viewer).
 * @module
 */
import type { Signal } from "@preact/signals";
import type { JSX } from "preact";
import { ApiError, isRecord } from "../api.ts";
import type { ResponseJson } from "../../protocol.ts";
import { ResponseMeta } from "../response_meta.tsx";
import { ResponseViewer, type ViewedBody } from "../response_viewer.tsx";

/** A response as the tab shows it. */
export type HttpResult = Pick<
  ResponseJson,
  | "status"
  | "statusText"
  | "version"
  | "headers"
  | "body"
  | "bodyId"
  | "truncated"
  | "size"
  | "timeMs"
>;

/**
 * @param r the response
 * @param url the request's URL (the file name for Save)
 * @returns what the viewer shows
 */
export function viewedOf(r: HttpResult | undefined, url: string): ViewedBody | undefined {
  if (!r) return undefined;
  const contentType = r.headers.find(([n]) => n.toLowerCase() === "content-type")?.[1] ?? "";
  let name = "response";
  try {
    name = decodeURIComponent(new URL(url).pathname.split("/").pop() ?? "") || name;
  } catch {
    // keep the default name
  }
  return {
    ...(r.body !== undefined ? { text: r.body } : {}),
    contentType,
    size: r.size,
    truncated: r.truncated,
    ...(r.bodyId ? { bodyId: r.bodyId } : {}),
    fileName: name,
  };
}

/**
 * @param value the `response` member of the server's answer
 * @returns it, checked
 */
export function parseResult(value: unknown): HttpResult {
  if (!isRecord(value)) throw new ApiError("Unexpected answer from the dial server", 0);
  const v = value;
  if (typeof v.status !== "number" || !Array.isArray(v.headers)) {
    throw new ApiError("Bad answer", 0);
  }
  return {
    status: v.status,
    statusText: typeof v.statusText === "string" ? v.statusText : "",
    ...(typeof v.version === "string" ? { version: v.version } : {}),
    headers: v.headers.filter((h): h is [string, string] =>
      Array.isArray(h) && typeof h[0] === "string" && typeof h[1] === "string"
    ),
    ...(typeof v.body === "string" ? { body: v.body } : {}),
    truncated: v.truncated === true,
    ...(typeof v.bodyId === "string" ? { bodyId: v.bodyId } : {}),
    size: typeof v.size === "number" ? v.size : 0,
    timeMs: typeof v.timeMs === "number" ? v.timeMs : 0,
  };
}

/**
 * @param props the response and what its viewer shows
 * @returns the response's summary, headers and body
 */
export function HttpResponse(
  props: { result: HttpResult; viewed: Signal<ViewedBody | undefined> },
): JSX.Element {
  const r = props.result;
  return (
    <section class="response" aria-label="Response">
      <ResponseMeta
        status={r.status}
        statusText={r.statusText}
        {...(r.version ? { version: r.version } : {})}
        timeMs={r.timeMs}
        size={r.size}
      />
      <details>
        <summary>Response headers ({r.headers.length})</summary>
        <table class="headers" aria-label="Response headers">
          <tbody>
            {r.headers.map(([name, value], i) => (
              <tr key={i}>
                <th scope="row">{name}</th>
                <td>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      <ResponseViewer body={props.viewed} label="Response body" placeholder="(empty body)" />
    </section>
  );
}
