/**
 * Keep-alive: idle HTTP/1.1 connections, and HTTP/2 connections (each request a stream of one
 * session), kept for the next request to the same place, keyed by
 * the transport plan (where the socket goes, the proxy and how it is used, the TLS name,
 * connector, trust and client identity). A pool is given in {@link TransportOptions.pool}: the
 * CLI makes one per command (`dial GET`, `dial run`, `dial test`, `dial ui`: redirects, Digest
 * and OAuth retries and the UI's sends included) and closes it when the command ends; without
 * one, each request has its own connection.
 *
 * A connection goes back to the pool only when its exchange ended cleanly: the request written
 * whole, the response body read to its framed end (`Content-Length` or chunked), no byte left
 * over, and neither side said `Connection: close`. Idle connections hold no pending read, so
 * they never keep the process alive; one idle longer than {@link IDLE_MS} is closed instead of
 * used.
 * @module
 */
import type { Connection } from "./connect.ts";
import type { TransportOptions, TransportPlan } from "./plan.ts";

/** How long an idle connection is kept, milliseconds (servers close theirs after 5-75 s). */
export const IDLE_MS = 4_000;

/** The most idle connections kept per key. */
const PER_KEY = 8;

interface Idle {
  conn: Connection;
  since: number;
}

const idle = new WeakMap<ConnectionPool, Map<string, Idle[]>>();

/** A multiplexed connection (HTTP/2) that takes requests while it is alive. */
export interface Shared {
  /** The connection. */
  conn: Connection;
  /** Whether it can take another request. */
  alive(): boolean;
  /** Ends it. */
  close(): void;
}

const shared = new WeakMap<ConnectionPool, Map<string, Shared[]>>();

/**
 * Keeps HTTP/1.1 connections alive, and HTTP/2 sessions open, between the requests given it
 * in {@link TransportOptions.pool}; {@link ConnectionPool.close} closes them (an open HTTP/2
 * session holds a read: close the pool when done).
 *
 * @example
 * ```ts
 * using pool = new ConnectionPool();
 * const fetch = transportFetch({ pool });
 * ```
 */
export class ConnectionPool {
  /** How many connections requests through this pool opened (kept ones are not counted). */
  opened = 0;

  /** Makes an empty pool. */
  constructor() {
    idle.set(this, new Map());
    shared.set(this, new Map());
  }

  /** Closes every idle connection, and every HTTP/2 connection kept. */
  close(): void {
    const byKey = idle.get(this)!;
    for (const list of byKey.values()) for (const kept of list) kept.conn.close();
    byKey.clear();
    const multiplexed = shared.get(this)!;
    for (const list of multiplexed.values()) for (const one of list) one.close();
    multiplexed.clear();
  }

  /** Closes every idle connection (`using`). */
  [Symbol.dispose](): void {
    this.close();
  }
}

/**
 * @param pool the pool
 * @param key a plan's key ({@link planKey})
 * @returns an idle connection for the key, undefined when there is none
 */
export function takeConnection(pool: ConnectionPool, key: string): Connection | undefined {
  const list = idle.get(pool)!.get(key);
  while (list?.length) {
    const kept = list.pop()!;
    if (performance.now() - kept.since <= IDLE_MS) return kept.conn;
    kept.conn.close();
  }
  return undefined;
}

/**
 * Keeps a connection whose exchange ended cleanly.
 *
 * @param pool the pool
 * @param key the plan's key
 * @param conn the connection
 */
export function keepConnection(pool: ConnectionPool, key: string, conn: Connection): void {
  const byKey = idle.get(pool)!;
  const list = byKey.get(key) ?? [];
  byKey.set(key, list);
  list.push({ conn, since: performance.now() });
  while (list.length > PER_KEY) list.shift()!.conn.close();
}

/**
 * Keeps a multiplexed (HTTP/2) connection for the next requests with the same key, as long as
 * it is alive; the pool closes it when it closes.
 *
 * @param pool the pool
 * @param key the plan's key
 * @param connection the connection
 */
export function shareConnection(pool: ConnectionPool, key: string, connection: Shared): void {
  const byKey = shared.get(pool)!;
  byKey.set(key, [...(byKey.get(key) ?? []).filter((s) => s.alive()), connection]);
}

/**
 * @param pool the pool
 * @param key a plan's key
 * @returns a multiplexed connection for the key that can take a request, if any
 */
export function sharedConnection(pool: ConnectionPool, key: string): Connection | undefined {
  return shared.get(pool)!.get(key)?.find((s) => s.alive())?.conn;
}

const ids = new WeakMap<object, number>();
let nextId = 0;
function idOf(value: object | undefined): string {
  if (value === undefined) return "-";
  let id = ids.get(value);
  if (id === undefined) ids.set(value, id = ++nextId);
  return String(id);
}

/**
 * The key of a plan: two requests with the same key may share a connection.
 *
 * @param plan the request's plan
 * @param options the options it was made from (trust and client identity)
 * @returns the key
 */
export function planKey(plan: TransportPlan, options: TransportOptions): string {
  const endpoint = plan.endpoint.kind === "unix"
    ? `unix:${plan.endpoint.path}`
    : `tcp:${plan.endpoint.hostname}:${plan.endpoint.port}`;
  const proxy = plan.proxy
    ? `${plan.proxy.url.href} ${plan.proxy.mode} ${plan.proxy.authority} ${idOf(plan.proxy.trust)}`
    : "-";
  const tls = plan.tls
    ? [
      plan.tls.servername,
      plan.tls.connector,
      plan.tls.verify,
      plan.tls.alpn.join(","),
      idOf(plan.tls.trust),
      idOf(options.key),
      plan.tls.cert ?? "-",
    ].join(" ")
    : "-";
  return `${endpoint}|${proxy}|${tls}`;
}
