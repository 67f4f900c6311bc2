/**
 * The connection flags every connecting command shares: `--cacert`, `--cert`/`--key`, `-k`,
 * `-x/--proxy`, `--noproxy`, `--connect-timeout`, `--resolve`, `--connect-to`,
 * `--unix-socket`; one declaration, one translation to the core's {@link TransportOptions}.
 * @module
 */
import { load } from "../load.ts";
import type { CliContext } from "./context.ts";
import { UsageError } from "../errors/mod.ts";
import type { TransportOptions, TransportPlan } from "../http/plan.ts";
import { warn } from "../output/report.ts";
import { flags, type FlagValues } from "./declare.ts";

/** What `-k` does and where it cannot help, for `--help` and docs/tls-proxies.md. */
export const INSECURE_HELP = "skip TLS certificate checks for this run's hosts (warns)";

/** The connection flags of every command that connects. */
export const TRANSPORT_FLAGS = flags([
  {
    long: "cacert",
    value: "file",
    file: true,
    repeatable: true,
    help: "also trust these PEM certificates (repeatable; a bundle or a self-signed certificate)",
  },
  { long: "cert", value: "file", file: true, help: "client certificate (PEM) for mutual TLS" },
  { long: "key", value: "file", file: true, help: "private key (PEM, unencrypted) of --cert" },
  { long: "insecure", short: "k", help: INSECURE_HELP },
  {
    long: "proxy",
    short: "x",
    value: "url",
    help: 'proxy: http(s)://, socks5:// or socks5h:// [user:pass@]host:port ("" for none)',
  },
  {
    long: "noproxy",
    value: "hosts",
    help: "comma-separated hosts that bypass the proxy (replaces NO_PROXY)",
  },
  {
    long: "connect-timeout",
    value: "seconds",
    kind: "seconds",
    help: "limit opening the connection: TCP, proxy tunnel and TLS handshake",
  },
  {
    long: "resolve",
    value: "host:port:addr",
    repeatable: true,
    help: "connect to addr for host:port; Host, SNI and certificate keep the host (as curl)",
  },
  {
    long: "connect-to",
    value: "host:port:host2:port2",
    repeatable: true,
    help: "connect to host2:port2 for host:port (empty parts match any; as curl)",
  },
  {
    long: "unix-socket",
    value: "path",
    file: true,
    help: "connect through this Unix socket (e.g. /var/run/docker.sock)",
  },
]);

/** The values of the connection flags. */
export type TransportFlagValues = FlagValues<typeof TRANSPORT_FLAGS>;

/**
 * The curl arguments for the connection flags, for `--curl`. (curl's `--cacert` replaces the
 * default roots, where dial's adds to them.)
 *
 * @param flags the flag values
 * @returns curl arguments
 */
export function curlTransportArgs(flags: TransportFlagValues): string[] {
  return [
    ...flags.cacert.flatMap((path) => ["--cacert", path]),
    ...(flags.cert !== undefined ? ["--cert", flags.cert] : []),
    ...(flags.key !== undefined ? ["--key", flags.key] : []),
    ...(flags.insecure ? ["-k"] : []),
    ...(flags.proxy !== undefined ? ["--proxy", flags.proxy] : []),
    ...(flags.noproxy !== undefined ? ["--noproxy", flags.noproxy] : []),
    ...(flags.connectTimeout !== undefined
      ? ["--connect-timeout", String(flags.connectTimeout / 1000)]
      : []),
    ...flags.resolve.flatMap((entry) => ["--resolve", entry]),
    ...flags.connectTo.flatMap((entry) => ["--connect-to", entry]),
    ...(flags.unixSocket !== undefined ? ["--unix-socket", flags.unixSocket] : []),
  ];
}

/**
 * Turns the connection flags into transport options: reads the PEM files, checks the
 * values, and (with `verbose`) reports proxies and bridges on stderr. `-k` warns on stderr.
 *
 * @param flags the flag values
 * @param context the run: its stderr and environment (proxy variables)
 * @param verbose print each route's proxy and bridge once
 * @returns the options for `send()`, sessions and the UI server
 * @throws {UsageError} for unreadable files or bad values
 */
export async function parseTransportFlags(
  flags: TransportFlagValues,
  context: CliContext,
  verbose = false,
): Promise<TransportOptions> {
  if ((flags.cert === undefined) !== (flags.key === undefined)) {
    throw new UsageError(flags.cert ? "Missing --key for --cert" : "Missing --cert for --key", {
      hint: "give both: --cert client.pem --key client.key",
    });
  }
  // The settings' module (PEM files, proxy URLs) loads only when one of them is given.
  const given = flags.cacert.length > 0 || flags.cert !== undefined || flags.key !== undefined ||
    flags.insecure || flags.proxy !== undefined || flags.noproxy !== undefined;
  const read: TransportOptions = given
    ? await (await load.transportSettings()).readTransportSettings({
      cacert: flags.cacert,
      ...(flags.cert !== undefined ? { cert: flags.cert } : {}),
      ...(flags.key !== undefined ? { key: flags.key } : {}),
      ...(flags.insecure ? { insecure: true } : {}),
      ...(flags.proxy !== undefined ? { proxy: flags.proxy } : {}),
      ...(flags.noproxy !== undefined ? { noproxy: flags.noproxy } : {}),
    }, { cacert: "--cacert", cert: "--cert", key: "--key", proxy: "--proxy" })
    : {};
  const { describePlan, parseAddressOverrides } = await load.plan();
  parseAddressOverrides(flags.resolve, "--resolve");
  parseAddressOverrides(flags.connectTo, "--connect-to");
  const err = context.stderr;
  const told = new Set<string>();
  const onRoute = (plan: TransportPlan) => {
    const text = verbose ? describePlan(plan).map((line) => line + "\n").join("") : "";
    const insecure = plan.tls?.why === "insecure";
    if ((!text && !insecure) || told.has(plan.target + text)) return;
    told.add(plan.target + text);
    if (text) void err.write(text);
    if (insecure) {
      void warn(err, `-k: the TLS certificate of ${plan.target} is not verified (insecure)`);
    }
  };
  return {
    ...read,
    ...(flags.connectTimeout !== undefined ? { connectTimeoutMs: flags.connectTimeout } : {}),
    ...(flags.resolve.length ? { resolve: flags.resolve } : {}),
    ...(flags.connectTo.length ? { connectTo: flags.connectTo } : {}),
    ...(flags.unixSocket !== undefined ? { unixSocket: flags.unixSocket } : {}),
    env: context.env,
    // One keep-alive pool per run: every request, redirect and retry of the command shares it.
    pool: context.pool ??= new (await load.pool()).ConnectionPool(),
    onRoute,
    ...(verbose
      ? {
        onConnected: (plan: TransportPlan, protocol: "http/1.1" | "h2") =>
          void err.write(
            `* ALPN: ${plan.target} chose ${protocol === "h2" ? "HTTP/2" : "HTTP/1.1"}\n`,
          ),
      }
      : {}),
  };
}
