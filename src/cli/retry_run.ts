/**
 * `--retry` and its companions on the request command: the flags to a retry policy, notes on
 * stderr (curl prints them too; `-s` keeps them quiet); a pipe body is read once, before the
 * first attempt, so every attempt sends the same bytes.
 * @module
 */
import { settleBody } from "../http/body.ts";
import type { BodySource, RequestSpec } from "../http/request_spec.ts";
import { describeRetry, withRetries } from "../http/retry.ts";
import type { Exchange } from "../http/send.ts";
import { warn } from "../output/report.ts";
import type { Sink } from "../output/terminal.ts";

/** The flags read here. */
export interface RetryFlags {
  /** `--retry`. */
  retry?: number | undefined;
  /** `--retry-delay`, ms. */
  retryDelay?: number | undefined;
  /** `--retry-max-time`, ms. */
  retryMaxTime?: number | undefined;
  /** `--retry-all-errors`. */
  retryAllErrors: boolean;
  /** `-f/--check-status`. */
  checkStatus: boolean;
  /** `-s`. */
  silent: boolean;
}

/**
 * @param sendOnce sends one attempt with the given body
 * @param spec the request
 * @param flags the retry flags
 * @param io the Ctrl-C signal and stderr
 * @returns the last exchange
 */
export async function sendWithRetries(
  sendOnce: (body: BodySource | undefined) => Promise<Exchange>,
  spec: RequestSpec,
  flags: RetryFlags,
  io: { signal: AbortSignal; err: Sink },
): Promise<Exchange> {
  const note = async (text: string) => {
    if (!flags.silent) await warn(io.err, text);
  };
  // Read a pipe now (what the send would read for its length), so a retry sends it again.
  const body = spec.body &&
    (await settleBody(
      { method: spec.method, url: spec.url, queryKeys: [], headers: [], body: spec.body },
      (text) => void warn(io.err, text),
    )).request.body;
  return await withRetries((settled) => sendOnce(settled), {
    retries: flags.retry ?? 0,
    ...(flags.retryDelay !== undefined ? { delayMs: flags.retryDelay } : {}),
    ...(flags.retryMaxTime !== undefined ? { maxTimeMs: flags.retryMaxTime } : {}),
    allErrors: flags.retryAllErrors,
    failOnStatus: flags.checkStatus,
  }, {
    method: spec.method,
    ...(body ? { body } : {}),
    signal: io.signal,
    onRetry: (retry) => note(describeRetry(retry)),
    onNote: note,
  });
}
