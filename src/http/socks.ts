/**
 * SOCKS5 proxies (RFC 1928), with a user name and password when the proxy URL has them
 * (RFC 1929): `socks5h://` lets the proxy resolve the server's name, as curl does;
 * `socks5://` resolves it here (the system resolver: /etc/hosts first) and sends the address.
 * Loaded only when a SOCKS proxy is in use.
 * @module
 */
import { isIP } from "node:net";
import { TransportError } from "../errors/mod.ts";
import { bareHost } from "./authority.ts";
import { displayProxy } from "./proxy.ts";
import { lookupHost } from "./lookup.ts";
import type { TransportPlan } from "./plan.ts";

/** The replies of RFC 1928 §6, in the words of the message. */
const REPLIES: Record<number, string> = {
  1: "general SOCKS server failure",
  2: "connection not allowed by its rules",
  3: "network unreachable",
  4: "host unreachable",
  5: "connection refused",
  6: "TTL expired",
  7: "command not supported",
  8: "address type not supported",
};

/**
 * Asks the SOCKS5 proxy the connection is open to for a connection to the plan's server.
 * Exactly the proxy's replies are read: the server's bytes (TLS, HTTP) follow on the socket.
 *
 * @param conn a connection to the proxy
 * @param plan a plan whose proxy is a SOCKS5 proxy
 * @throws {TransportError} when the proxy refuses, or the name cannot be resolved here
 */
export async function socksConnect(conn: Deno.Conn, plan: TransportPlan): Promise<void> {
  const proxy = plan.proxy!;
  const name = `${displayProxy(proxy.url)} (${proxy.source})`;
  const fail = (why: string) =>
    new TransportError(`Proxy ${name} cannot connect to ${plan.target}: ${why}`, {
      details: { proxySource: proxy.source, target: plan.target, network: "proxy_handshake" },
      remedy: { check: "proxy" },
    });
  const io = exchange(conn, () => fail("the proxy closed the connection"));
  const user = decodeURIComponent(proxy.url.username);
  const password = decodeURIComponent(proxy.url.password);
  const withLogin = proxy.url.username !== "" || proxy.url.password !== "";
  // Greeting: version 5 and the methods offered (0 none, 2 user name and password).
  await io.write(withLogin ? [5, 2, 0, 2] : [5, 1, 0]);
  const [version, method] = await io.read(2);
  if (version !== 5) throw fail("it does not speak SOCKS5");
  if (method === 2 && withLogin) {
    const u = ENCODER.encode(user);
    const p = ENCODER.encode(password);
    if (u.length > 255 || p.length > 255) throw fail("user name or password over 255 bytes");
    await io.write([1, u.length, ...u, p.length, ...p]);
    const [, status] = await io.read(2);
    if (status !== 0) throw fail("it refused the user name and password");
  } else if (method !== 0) {
    throw fail(
      method === 2
        ? "it asks for a user name and password (give socks5://user:pass@host:port)"
        : "it accepts none of the ways to log in dial offers",
    );
  }
  const at = proxy.authority.lastIndexOf(":");
  const host = bareHost(proxy.authority.slice(0, at));
  const port = Number(proxy.authority.slice(at + 1));
  const address = await addressOf(host, proxy.url.protocol === "socks5h:", fail);
  await io.write([5, 1, 0, ...address, port >> 8, port & 0xff]);
  const [, reply, , type] = await io.read(4);
  if (reply !== 0) throw fail(REPLIES[reply!] ?? `SOCKS5 reply ${reply}`);
  // The address the proxy bound: read and left aside.
  const length = type === 1 ? 4 : type === 4 ? 16 : type === 3 ? (await io.read(1))[0]! : -1;
  if (length < 0) throw fail(`an unknown address type ${type} in its reply`);
  await io.read(length + 2);
}

/** The address part of a CONNECT: an IP address, or the name for the proxy to resolve. */
async function addressOf(
  host: string,
  remote: boolean,
  fail: (why: string) => TransportError,
): Promise<number[]> {
  let ip = isIP(host) ? host : undefined;
  if (!ip && !remote) {
    try {
      ip = await lookupHost(host);
    } catch {
      throw new TransportError(`Cannot resolve host ${host} (for the SOCKS5 proxy)`, {
        details: { network: "host_not_found", target: host },
        remedy: { check: "proxy" },
      });
    }
  }
  if (!ip) {
    const name = ENCODER.encode(host);
    if (name.length > 255) throw fail("host name over 255 bytes");
    return [3, name.length, ...name];
  }
  if (isIP(ip) === 4) return [1, ...ip.split(".").map(Number)];
  return [4, ...ipv6Bytes(ip)];
}

/** The 16 bytes of an IPv6 address (`::` expanded, a trailing IPv4 part read). */
function ipv6Bytes(ip: string): number[] {
  let text = ip;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split(".").map(Number) as [number, number, number, number];
    text = text.slice(0, -v4[1]!.length) +
      `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string?];
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const groups = tail === undefined
    ? left
    : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  return groups.flatMap((group) => {
    const value = parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
}

/** Exact reads and whole writes on the proxy's socket. */
function exchange(conn: Deno.Conn, closed: () => TransportError) {
  return {
    async write(bytes: number[]): Promise<void> {
      const data = Uint8Array.from(bytes);
      for (let at = 0; at < data.length;) at += await conn.write(data.subarray(at));
    },
    async read(length: number): Promise<Uint8Array> {
      const out = new Uint8Array(length);
      for (let at = 0; at < length;) {
        const n = await conn.read(out.subarray(at));
        if (n === null) throw closed();
        at += n;
      }
      return out;
    },
  };
}

const ENCODER = new TextEncoder();
