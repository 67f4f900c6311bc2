/**
 * The runner view: runs every request of a `.http` file in order on the server (as `dial test`
 * does, with the chosen environment) and lists each request's status and `client.test`
 * results as they come, then the totals.
 * @module
 */
import { signal } from "@preact/signals";
import type { JSX } from "preact";
import { isRecord, ndjson, post, toApiError } from "../api.ts";
import { chosenEnvironment } from "./environments.tsx";
import { selectedTab } from "../main_tab.ts";
import { useComputed } from "@preact/signals";
import {
  HeaderTable,
  HttpResponse,
  type HttpResult,
  parseResult,
  viewedOf,
} from "../http/http_response.tsx";

/** What a step sent and got. */
interface StepExchange {
  request: { method: string; url: string; headers: Array<[string, string]> };
  response: HttpResult;
}

interface RunRow {
  index: number;
  exchange?: StepExchange;
  label: string;
  status?: number;
  durationMs: number;
  tests: Array<{ name: string; passed: boolean; message?: string }>;
  error?: string;
}

const running = signal<string | undefined>(undefined);
const shownFile = signal<string | undefined>(undefined);
const rows = signal<RunRow[]>([]);
const totals = signal<{ passed: number; failed: number } | undefined>(undefined);
const failure = signal<string | undefined>(undefined);
/** The step whose details are open (its index). */
const openStep = signal<number | undefined>(undefined);
/** Exchanges that arrived before their step's result. */
let exchanges = new Map<number, StepExchange>();
let controller: AbortController | undefined;

/**
 * Runs a file and shows the view (in the HTTP tab, which it selects).
 *
 * @param path the file, relative to the workspace
 */
export async function runFile(path: string): Promise<void> {
  // The view is the HTTP tab's: a ▶ from another tab shows it there, not unseen.
  selectedTab.value = "http";
  controller?.abort();
  const mine = controller = new AbortController();
  shownFile.value = running.value = path;
  rows.value = [];
  exchanges = new Map();
  openStep.value = undefined;
  totals.value = undefined;
  failure.value = undefined;
  try {
    const response = await post("/api/workspace/run", {
      path,
      ...(chosenEnvironment.peek() ? { environment: chosenEnvironment.peek() } : {}),
    }, mine.signal);
    for await (const event of ndjson(response)) {
      if (!isRecord(event)) continue;
      if (event.type === "exchange" && isRecord(event.request)) {
        const r = event.request;
        exchanges.set(Number(event.index), {
          request: {
            method: String(r.method),
            url: String(r.url),
            headers: Array.isArray(r.headers)
              ? r.headers.filter((h): h is [string, string] =>
                Array.isArray(h) && typeof h[0] === "string" && typeof h[1] === "string"
              )
              : [],
          },
          response: parseResult(event.response),
        });
      } else if (event.type === "result") {
        const exchange = exchanges.get(Number(event.index));
        rows.value = [...rows.peek(), {
          index: Number(event.index),
          ...(exchange ? { exchange } : {}),
          label: String(event.label),
          ...(typeof event.status === "number" ? { status: event.status } : {}),
          durationMs: Number(event.durationMs),
          tests: Array.isArray(event.tests)
            ? event.tests.filter(isRecord).map((t) => ({
              name: String(t.name),
              passed: t.passed === true,
              ...(typeof t.message === "string" ? { message: t.message } : {}),
            }))
            : [],
          ...(isRecord(event.error) ? { error: String(event.error.message) } : {}),
        }];
      } else if (event.type === "end") {
        totals.value = { passed: Number(event.passed), failed: Number(event.failed) };
      } else if (event.type === "error" && isRecord(event.error)) {
        failure.value = String(event.error.message);
      }
    }
  } catch (error) {
    if (!mine.signal.aborted) failure.value = toApiError(error).message;
  } finally {
    if (controller === mine) running.value = undefined;
  }
}

/** @returns the runner's results (nothing until a file was run) */
export function RunnerView(): JSX.Element | null {
  if (!shownFile.value) return null;
  return (
    <section class="runner" aria-label="Runner">
      <div class="bar">
        <h3>Run {shownFile.value}</h3>
        {running.value && <span role="status">Running…</span>}
        {totals.value && (
          <span role="status" class={totals.value.failed ? "status bad" : "status good"}>
            {totals.value.passed} passed, {totals.value.failed} failed
          </span>
        )}
        {running.value
          ? <button type="button" onClick={() => controller?.abort()}>Stop</button>
          : <button type="button" onClick={() => shownFile.value = undefined}>Close</button>}
      </div>
      {failure.value && <p role="alert" class="error">{failure.value}</p>}
      <ol class="run-results">
        {rows.value.map((row) => (
          <li key={row.index}>
            <span
              class={row.error || row.tests.some((t) => !t.passed) ? "status bad" : "status good"}
            >
              {row.status ?? "—"}
            </span>{" "}
            {row.label} <small>{row.durationMs} ms</small>
            {row.exchange && (
              <button
                type="button"
                class="link"
                aria-expanded={openStep.value === row.index}
                onClick={() =>
                  openStep.value = openStep.peek() === row.index ? undefined : row.index}
              >
                {openStep.value === row.index ? "Hide" : "Open"} {row.label}
              </button>
            )}
            {row.error && <p class="error">{row.error}</p>}
            {row.exchange && openStep.value === row.index && <StepDetails step={row.exchange} />}
            {row.tests.length > 0 && (
              <ul>
                {row.tests.map((t, i) => (
                  <li key={i} class={t.passed ? "test passed" : "test failed"}>
                    {t.passed ? "✓" : "✗"} {t.name}
                    {t.message && <span class="hint">: {t.message}</span>}
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * @param props a step's exchange
 * @returns what it sent (request line and headers, credentials redacted) and its response,
 *   as a Send shows it
 */
function StepDetails(props: { step: StepExchange }): JSX.Element {
  const { request, response } = props.step;
  const viewed = useComputed(() => viewedOf(response, request.url));
  return (
    <div class="run-step" role="group" aria-label={`${request.method} ${request.url}`}>
      <details>
        <summary>
          Request: {request.method} {request.url}
        </summary>
        <HeaderTable label="Request headers" headers={request.headers} />
      </details>
      <HttpResponse
        result={response}
        viewed={viewed}
        label={`Response of ${request.method} ${request.url}`}
      />
    </div>
  );
}
