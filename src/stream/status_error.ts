/**
 * What a stream endpoint's refusing status means: how long it asked to wait, and what to do.
 * @module
 */
import type { Remedy } from "../errors/mod.ts";
import { isRedirectStatus } from "../http/status.ts";

/**
 * @param value a `Retry-After` value: delay-seconds or an HTTP-date
 * @param now the current time in ms
 * @returns the delay in ms (0 for a past date), or undefined when absent or unreadable
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3
 */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * @param status an HTTP status
 * @returns the remedy for the statuses people most often meet on streaming endpoints
 */
export function statusRemedy(status: number): Remedy | undefined {
  if (status === 401) return { check: "credentials" };
  if (status === 403) return { check: "permissions" };
  if (isRedirectStatus(status)) return { choose: "final_url" };
  return undefined;
}
