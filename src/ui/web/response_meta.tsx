/**
 * Status, time and size of a response, shared by the HTTP and GraphQL viewers.
 * @module
 */
import { type StatusClass, statusClass } from "../../http/status.ts";
import type { JSX } from "preact";
import { prettyJson } from "../../output/json.ts";
import { JsonPrettyPrinter } from "../../output/json_stream.ts";
import { formatSize } from "./api.ts";

const TONE: Record<StatusClass, string> = {
  informational: "good",
  success: "good",
  redirect: "info",
  client_error: "warn",
  server_error: "bad",
};

/**
 * @param props status, status text, time in ms, size in bytes
 * @returns the summary line
 */
export function ResponseMeta(props: {
  status: number;
  statusText?: string;
  /** The protocol the server answered with, e.g. `HTTP/2`. */
  version?: string;
  timeMs: number;
  size: number;
  extra?: string;
}): JSX.Element {
  const tone = TONE[statusClass(props.status)];
  return (
    <p class="meta" aria-label="Response summary">
      {props.version && <span data-testid="protocol">{props.version}</span>}
      <span class={`status ${tone}`} data-testid="status">
        {props.status} {props.statusText ?? ""}
      </span>
      <span data-testid="time">{props.timeMs.toFixed(0)} ms</span>
      <span data-testid="size">{formatSize(props.size)}</span>
      {props.extra && <span>{props.extra}</span>}
    </p>
  );
}

/**
 * @param text a response body, or its first part (a preview)
 * @param cut whether the text is only the start: then it is indented as far as it goes, with
 * the CLI's streaming printer, which needs no end
 * @returns it pretty-printed when it is JSON, unchanged otherwise
 */
export function prettyIfJson(text: string, cut = false): string {
  try {
    if (!cut) return prettyJson(text, false);
    const printer = new JsonPrettyPrinter({ color: false });
    return new TextDecoder().decode(printer.push(new TextEncoder().encode(text)));
  } catch {
    return text;
  }
}
