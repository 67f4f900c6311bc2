/**
 * A TCP port for a server that cannot listen on port 0 (dial's OAuth callback, nginx, lighttpd,
 * openssl s_server) or for a connection that must be refused.
 *
 * Listening on port 0, reading the port and closing the listener leaves a window before the port
 * is used: in it, the kernel may hand the same port to another process's outgoing connection or
 * to another listener on port 0, on 127.0.0.1 or on ::1 (a callback on `localhost` binds both).
 * Both draw from the kernel's ephemeral range. The port returned here is outside that range and
 * was free on both loopback addresses a moment ago, so only another caller of this function can
 * take it: one in this process never gets a port twice, and processes pick at random from
 * ~15,000 ports.
 * @module
 */

const taken = new Set<number>();

/** Ports the kernel does not give to port-0 listeners or outgoing connections. */
function quietRange(): [number, number] {
  let low = 32768, high = 60999; // Linux's default; macOS and Windows start at 49152
  try {
    const text = Deno.readTextFileSync("/proc/sys/net/ipv4/ip_local_port_range");
    [low, high] = text.trim().split(/\s+/).map(Number) as [number, number];
  } catch {
    // no /proc: the defaults above leave 17768-32767 outside every platform's range
  }
  if (low - 1024 >= 2000) return [Math.max(1024, low - 15000), low - 1];
  if (65535 - high >= 2000) return [high + 1, 65535];
  throw new Error(`no port range outside the ephemeral ports ${low}-${high}`);
}

/** Whether nothing listens on or is connected from `port` at `hostname`. */
function freeOn(hostname: string, port: number): boolean {
  try {
    Deno.listen({ hostname, port }).close();
    return true;
  } catch (error) {
    // A machine without an IPv6 loopback cannot give ::1's port to anyone either.
    return hostname === "::1" && !(error instanceof Deno.errors.AddrInUse);
  }
}

/**
 * @returns a port outside the ephemeral range, free a moment ago on 127.0.0.1 and ::1, never
 * returned before in this process
 */
export function unusedPort(): number {
  const [low, high] = quietRange();
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (taken.has(port) || !freeOn("127.0.0.1", port) || !freeOn("::1", port)) continue;
    taken.add(port);
    return port;
  }
  throw new Error(`no free port found in ${low}-${high}`);
}
