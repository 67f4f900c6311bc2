/**
 * The TLS and proxy settings as a person gives them: file paths of PEM certificates and keys,
 * the insecure switch, a proxy URL and a no-proxy list. The CLI's flags (`--cacert`, `--cert`,
 * `--key`, `-k`, `--proxy`, `--noproxy`) and the UI's per-workspace TLS and proxy settings are
 * both read here into the one {@link TransportOptions} that the transport plan reads, so a UI
 * request and `dial` with the same flags connect the same way.
 * @module
 */
import { load } from "../load.ts";
import { UsageError } from "../errors/mod.ts";
import { Secret } from "../secret.ts";
import type { TransportOptions } from "./plan.ts";
import type { TransportSettings } from "./transport_fields.ts";

/** How a face names each setting in messages: `--cacert`, or "CA file". */
export type SettingNames = { readonly [K in "cacert" | "cert" | "key" | "proxy"]: string };

/** Reads a file's text; the UI passes one confined to the workspace. */
export type ReadText = (path: string) => Promise<string>;

/**
 * @param path the file
 * @param name the setting, for messages
 * @param read how to read it
 * @returns its PEM text
 * @throws {UsageError} for an unreadable file or one that is not PEM
 */
async function readPem(path: string, name: string, read: ReadText): Promise<string> {
  let text: string;
  try {
    text = await read(path);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const why = error instanceof Deno.errors.NotFound ? "no such file" : (error as Error).message;
    throw new UsageError(`Cannot read ${name} "${path}": ${why}`);
  }
  if (!text.includes("-----BEGIN ")) {
    throw new UsageError(`Invalid ${name} "${path}": not a PEM file`, {
      remedy: { write: "pem" },
    });
  }
  return text;
}

/**
 * Reads the settings into transport options: the PEM files read, the proxy URL checked. The
 * client certificate and key come as a pair (each face words that check itself).
 *
 * @param settings the paths and values
 * @param names the settings' names in messages
 * @param read how files are read (default: `Deno.readTextFile`)
 * @returns the options the transport plan reads (without environment or hooks)
 * @throws {UsageError} for an unreadable or non-PEM file, an encrypted key, a bad proxy URL
 */
export async function readTransportSettings(
  settings: TransportSettings,
  names: SettingNames,
  read: ReadText = (path) => Deno.readTextFile(path),
): Promise<TransportOptions> {
  if (settings.proxy) {
    const { parseProxyUrl } = await load.proxy();
    parseProxyUrl(settings.proxy, names.proxy);
  }
  const caCerts = await Promise.all(
    (settings.cacert ?? []).map((path) => readPem(path, names.cacert, read)),
  );
  const cert = settings.cert === undefined
    ? undefined
    : await readPem(settings.cert, names.cert, read);
  const key = settings.key === undefined ? undefined : await readPem(settings.key, names.key, read);
  // An encrypted key would need a passphrase, which dial neither asks for nor keeps.
  if (
    key !== undefined &&
    /-----BEGIN (ENCRYPTED|RSA PRIVATE KEY-----\r?\nProc-Type: 4,ENCRYPTED)/.test(key)
  ) {
    throw new UsageError(`Cannot use ${names.key} "${settings.key}": it is encrypted`, {
      remedy: { write: "pem" },
    });
  }
  return {
    ...(caCerts.length ? { caCerts } : {}),
    ...(cert !== undefined && key !== undefined ? { cert, key: new Secret(key) } : {}),
    ...(settings.insecure ? { insecure: true } : {}),
    ...(settings.proxy !== undefined ? { proxy: settings.proxy } : {}),
    ...(settings.noproxy !== undefined ? { noProxy: settings.noproxy } : {}),
  };
}
