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

/**
 * Stores by `--cacert` list and environment lookup: options spread into new objects (a
 * request's own timeout) keep the same store, so they share pooled connections too.
 */
const cache = new WeakMap<object, WeakMap<EnvLookup, TrustStore>>();
const NO_CA_CERTS: string[] = [];

/** A hashed name OpenSSL looks certificates up by (`c_rehash`): `5ad8a5d6.0`. */
const HASH_LINK = /^[0-9a-f]{8}\.\d+$/;

/** Reads each file once: the CA variables often all name the same bundle. */
class Files {
  #read = new Map<string, string>();
  /** Whether the path was read already. */
  has(path: string): boolean {
    return this.#read.has(path);
  }
  /** @returns the text of a required file; a usage error naming the variable otherwise */
  required(path: string, origin: string): string {
    try {
      return this.#readOnce(path);
    } catch (error) {
      const why = error instanceof Deno.errors.NotFound ? "no such file" : (error as Error).message;
      throw new UsageError(`Cannot read ${origin} "${path}": ${why}`, {
        details: { variable: origin },
        remedy: { check: "ca_variable" },
      });
    }
  }
  /** @returns the text of a directory entry, undefined when unreadable (OpenSSL skips it) */
  optional(path: string): string | undefined {
    try {
      return this.#readOnce(path);
    } catch {
      return undefined;
    }
  }
  /** Reads a file the first time it is asked for. */
  #readOnce(path: string): string {
    const known = this.#read.get(path);
    if (known !== undefined) return known;
    const text = Deno.readTextFileSync(path);
    this.#read.set(path, text);
    return text;
  }
}

function exists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/**
 * The certificates of `SSL_CERT_DIR` directories. A hashed name (`5ad8a5d6.0`) that links to a
 * file of the same directory is that file again and is not read twice, nor is a file read
 * already as a bundle (`/etc/ssl/certs/ca-certificates.crt`).
 */
function dirPems(dirs: string, files: Files): TrustSource[] {
  const out: TrustSource[] = [];
  for (const dir of dirs.split(":").filter(Boolean)) {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(dir)];
    } catch {
      continue;
    }
    const names = new Set(entries.map((entry) => entry.name));
    for (const entry of entries.sort((a, b) => a.name < b.name ? -1 : 1)) {
      if (!/\.(pem|crt|\d+)$/.test(entry.name)) continue;
      const path = `${dir}/${entry.name}`;
      if (files.has(path)) continue;
      if (entry.isSymlink && HASH_LINK.test(entry.name)) {
        try {
          const target = Deno.readLinkSync(path);
          if (!target.includes("/") && names.has(target) && /\.(pem|crt)$/.test(target)) continue;
        } catch { /* read it as it is */ }
      }
      const pem = files.optional(path);
      if (pem?.includes("-----BEGIN CERTIFICATE-----")) {
        out.push({ origin: "SSL_CERT_DIR", path, pem });
      }
    }
  }
  return out;
}

/**
 * The trust store for a set of options (cached per `--cacert` list and environment lookup).
 *
 * @param options `--cacert` texts and the environment
 * @returns the store
 * @throws {UsageError} when a variable names a file that cannot be read
 */
export function trustFor(options: TrustOptions): TrustStore {
  const env = options.env ?? processEnv;
  const byEnv = cache.get(options.caCerts ?? NO_CA_CERTS) ?? new WeakMap();
  cache.set(options.caCerts ?? NO_CA_CERTS, byEnv);
  const cached = byEnv.get(env);
  if (cached) return cached;
  const files = new Files();
  const sources: TrustSource[] = [];
  const certFile = env("SSL_CERT_FILE");
  const bundle = certFile ? undefined : OS_BUNDLES.find(exists);
  if (certFile) {
    sources.push({
      origin: "SSL_CERT_FILE",
      path: certFile,
      pem: files.required(certFile, "SSL_CERT_FILE"),
    });
  } else if (bundle) {
    sources.push({ origin: "OS store", path: bundle, pem: files.required(bundle, "the OS store") });
  }
  for (const name of CA_FILE_VARIABLES) {
    const path = env(name);
    if (path) sources.push({ origin: name, path, pem: files.required(path, name) });
  }
  const certDir = env("SSL_CERT_DIR");
  if (certDir) sources.push(...dirPems(certDir, files));
  for (const pem of options.caCerts ?? []) sources.push({ origin: "--cacert", pem });
  let selfSigned: SelfSignedCertificate[] | undefined;
  const store: TrustStore = {
    sources,
    // One text per file: the variables that name the same bundle add it once.
    pems: [...new Set(sources.map((s) => s.pem))],
    selfSignedFor(hostname) {
      // The OS store holds roots only; self-signed leaves come from the user's own files.
      // Parsed only when Deno's TLS has refused such a certificate (see connect.ts).
      const own = sources.filter((s) => s.origin !== "OS store");
      if (own.length === 0) return false;
      selfSigned ??= selfSignedServerCertificates([...new Set(own.map((s) => s.pem))]);
      return selfSigned.some((certificate) => namesHost(certificate, hostname));
    },
  };
  byEnv.set(env, store);
  return store;
}
