/**
 * The one trust store of every TLS connection: the runtime's roots, plus the operating
 * system's CA bundle, plus the files named by the variables users already set for curl,
 * OpenSSL, Python and Node, plus `--cacert`; `SSL_CERT_DIR` only when an issuer is found in none
 * of them. The TLS table of docs/tls-proxies.md lists the same sources.
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
  /** Every source, OS store first, `--cacert` last (`SSL_CERT_DIR`'s once read). */
  readonly sources: TrustSource[];
  /** The certificates to add to the roots, each once. */
  readonly pems: string[];
  /**
   * Adds the certificates of `SSL_CERT_DIR`'s directories, which are read only now: OpenSSL
   * looks in them only for an issuer it found nowhere else, and reading a directory of 150
   * files on every HTTPS start cost more than the rest of the trust store (connect.ts calls
   * this when a server's issuer is unknown, then connects again).
   *
   * @returns whether certificates were added (false: no such directory, or read already)
   */
  addDirectories(): boolean;
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

const BEGIN = "-----BEGIN CERTIFICATE-----";
const END = "-----END CERTIFICATE-----";

/**
 * @param texts PEM texts
 * @returns each certificate block once (compared without line ends), in first-seen order
 */
function uniqueCertificates(texts: string[]): string[] {
  const seen = new Map<string, string>();
  for (const text of new Set(texts)) {
    for (let at = text.indexOf(BEGIN); at >= 0; at = text.indexOf(BEGIN, at + 1)) {
      const end = text.indexOf(END, at);
      if (end < 0) break;
      const block = text.slice(at, end + END.length);
      const key = block.replace(/\s+/g, "");
      if (!seen.has(key)) seen.set(key, block);
    }
  }
  return [...seen.values()];
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
  for (const pem of options.caCerts ?? []) sources.push({ origin: "--cacert", pem });
  let certDir = env("SSL_CERT_DIR") || undefined;
  let selfSigned: SelfSignedCertificate[] | undefined;
  // Each certificate once: the variables that name the same bundle, and an SSL_CERT_DIR
  // holding the bundle's certificates one per file (Debian's /etc/ssl/certs), add it once,
  // so the TLS library parses each once per connection.
  let pems = uniqueCertificates(sources.map((s) => s.pem));
  const store: TrustStore = {
    get sources() {
      return sources;
    },
    get pems() {
      return pems;
    },
    addDirectories() {
      if (certDir === undefined) return false;
      const before = pems.length;
      sources.splice(
        sources.length - (options.caCerts?.length ?? 0),
        0,
        ...dirPems(certDir, files),
      );
      certDir = undefined;
      pems = uniqueCertificates(sources.map((s) => s.pem));
      selfSigned = undefined;
      return pems.length > before;
    },
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
