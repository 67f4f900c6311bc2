/**
 * The one trust store of every TLS connection: the runtime's roots, plus the operating
 * system's CA bundle, plus the files named by the variables users already set for curl,
 * OpenSSL, Python and Node, plus `--cacert`. The TLS table of docs/tls-proxies.md lists the same sources.
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import { type EnvLookup, processEnv } from "../env.ts";
import {
  namesHost,
  type SelfSignedCertificate,
  selfSignedServerCertificates,
} from "./certificates.ts";

/** The CA bundles of common systems; the first that exists is the OS store. */
export const OS_BUNDLES: readonly string[] = [
  "/etc/ssl/certs/ca-certificates.crt", // Debian, Ubuntu, Alpine, Arch
  "/etc/pki/tls/certs/ca-bundle.crt", // Fedora, RHEL
  "/etc/ssl/ca-bundle.pem", // openSUSE
  "/etc/ssl/cert.pem", // macOS, BSDs
];

/** Variables naming one PEM file, in the order they are read. */
export const CA_FILE_VARIABLES: readonly string[] = [
  "CURL_CA_BUNDLE",
  "REQUESTS_CA_BUNDLE",
  "NODE_EXTRA_CA_CERTS",
  "DENO_CERT",
];

/** One source of trusted certificates. */
export interface TrustSource {
  /** Where it came from: `OS store`, a variable name, or `--cacert`. */
  origin: string;
  /** The file, when there is one. */
  path?: string;
  /** The PEM text. */
  pem: string;
}

/** Certificates trusted beyond the runtime's roots, with a lookup for self-signed leaves. */
export interface TrustStore {
  /** Every source, OS store first, `--cacert` last. */
  sources: TrustSource[];
  /** The PEM texts to add to the roots. */
  pems: string[];
  /**
   * Whether TLS with a host must accept a self-signed certificate given as its own CA.
   *
   * @param hostname a host name or address
   * @returns whether a self-signed server certificate given by the user names it
   */
  selfSignedFor(hostname: string): boolean;
}

/** Options read by {@link trustFor}. */
export interface TrustOptions {
  /** `--cacert` PEM texts. */
  caCerts?: string[];
  /** Environment lookup; default `Deno.env.get`. */
  env?: EnvLookup;
}

const cache = new WeakMap<object, TrustStore>();

function readPem(path: string, origin: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch (error) {
    const why = error instanceof Deno.errors.NotFound ? "no such file" : (error as Error).message;
    throw new UsageError(`Cannot read ${origin} "${path}": ${why}`, {
      details: { variable: origin },
      remedy: { check: "ca_variable" },
    });
  }
}

function exists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

function dirPems(dirs: string): TrustSource[] {
  const out: TrustSource[] = [];
  for (const dir of dirs.split(":").filter(Boolean)) {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(dir)];
    } catch {
      continue;
    }
    for (const entry of entries.sort((a, b) => a.name < b.name ? -1 : 1)) {
      if (!/\.(pem|crt|\d+)$/.test(entry.name)) continue;
      const path = `${dir}/${entry.name}`;
      try {
        const pem = Deno.readTextFileSync(path);
        if (pem.includes("-----BEGIN CERTIFICATE-----")) {
          out.push({ origin: "SSL_CERT_DIR", path, pem });
        }
      } catch { /* unreadable entries are skipped, as OpenSSL does */ }
    }
  }
  return out;
}

/**
 * The trust store for a set of options (cached per options object).
 *
 * @param options `--cacert` texts and the environment
 * @returns the store
 * @throws {UsageError} when a variable names a file that cannot be read
 */
export function trustFor(options: TrustOptions): TrustStore {
  const cached = cache.get(options);
  if (cached) return cached;
  const env = options.env ?? processEnv;
  const sources: TrustSource[] = [];
  const certFile = env("SSL_CERT_FILE");
  if (certFile) {
    sources.push({
      origin: "SSL_CERT_FILE",
      path: certFile,
      pem: readPem(certFile, "SSL_CERT_FILE"),
    });
  } else {
    const bundle = OS_BUNDLES.find(exists);
    if (bundle) {
      sources.push({ origin: "OS store", path: bundle, pem: readPem(bundle, "the OS store") });
    }
  }
  const certDir = env("SSL_CERT_DIR");
  if (certDir) sources.push(...dirPems(certDir));
  for (const name of CA_FILE_VARIABLES) {
    const path = env(name);
    if (path) sources.push({ origin: name, path, pem: readPem(path, name) });
  }
  for (const pem of options.caCerts ?? []) sources.push({ origin: "--cacert", pem });
  let selfSigned: SelfSignedCertificate[] | undefined;
  const store: TrustStore = {
    sources,
    pems: sources.map((s) => s.pem),
    selfSignedFor(hostname) {
      // The OS store holds roots only; self-signed leaves come from the user's own files.
      const own = sources.filter((s) => s.origin !== "OS store");
      if (own.length === 0) return false;
      selfSigned ??= selfSignedServerCertificates(own.map((s) => s.pem));
      return selfSigned.some((certificate) => namesHost(certificate, hostname));
    },
  };
  cache.set(options, store);
  return store;
}
