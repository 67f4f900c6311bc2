/**
 * Parsing of typed values (URLs, headers, methods, ports) into spec parts, shared by both
 * faces: the CLI parses its flags and the UI its fields with these. Every failure is a
 * {@link UsageError}: nothing is sent. Messages name the value through a label the face
 * passes (`-H header`, `callback port`); the defaults name no flag.
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import { isCredentialName } from "../credential_name.ts";
import { hasHeaderControls, utf8ByteString } from "./build_request.ts";
import { checkSendable } from "./wire.ts";
import type { HeaderField } from "./request_spec.ts";
import { redactUrlText } from "../redact_url.ts";
import { Secret } from "../secret.ts";
import { jsonErrorReason } from "../errors/runtime_messages.ts";

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** How a face names a header in messages. */
export interface HeaderWording {
  /** The value's name in messages (default `header`; the CLI says `-H header`). */
  label?: string;
  /** How to write it, a fact for the face's remedy (the CLI's default is `-H "Name: value"`). */
  example?: string;
}

/**
 * @param text a header, `Name: value`
 * @param wording how messages name it
 * @returns the header; values of credential-looking names are wrapped as secrets
 */
export function parseHeader(text: string, wording: HeaderWording = {}): HeaderField {
  const label = wording.label ?? "header";
  // A header may hold a credential: messages name the header, never its value.
  // `Name;` is a header with an empty value, as curl and HTTPie read it.
  const empty = /^\s*([^:;\s]+);\s*$/.exec(text);
  if (empty) text = `${empty[1]}:`;
  const colon = text.indexOf(":");
  if (colon < 0) {
    throw new UsageError(`Cannot parse ${label}: missing ":" between name and value`, {
      ...(wording.example ? { details: { example: wording.example } } : {}),
      remedy: { write: "header" },
    });
  }
  const name = text.slice(0, colon).trim();
  const value = text.slice(colon + 1).trim();
  if (!TOKEN.test(name)) {
    const shown = /^[\x21-\x7e]{1,64}$/.test(name) ? ` "${name}"` : "";
    throw new UsageError(`Cannot parse ${label}: invalid header name${shown}`, {
      ...(wording.example ? { details: { example: wording.example } } : {}),
      remedy: { write: "header_name" },
    });
  }
  checkSendable(name);
  try {
    if (hasHeaderControls(value)) throw new TypeError("control character");
    new Headers([[name, utf8ByteString(value)]]);
  } catch {
    throw new UsageError(
      `Cannot parse ${label} "${name}": the value holds a line break or control character`,
    );
  }
  return { name, value: isCredentialName(name) ? new Secret(value) : value };
}

/**
 * A typed URL. A target URL (`assumeScheme`) without a scheme takes the first allowed one,
 * as curl and HTTPie do: `localhost:8080/x` is `http://localhost:8080/x`; `:8080/x` and
 * `:/x` name localhost (`http://localhost:8080/x`, `http://localhost/x`), as in HTTPie.
 * Other URLs (token and authorization endpoints) need their scheme.
 *
 * @param text a URL as typed
 * @param protocols the schemes allowed
 * @param assumeScheme whether a missing scheme means the first allowed one
 * @returns the URL
 */
export function parseUrl(
  text: string,
  protocols: string[] = ["http:", "https:"],
  assumeScheme = false,
): URL {
  // The URL may carry user:password@ or keys: messages show it redacted.
  const redacted = () => redactUrlText(text);
  const written = /^([^/?#]*):\/\//.exec(text)?.[1];
  if (written !== undefined && !/^[a-z][a-z0-9+.-]*$/i.test(written)) {
    throw new UsageError(`Invalid URL "${redacted()}": "${written}" is not a scheme`, {
      details: { choices: protocols },
      remedy: { write: "url_start" },
    });
  }
  if (
    /^(?:https?|wss?):(?!\/\/)/i.test(text) || /^(?:https?|wss?)\/\//i.test(text) ||
    /^[a-z][a-z0-9+.-]*:\/\/(?:https?|wss?):?\/\//i.test(text)
  ) {
    throw new UsageError(`Invalid URL "${redacted()}": the scheme is not written as scheme://`, {
      details: { choices: protocols },
      remedy: { write: "url_scheme_once" },
    });
  }
  let url: URL;
  try {
    url = new URL(assumeScheme ? withDefaultScheme(text, protocols[0]!) : text);
  } catch {
    const shown = redacted();
    throw new UsageError(
      `Invalid URL "${shown}": not ${hasScheme(text) ? "a valid" : "an absolute"} URL`,
      hasScheme(text) ? { remedy: { write: "url_encoding" } } : {
        details: { url: shown, scheme: protocols[0]! },
        remedy: { write: "url_scheme" },
      },
    );
  }
  if (!protocols.includes(url.protocol)) {
    throw new UsageError(`Invalid URL "${redacted()}": scheme must be ${protocols.join(" or ")}`);
  }
  if (url.hostname === "") throw new UsageError(`Invalid URL "${redacted()}": missing host`);
  if (!/^\[.*\]$/.test(url.hostname) && !HOST_NAME.test(url.hostname)) {
    throw new UsageError(
      `Invalid URL "${redacted()}": "${url.hostname}" cannot be a host name`,
      { remedy: { write: "host_name" } },
    );
  }
  return url;
}

/** A host name or IPv4 address as the URL parser leaves it (lower case, IDNs in punycode). */
const HOST_NAME = /^[a-z0-9_]([a-z0-9_-]*)(\.[a-z0-9_][a-z0-9_-]*)*\.?$/;

/** Matches a URL that starts with a scheme, e.g. `https://` or `ws://`. */
const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * @param text a URL as typed
 * @returns whether it starts with a scheme, e.g. `https://`
 */
export function hasScheme(text: string): boolean {
  return SCHEME.test(text);
}

/**
 * @param text a URL as typed
 * @param protocol the scheme to assume, e.g. `http:`
 * @returns the URL with a scheme
 */
function withDefaultScheme(text: string, protocol: string): string {
  if (SCHEME.test(text)) return text;
  if (/^:(\d|\/|$)/.test(text)) return `${protocol}//localhost${text.replace(/^:(?!\d)/, "")}`;
  return `${protocol}//${text}`;
}

/** The methods sent upper-case whatever case they are typed in (RFC 9110, RFC 5789). */
const STANDARD_METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"];

/**
 * @param text an HTTP method
 * @returns it upper-cased when it is a standard method in any case, otherwise as written
 */
export function parseMethod(text: string): string {
  if (!TOKEN.test(text)) {
    throw new UsageError(`Invalid method "${text}": not an HTTP token`);
  }
  const upper = text.toUpperCase();
  return STANDARD_METHODS.includes(upper) ? upper : text;
}

/**
 * @param text a port
 * @param label the value's name in the message (a flag or a field)
 * @returns the port number
 */
export function parsePort(text: string, label: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < 1 || n > 65535) {
    throw new UsageError(`Invalid ${label} "${text}": expected a port from 1 to 65535`);
  }
  return n;
}

/**
 * Checks that a text to send is JSON. The message names the problem, never the text: V8's
 * wording quotes the input, which may hold a credential.
 *
 * @param text the JSON text
 * @param what how the face names it, e.g. `JSON in --json` or `JSON body`
 * @returns the parsed value
 * @throws {UsageError} `Invalid <what>: <reason>`
 */
export function parseJsonText(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`Invalid ${what}: ${jsonErrorReason(error)}`);
  }
}
