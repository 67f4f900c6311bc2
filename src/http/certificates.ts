/**
 * Just enough X.509 reading to recognise a self-signed server certificate (issuer equals
 * subject, CA:TRUE, with a subjectAltName), which Deno's verifier refuses as an end entity
 * (`CaUsedAsEndEntity`) even when it is given as a CA.
 * @module
 */
import { bareHost } from "./authority.ts";

/** A self-signed server certificate and the names it is for. */
export interface SelfSignedCertificate {
  /** The certificate, DER. */
  der: Uint8Array;
  /** Its subjectAltName DNS names (lower case, maybe `*.` wildcards) and IP addresses. */
  names: string[];
}

/**
 * @param pems PEM texts, each possibly a bundle
 * @returns each certificate that looks like a self-signed server certificate
 */
export function selfSignedServerCertificates(pems: string[]): SelfSignedCertificate[] {
  const found: SelfSignedCertificate[] = [];
  for (const der of pemBlocks(pems.join("\n"))) {
    try {
      const names = selfSignedServerNames(der);
      if (names) found.push({ der, names });
    } catch { /* not a certificate we can read: leave it to the runtime */ }
  }
  return found;
}

/**
 * @param certificate a self-signed server certificate
 * @param hostname a URL's hostname (IPv6 in brackets or not)
 * @returns whether the certificate names the host (one-label `*.` wildcards included)
 */
export function namesHost(certificate: SelfSignedCertificate, hostname: string): boolean {
  const host = bareHost(hostname).toLowerCase();
  return certificate.names.some((name) =>
    name === host ||
    (name.startsWith("*.") && host.endsWith(name.slice(1)) &&
      !host.slice(0, -name.length + 1).includes("."))
  );
}

/**
 * @param text PEM text
 * @returns the DER bytes of each CERTIFICATE block
 */
export function pemBlocks(text: string): Uint8Array[] {
  const blocks: Uint8Array[] = [];
  const pattern = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;
  for (const match of text.matchAll(pattern)) {
    blocks.push(Uint8Array.fromBase64(match[1]!.replace(/\s+/g, "")));
  }
  return blocks;
}

interface Node {
  tag: number;
  start: number;
  end: number;
  /** Where the whole element (header included) starts. */
  outer: number;
}

function read(der: Uint8Array, at: number): Node {
  const tag = der[at]!;
  let length = der[at + 1]!;
  let start = at + 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    length = 0;
    for (let i = 0; i < bytes; i++) length = length * 256 + der[start + i]!;
    start += bytes;
  }
  return { tag, start, end: start + length, outer: at };
}

function children(der: Uint8Array, node: Node): Node[] {
  const list: Node[] = [];
  for (let at = node.start; at < node.end;) {
    const child = read(der, at);
    list.push(child);
    at = child.end;
  }
  return list;
}

const BASIC_CONSTRAINTS = "551d13";
const SUBJECT_ALT_NAME = "551d11";

function hex(der: Uint8Array, node: Node): string {
  return Array.from(der.subarray(node.start, node.end), (b) => b.toString(16).padStart(2, "0"))
    .join("");
}

/** @returns the SAN names of a self-signed CA:TRUE certificate, or undefined for any other */
function selfSignedServerNames(der: Uint8Array): string[] | undefined {
  const certificate = read(der, 0);
  const tbs = children(der, certificate)[0]!;
  const fields = children(der, tbs);
  const offset = fields[0]!.tag === 0xa0 ? 1 : 0;
  const issuer = fields[offset + 2]!;
  const subject = fields[offset + 4]!;
  const sameName = hex(der, issuer) === hex(der, subject);
  const extensions = fields.find((f) => f.tag === 0xa3);
  if (!sameName || !extensions) return undefined;
  let ca = false;
  const names: string[] = [];
  for (const extension of children(der, children(der, extensions)[0]!)) {
    const parts = children(der, extension);
    const oid = hex(der, parts[0]!);
    const value = parts.at(-1)!;
    if (oid === SUBJECT_ALT_NAME) names.push(...altNames(der, read(der, value.start)));
    if (oid === BASIC_CONSTRAINTS) {
      const inner = read(der, value.start);
      const first = children(der, inner)[0];
      ca = first !== undefined && first.tag === 0x01 && der[first.start] !== 0;
    }
  }
  return ca && names.length > 0 ? names : undefined;
}

/** GeneralNames: dNSName is [2] (IA5String), iPAddress is [7] (4 or 16 bytes). */
function altNames(der: Uint8Array, sequence: Node): string[] {
  const names: string[] = [];
  for (const name of children(der, sequence)) {
    const bytes = der.subarray(name.start, name.end);
    if (name.tag === 0x82) names.push(new TextDecoder().decode(bytes).toLowerCase());
    if (name.tag === 0x87 && bytes.length === 4) names.push(bytes.join("."));
    if (name.tag === 0x87 && bytes.length === 16) names.push(ipv6(bytes));
  }
  return names;
}

function ipv6(bytes: Uint8Array): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  // The URL parser's canonical form: the longest run of zero groups becomes "::".
  return bareHost(new URL(`http://[${groups.join(":")}]/`).hostname);
}
