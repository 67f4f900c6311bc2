/**
 * Retries as curl's `--retry` defines them: a transient failure (a timeout, a host name that
 * did not resolve, or HTTP 408, 429, 500, 502, 503, 504) is tried again up to N times, waiting
 * `Retry-After`, else the fixed delay, else 1 s doubling up to 10 minutes; never past the
 * retry time window. `allErrors` retries every failure. Safer than curl: a method that is not
 * idempotent (POST, PATCH…) is retried only with `allErrors`. A pipe body (stdin) is sent
 * again from the bytes read for its length (up to 8 MiB, see body.ts); a longer one was streamed
 * once, so it is not retried (and the caller is told why).
 * @see https://curl.se/docs/manpage.html#--retry
 * @module
 */
import { DialError, ErrorCode, TimeoutError } from "../errors/mod.ts";
import { BUFFER_LIMIT, isReplayable } from "./body.ts";
import type { BodySource } from "./request_spec.ts";
import type { Exchange } from "./send.ts";

/** How to retry. */
export interface RetryPolicy {
  /** Retries after the first attempt (`--retry N`). */
  retries: number;
  /** A fixed wait between attempts in ms (`--retry-delay`); default: 1 s doubling. */
  delayMs?: number;
  /** No retry starts later than this many ms after the first attempt (`--retry-max-time`). */
  maxTimeMs?: number;
  /** Retry every failure, and methods that are not idempotent (`--retry-all-errors`). */
  allErrors?: boolean;
  /** With `allErrors`: a status of 400 or more is a failure too (curl's `--fail`). */
  failOnStatus?: boolean;
}

/** Told before each retry. */
export interface RetryNote {
  /** The attempt about to be made, 2 for the first retry. */
  attempt: number;
  /** Attempts in all, at most. */
  of: number;
  /** What failed: `HTTP 503` or the error's message. */
  reason: string;
  /** How long dial waits first. */
  waitMs: number;
}

/** Statuses curl retries. */
const TRANSIENT_STATUS = new Set([408, 429, 500, 502, 503, 504]);
/** Methods that may be sent twice with the same effect (RFC 9110, 9.2.2). */
const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"]);
/** curl's longest default wait. */
const MAX_BACKOFF_MS = 10 * 60 * 1000;

/** Options for {@link withRetries}. */
export interface RetryOptions {
  /** The method, for the idempotency rule. */
  method: string;
  /** The body, settled (a pipe read into bytes up to 8 MiB, see body.ts `settleBody`). */
  body?: BodySource;
  /** Ctrl-C: stops waiting. */
  signal?: AbortSignal;
  /** Told before each retry. */
  onRetry?: (note: RetryNote) => void | Promise<void>;
  /** Told why a failure is not retried although retries are left. */
  onNote?: (text: string) => void | Promise<void>;
}

/**
 * @param attempt sends once, with the body to send
 * @param policy the retry policy
 * @param options method, body, signal and observers
 * @returns the last exchange (a retryable status that ran out of retries is returned too)
 * @throws the last failure
 */
export async function withRetries(
  attempt: (body: BodySource | undefined) => Promise<Exchange>,
  policy: RetryPolicy,
  options: RetryOptions,
): Promise<Exchange> {
  const started = performance.now();
  const body = options.body;
  let backoff = 1000;
  for (let n = 1;; n++) {
    let outcome: { exchange: Exchange } | { error: unknown };
    try {
      outcome = { exchange: await attempt(body) };
    } catch (error) {
      outcome = { error };
    }
    const reason = "exchange" in outcome
      ? retryableStatus(outcome.exchange.response.status, policy)
      : retryableError(outcome.error, policy);
    const left = n <= policy.retries;
    if (reason === undefined || !left || options.signal?.aborted) return settle(outcome);
    if (!IDEMPOTENT.has(options.method.toUpperCase()) && !policy.allErrors) {
      await options.onNote?.(
        `Not retried: ${options.method} is not idempotent (--retry-all-errors retries it)`,
      );
      return settle(outcome);
    }
    const retryAfter = "exchange" in outcome
      ? retryAfterMs(outcome.exchange.response.headers.get("retry-after"))
      : undefined;
    const waitMs = retryAfter ?? policy.delayMs ?? backoff;
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    const elapsed = performance.now() - started;
    if (policy.maxTimeMs !== undefined && elapsed + waitMs > policy.maxTimeMs) {
      await options.onNote?.(
        `Not retried: waiting ${seconds(waitMs)} would pass --retry-max-time`,
      );
      return settle(outcome);
    }
    if ("exchange" in outcome) await outcome.exchange.response.body?.cancel().catch(() => {});
    if (!isReplayable(body)) {
      await options.onNote?.(
        `Not retried: the request body from a pipe is larger than ${
          BUFFER_LIMIT / 1024 / 1024
        } MiB and was streamed once (send it from a file with @file)`,
      );
      return settle(outcome);
    }
    await options.onRetry?.({ attempt: n + 1, of: policy.retries + 1, reason, waitMs });
    await wait(waitMs, options.signal);
  }
}

function settle(outcome: { exchange: Exchange } | { error: unknown }): Exchange {
  if ("exchange" in outcome) return outcome.exchange;
  throw outcome.error;
}

function retryableStatus(status: number, policy: RetryPolicy): string | undefined {
  if (TRANSIENT_STATUS.has(status) || (policy.allErrors && policy.failOnStatus && status >= 400)) {
    return `HTTP ${status}`;
  }
  return undefined;
}

function retryableError(error: unknown, policy: RetryPolicy): string | undefined {
  if (!(error instanceof DialError)) return undefined;
  if (error.code === ErrorCode.Usage || error.code === ErrorCode.Interrupted) return undefined;
  if (policy.allErrors && (error.code === ErrorCode.Transport || error instanceof TimeoutError)) {
    return error.message;
  }
  // curl's transient failures: a timeout, a host name that did not resolve.
  if (error instanceof TimeoutError || /host not found/.test(error.message)) return error.message;
  return undefined;
}

/**
 * @param value a Retry-After header: seconds or an HTTP date
 * @returns the wait in ms, if the header is usable
 */
export function retryAfterMs(value: string | null): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/** Waits, or stops early when the signal aborts (Ctrl-C). */
function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** How a retry note reads. */
export function describeRetry(note: RetryNote): string {
  return `Retrying in ${
    seconds(note.waitMs)
  } after ${note.reason} (attempt ${note.attempt} of ${note.of})`;
}
