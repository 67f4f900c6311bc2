/**
 * Name resolution done apart from connecting, so its time is known (curl's `time_namelookup`,
 * the reports' DNS phase): the system resolver (getaddrinfo: /etc/hosts, then DNS), as the
 * runtime's own connect uses it, and its first address, as the runtime's connect takes it.
 * Loaded only when asked ({@link TransportOptions.measureLookup}) or for a `socks5://` proxy
 * (node:dns costs ~13 ms of start-up once).
 * @module
 */
import { lookup } from "node:dns/promises";

/**
 * @param host a host name (not an IP address)
 * @returns the address the system resolver gives first
 * @throws {Error} the resolver's (`getaddrinfo ENOTFOUND host`)
 */
export async function lookupHost(host: string): Promise<string> {
  return (await lookup(host, { verbatim: true })).address;
}
