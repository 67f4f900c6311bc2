/**
 * The HTTP tab's response: its shape as the page keeps it, the check of the server's answer,
 * and the view (status, time, size, headers, body viewer).
 * @module
 */
import type { Signal } from "@preact/signals";
import type { JSX } from "preact";
import { ApiError, isRecord } from "../api.ts";
import type { ResponseJson, TestJson } from "../../protocol.ts";
import { ResponseMeta } from "../response_meta.tsx";
import { type BodyParts, ResponseViewer, type ViewedBody } from "../response_viewer.tsx";
import type { OpenapiEvent } from "../../openapi_protocol.ts";
import { OpenapiViolations } from "../openapi/openapi_panel.tsx";
import { violationMarks } from "../openapi/openapi_marks.ts";
import { ResponseFilter } from "../response_filter.tsx";

/** The body viewer's accessible name (its editor is made as the request goes: `prepareViewer`). */
export const RESPONSE_BODY_LABEL = "Response body";

/** What running a file's request added: what ran first, its scripts' lines and its tests. */
export interface FileRun {
  /** Named requests that ran first (the request refers to them): label and status or error. */
  ran: Array<{ label: string; status?: number; error?: string }>;
  logs: string[];
  tests: TestJson[];
  /** Why the request or a handler failed. */
  error?: ApiError;
  /** The OpenAPI check of the exchange, when its file or environment names a description. */
  openapi?: OpenapiEvent;
}

/**
 * Reads one line of a file request's answer into the run.
 *
 * @param event a line of `POST /api/http/file`'s answer
 * @param run what was read so far
 */
export function readRunEvent(event: Record<string, unknown>, run: FileRun): void {
  const message = (e: unknown) => isRecord(e) && typeof e.message === "string" ? e.message : "";
  if (event.type === "ran" && typeof event.label === "string") {
    run.ran.push({
      label: event.label,
      ...(typeof event.status === "number" ? { status: event.status } : {}),
      ...(event.error ? { error: message(event.error) } : {}),
    });
  } else if (event.type === "openapi" && Array.isArray(event.violations)) {
    run.openapi = event as OpenapiEvent;
  } else if (event.type === "log" && typeof event.text === "string") {
    run.logs.push(event.text);
  } else if (event.type === "result") {
    if (Array.isArray(event.tests)) {
      run.tests = event.tests.filter(isRecord).map((t) => ({
        name: String(t.name),
        passed: t.passed === true,
        ...(typeof t.message === "string" ? { message: t.message } : {}),
      }));
    }
    if (isRecord(event.error)) {
      const e = event.error;
      run.error = new ApiError(
        message(e),
        0,
        typeof e.hint === "string" ? e.hint : undefined,
        typeof e.code === "string" ? e.code : undefined,
      );
    }
  }
}

/** A response as the tab shows it. */
export type HttpResult =
  & Pick<
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
  >
  & {
    run?: FileRun;
    /** A long body's parts: the response is shown as they arrive, `body` once all are in. */
    parts?: BodyParts;
  };

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
    ...(r.parts ? { parts: r.parts } : {}),
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
 * @param props the response, what its viewer shows, and its region's name (default "Response":
 *   a ▶ Run step's is its own, beside the tab's)
 * @returns the response's summary, headers and body
 */
export function HttpResponse(
  props: {
    result: HttpResult;
    viewed: Signal<ViewedBody | undefined>;
    onAssert?: (line: string) => void;
    label?: string;
  },
): JSX.Element {
  const r = props.result;
  return (
    <section class="response" aria-label={props.label ?? "Response"}>
      <ResponseMeta
        status={r.status}
        statusText={r.statusText}
        {...(r.version ? { version: r.version } : {})}
        timeMs={r.timeMs}
        size={r.size}
      />
      {r.run && <RunLines run={r.run} />}
      <details>
        <summary>Response headers ({r.headers.length})</summary>
        <HeaderTable label="Response headers" headers={r.headers} />
      </details>
      {r.run?.openapi && <OpenapiViolations event={r.run.openapi} />}
      <ResponseFilter
        body={props.viewed}
        {...(props.onAssert ? { onAssert: props.onAssert } : {})}
        viewer={
          <ResponseViewer
            body={props.viewed}
            label={RESPONSE_BODY_LABEL}
            placeholder="(empty body)"
            {...(r.run?.openapi ? { marks: violationMarks(r.run.openapi.violations) } : {})}
          />
        }
      />
    </section>
  );
}

/**
 * @param props what running the file's request added
 * @returns what ran first, the test results, the scripts' log and a handler's failure
 */
export function RunLines(props: { run: FileRun }): JSX.Element {
  const { ran, tests, logs, error } = props.run;
  const passed = tests.filter((t) => t.passed).length;
  return (
    <>
      {ran.length > 0 && (
        <p class="note">
          Ran first:{" "}
          {ran.map((r) => `${r.label} (${r.error ?? r.status ?? "no response"})`).join(", ")}
        </p>
      )}
      {error && (
        <p role="alert" class="error">
          {error.message}
          {error.hint && <span class="hint">: {error.hint}</span>}
        </p>
      )}
      {tests.length > 0 && (
        <section class="tests" aria-label="Tests">
          <p>
            Tests: {passed} passed{tests.length > passed ? `, ${tests.length - passed} failed` : ""}
          </p>
          <ul>
            {tests.map((t, i) => (
              <li key={i} class={t.passed ? "passed" : "failed"}>
                {t.passed ? "✓" : "✗"} {t.name}
                {t.message ? `: ${t.message}` : ""}
              </li>
            ))}
          </ul>
        </section>
      )}
      {logs.length > 0 && (
        <details>
          <summary>Log ({logs.length})</summary>
          <pre class="run-log" aria-label="Script log">{logs.join("\n")}</pre>
        </details>
      )}
    </>
  );
}

/**
 * @param props the table's label and the headers, in order
 * @returns the headers as a table of names and values
 */
export function HeaderTable(
  props: { label: string; headers: ReadonlyArray<readonly [string, string]> },
): JSX.Element {
  return (
    <table class="headers" aria-label={props.label}>
      <tbody>
        {props.headers.map(([name, value], i) => (
          <tr key={i}>
            <th scope="row">{name}</th>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
