/**
 * A small SOCKS5 proxy for tests (RFC 1928, and RFC 1929's user name and password when asked
 * for): it logs each CONNECT (the address type and what it named), resolves names from its
 * own table only, and connects only to loopback addresses (anything else is answered "not
 * allowed"), then relays bytes both ways.
 * @module
 */

/** One CONNECT as received. */
export interface SocksConnect {
  /** How the client named the server: an IPv4 or IPv6 address, or a name to resolve. */
  type: "ipv4" | "ipv6" | "domain";
  host: string;
  port: number;
}

/** A running SOCKS5 proxy. */
export interface SocksProxy extends AsyncDisposable {
  port: number;
  /** Each CONNECT, in order. */
  connects: SocksConnect[];
  /** Each user name and password offered. */
  logins: string[];
  /** Connections accepted. */
  accepted: number;
}

/** Options of {@link startSocks}. */
export interface SocksOptions {
  /** Require this `user:password`. */
  login?: string;
  /** Names the proxy resolves (default: `localhost`). */
  names?: Record<string, string>;
}

/**
 * @param options a required login, and the names the proxy resolves
 * @returns the proxy, listening on 127.0.0.1
 */
export function startSocks(options: SocksOptions = {}): SocksProxy {
  const names: Record<string, string> = { localhost: "127.0.0.1", ...options.names };
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open = new Set<Deno.Conn>();
  const tasks = new Set<Promise<void>>();
  const proxy: SocksProxy = {
    port: (listener.addr as Deno.NetAddr).port,
    connects: [],
    logins: [],
    accepted: 0,
    async [Symbol.asyncDispose]() {
      listener.close();
      for (const conn of open) close(conn);
      await loop;
      await Promise.allSettled([...tasks]);
    },
  };
  const track = (conn: Deno.Conn) => (open.add(conn), conn);
  const loop = (async () => {
    try {
      for await (const conn of listener) {
        proxy.accepted++;
        const task = serve(track(conn)).catch(() => {}).finally(() => {
          close(conn);
          tasks.delete(task);
        });
        tasks.add(task);
      }
    } catch { /* closed */ }
  })();

  async function serve(conn: Deno.Conn): Promise<void> {
    const read = (n: number) => readExactly(conn, n);
    const write = (bytes: number[]) => conn.write(Uint8Array.from(bytes));
    const [version, count] = await read(2);
    if (version !== 5) return;
    const methods = [...await read(count!)];
    const wanted = options.login === undefined ? 0 : 2;
    if (!methods.includes(wanted)) return void await write([5, 0xff]);
    await write([5, wanted]);
    if (wanted === 2) {
      const [, userLength] = await read(2);
      const user = new TextDecoder().decode(await read(userLength!));
      const [passwordLength] = await read(1);
      const password = new TextDecoder().decode(await read(passwordLength!));
      proxy.logins.push(`${user}:${password}`);
      const ok = `${user}:${password}` === options.login;
      await write([1, ok ? 0 : 1]);
      if (!ok) return;
    }
    const [, command, , type] = await read(4);
    let connect: SocksConnect;
    if (type === 1) {
      connect = { type: "ipv4", host: [...await read(4)].join("."), port: 0 };
    } else if (type === 3) {
      const [length] = await read(1);
      connect = { type: "domain", host: new TextDecoder().decode(await read(length!)), port: 0 };
    } else {
      const bytes = await read(16);
      const groups = [];
      for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
      connect = { type: "ipv6", host: groups.join(":"), port: 0 };
    }
    const [high, low] = await read(2);
    connect.port = (high! << 8) | low!;
    proxy.connects.push(connect);
    const reply = (code: number) => write([5, code, 0, 1, 0, 0, 0, 0, 0, 0]);
    if (command !== 1) return void await reply(7);
    const address = connect.type === "domain" ? names[connect.host] : connect.host;
    if (address === undefined) return void await reply(4);
    if (!/^(127\.|0:0:0:0:0:0:0:1$)/.test(address)) return void await reply(2);
    let upstream: Deno.Conn;
    try {
      upstream = track(
        await Deno.connect({ hostname: address.replace(/^0:.*/, "::1"), port: connect.port }),
      );
    } catch {
      return void await reply(5);
    }
    await reply(0);
    await Promise.allSettled([
      conn.readable.pipeTo(upstream.writable),
      upstream.readable.pipeTo(conn.writable),
    ]);
    close(upstream);
  }
  return proxy;
}

async function readExactly(conn: Deno.Conn, length: number): Promise<Uint8Array> {
  const out = new Uint8Array(length);
  for (let at = 0; at < length;) {
    const n = await conn.read(out.subarray(at));
    if (n === null) throw new Error("closed");
    at += n;
  }
  return out;
}

function close(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch { /* closed */ }
}
