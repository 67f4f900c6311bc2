/**
 * HTTP status classes (the exit code of each is in `src/errors/codes.ts`).
 * @module
 */

/**
 * @param status an HTTP status
 * @returns whether it is 2xx
 */
export function isSuccessfulStatus(status: number): boolean {
  return status >= 200 && status < 300;
}

/**
 * @param status an HTTP status
 * @returns whether it is 3xx
 */
export function isRedirectStatus(status: number): boolean {
  return status >= 300 && status < 400;
}

/**
 * @param status an HTTP status
 * @returns whether it is 4xx
 */
export function isClientErrorStatus(status: number): boolean {
  return status >= 400 && status < 500;
}

/**
 * @param status an HTTP status
 * @returns whether it is 5xx
 */
export function isServerErrorStatus(status: number): boolean {
  return status >= 500 && status < 600;
}

/**
 * @param status an HTTP status
 * @returns whether it is 4xx or 5xx
 */
export function isErrorStatus(status: number): boolean {
  return isClientErrorStatus(status) || isServerErrorStatus(status);
}

/** The class of an HTTP status, for colours and tones. */
export type StatusClass =
  | "informational"
  | "success"
  | "redirect"
  | "client_error"
  | "server_error";

/**
 * @param status an HTTP status
 * @returns its class; anything outside 100–599 counts as a server error
 */
export function statusClass(status: number): StatusClass {
  if (status >= 100 && status < 200) return "informational";
  if (isSuccessfulStatus(status)) return "success";
  if (isRedirectStatus(status)) return "redirect";
  if (isClientErrorStatus(status)) return "client_error";
  return "server_error";
}
