/**
 * What fetch's `Response` cannot carry and dial shows: the protocol version and the server's
 * own reason phrase, kept beside each response dial's client makes.
 * @module
 */

/** The protocol version and reason phrase of a response, and how its exchange went. */
export interface ResponseMeta {
  /** `HTTP/1.1`, `HTTP/1.0` or `HTTP/2`. */
  version: string;
  /** The reason phrase as the server sent it (none in HTTP/2). */
  reason: string;
  /** When each phase ended (`performance.now()`), for `-w` and reports. */
  timing?: ExchangeTiming;
  /** The peer the connection went to (the proxy, when there is one). */
  remote?: { ip: string; port: number };
  /** Bytes of the response head as received (status line, headers, blank line). */
  headSize?: number;
  /** Whether the exchange went on a kept-alive connection. */
  reused?: boolean;
}

/**
 * The phases of one exchange as curl's `-w` names them, each a `performance.now()` time.
 */
export interface ExchangeTiming {
  /** The exchange began. */
  start: number;
  /**
   * The host name was resolved: the start again when there was no name to resolve (an IP
   * address, a Unix socket, a kept-alive connection). Absent when the runtime's connect
   * resolved it (`TransportOptions.measureLookup` not set): `connect` then includes it.
   */
  namelookup?: number;
  /** The TCP connection was open (the start again on a kept-alive connection). */
  connect: number;
  /** TLS (and a proxy tunnel) was done; `connect` without TLS. */
  appconnect: number;
  /** The request was about to be written. */
  pretransfer: number;
  /** The first byte of the response arrived. */
  starttransfer: number;
}

const META = new WeakMap<Response, ResponseMeta>();

/**
 * The version and reason phrase of a response from dial's client.
 *
 * @param response a response from dial's client (or a copy made with {@link copyMeta})
 * @returns its protocol version and reason phrase, undefined for other responses
 */
export function responseMeta(response: Response): ResponseMeta | undefined {
  return META.get(response);
}

/**
 * Records a response's version and reason.
 *
 * @param response the response
 * @param meta its version and reason
 */
export function setResponseMeta(response: Response, meta: ResponseMeta): void {
  META.set(response, meta);
}

/**
 * Carries the version and reason of one response over to another made from it (decoding).
 *
 * @param from the original
 * @param to the copy
 * @returns the copy
 */
export function copyMeta(from: Response, to: Response): Response {
  const meta = META.get(from);
  if (meta) META.set(to, meta);
  return to;
}
