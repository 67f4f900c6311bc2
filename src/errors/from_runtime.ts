/**
 * Errors the runtime throws, turned into {@link DialError}s: a failed `fetch` (by the one table
 * of the runtime's messages, ./runtime_messages.ts) and a failed write of the output.
 * @module
 */
import { hostPort } from "../http/authority.ts";
import { redactUrlsInText } from "../redact_url.ts";
import { DialError, TimeoutError, TransportError } from "./classes.ts";
import { ErrorCode } from "./codes.ts";
import { LOCAL_OUTPUT_CODES, NETWORK_REASONS } from "./runtime_messages.ts";

/**
 * Recognises a failure to write output (full disk, a directory, no permission; a reader that
 * went away is not one: callers end quietly on a broken pipe),
 * so that it is reported as a local failure (exit 1), never as the network's.
 *
 * @param error what writing threw
 * @returns a DialError naming the local cause, or undefined when it is something else
 */
export function outputError(error: unknown): DialError | undefined {
  if (error instanceof DialError) return error.code === ErrorCode.Output ? error : undefined;
  const code = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  if (typeof code !== "string" || !LOCAL_OUTPUT_CODES.has(code)) return undefined;
  return new DialError(`Cannot write output: ${(error as Error).message}`, ErrorCode.Output, {
    cause: error,
  });
}

/**
 * Turns an error thrown by `fetch` (or by reading a body) into a {@link DialError}.
 *
 * @param error what fetch threw
 * @param url the URL being requested, to name host and port
 * @param signal the signal passed to fetch, to tell a timeout from an interrupt
 * @returns a DialError; DialErrors are returned unchanged
 */
export function networkError(error: unknown, url: URL, signal?: AbortSignal): DialError {
  if (error instanceof DialError) return error;
  const aborted = signal?.aborted ? signal.reason : undefined;
  if (aborted instanceof DialError) return aborted;
  const target = hostPort(url);
  if (error instanceof DOMException && error.name === "TimeoutError") {
    return new TimeoutError(`Timed out waiting for ${target}`, { cause: error });
  }
  const { reason, runtime } = describeNetworkCause(error);
  const network = NETWORK_FACTS[reason];
  return new TransportError(`Cannot reach ${target}: ${reason}${runtime ? ` (${runtime})` : ""}`, {
    details: { target, ...(runtime ? { runtime } : {}), ...(network ? { network } : {}) },
    cause: error,
  });
}

/** The facts behind the reasons that decide the exit code (host not found: 6). */
const NETWORK_FACTS: Record<string, "host_not_found" | "refused" | "reset"> = {
  "host not found": "host_not_found",
  "connection refused": "refused",
  "connection reset": "reset",
};

function describeNetworkCause(error: unknown): { reason: string; runtime?: string } {
  const texts: string[] = [];
  for (let e: unknown = error; e instanceof Error && texts.length < 5; e = e.cause) {
    // Deno's text embeds the URL, -K keys and userinfo included.
    texts.push(redactUrlsInText(e.message));
  }
  const all = texts.join(" ");
  for (const [pattern, label] of NETWORK_REASONS) {
    if (pattern.test(all)) return { reason: label, runtime: lastLine(texts) };
  }
  return { reason: lastLine(texts) || redactUrlsInText(String(error)) };
}

function lastLine(texts: string[]): string {
  return (texts.at(-1) ?? "").split("\n")[0] ?? "";
}
