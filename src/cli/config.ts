/**
 * The config file, `$XDG_CONFIG_HOME/dial/config.json` (read only when it exists): default
 * flags for every request, and named APIs (Restish's profiles) with a base URL and their own
 * flags, so `dial gh/repos/denoland/deno` means `dial https://api.github.com/repos/denoland/deno`
 * with the API's headers and auth:
 *
 * ```json
 * {
 *   "defaults": ["--timeout", "30"],
 *   "apis": {
 *     "gh": {
 *       "base": "https://api.github.com",
 *       "flags": ["-H", "Accept: application/vnd.github+json", "-B", "@env:GITHUB_TOKEN"]
 *     }
 *   }
 * }
 * ```
 *
 * Secrets only as references: `-u`'s password, `-B`, `-K` values, `--oauth2-password`,
 * `--oauth2-client-secret` and credential-named `-H` values must be `@env:NAME` or `@file`
 * (a header's reference is read when the API is used).
 * @module
 */
import type { CliContext } from "./context.ts";
import { jsonErrorReason } from "../errors/runtime_messages.ts";
import { isCredentialName } from "../credential_name.ts";
import { UsageError } from "../errors/mod.ts";
import { hasScheme } from "../http/values.ts";
import type { Command } from "./declare.ts";
import { type Invocation, parseArgv } from "./parse.ts";
import { splitWords } from "./request_target.ts";
import { isReference, resolveReference } from "./secret_ref.ts";

/** The config file's content. */
export interface DialConfig {
  /** Flags put before every request command's own. */
  defaults: string[];
  /** Named APIs. */
  apis: Record<string, { base: URL; flags: string[] }>;
}

/** Flags whose value is a secret (a reference in the config). */
const SECRET_FLAGS = new Set([
  "-B",
  "--bearer",
  "-K",
  "--api-key-query",
  "--oauth2-password",
  "--oauth2-client-secret",
]);

/**
 * @param path the config file
 * @param text its content
 * @returns the checked config
 * @throws {UsageError} when it is not valid, or holds a secret that is not a reference
 */
export function parseConfig(path: string, text: string): DialConfig {
  const bad = (why: string) =>
    new UsageError(`Invalid config file "${path}": ${why}`, {
      hint:
        '{"defaults": ["--timeout", "30"], "apis": {"name": {"base": "https://…", "flags": []}}}',
    });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw bad(`not JSON (${jsonErrorReason(error)})`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw bad("not an object");
  }
  const { defaults = [], apis = {}, ...rest } = value as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length) throw bad(`unknown member "${unknown[0]}"`);
  const flags = (list: unknown, where: string): string[] => {
    if (!Array.isArray(list) || !list.every((f) => typeof f === "string")) {
      throw bad(`${where} must be a list of strings (the flags as typed)`);
    }
    checkSecrets(list, where, bad);
    return list;
  };
  if (typeof apis !== "object" || apis === null || Array.isArray(apis)) {
    throw bad('"apis" must be an object');
  }
  const checked: DialConfig["apis"] = {};
  for (const [name, api] of Object.entries(apis)) {
    if (!/^[\w-]+$/.test(name)) throw bad(`API name "${name}": use letters, digits, "_" or "-"`);
    const { base, flags: apiFlags = [] } = (api ?? {}) as Record<string, unknown>;
    let url: URL;
    try {
      url = new URL(String(base));
    } catch {
      throw bad(`API "${name}" needs "base": an absolute http(s) URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw bad(`API "${name}": "base" must be an http(s) URL`);
    }
    checked[name] = { base: url, flags: flags(apiFlags, `"apis.${name}.flags"`) };
  }
  return { defaults: flags(defaults, '"defaults"'), apis: checked };
}

function checkSecrets(list: string[], where: string, bad: (why: string) => UsageError): void {
  for (let i = 0; i < list.length; i++) {
    const flag = list[i]!;
    const value = list[i + 1];
    if (value === undefined) continue;
    const literal = (text: string) => !isReference(text) || text === "@-";
    if (
      SECRET_FLAGS.has(flag) && literal(
        flag.startsWith("-K") || flag === "--api-key-query"
          ? value.slice(value.indexOf("=") + 1)
          : value,
      )
    ) {
      throw bad(`${where}: ${flag} must be a reference (@env:NAME or @file), not a secret`);
    }
    if ((flag === "-u" || flag === "--auth") && !isReference(value)) {
      const password = value.slice(value.indexOf(":") + 1);
      if (value.includes(":") && literal(password)) {
        throw bad(`${where}: -u's password must be a reference (@env:NAME or @file)`);
      }
    }
    if ((flag === "-H" || flag === "--header") && value.includes(":")) {
      const name = value.slice(0, value.indexOf(":")).trim();
      if (isCredentialName(name) && literal(value.slice(value.indexOf(":") + 1).trim())) {
        throw bad(`${where}: header "${name}" must be a reference (@env:NAME or @file)`);
      }
    }
  }
}

/**
 * Reads the config file.
 *
 * @param path the config file
 * @returns the config, or undefined when there is none
 */
export async function loadConfig(path: string): Promise<DialConfig | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw new UsageError(`Cannot read config file "${path}": ${(error as Error).message}`);
  }
  return parseConfig(path, text);
}

/**
 * Applies the config to a request command: its defaults and, when the URL names an API
 * (`name` or `name/path`), that API's flags and base URL. The command line's own flags come
 * last, so a single-valued flag given there wins.
 *
 * @param root the root command
 * @param args the command line
 * @param first the command line parsed alone (a request command)
 * @param config the config
 * @param context the run: stdin and environment for references
 * @returns the invocation to run
 */
export async function configure(
  root: Command,
  args: string[],
  first: Extract<Invocation, { kind: "run" }>,
  config: DialConfig,
  context: CliContext,
): Promise<Invocation> {
  const { method, url, items } = first.values.args as {
    method?: string;
    url?: string;
    items: string[];
  };
  const words = [method, url, ...items].filter((w) => w !== undefined);
  const split = words.length ? splitWords(words) : undefined;
  const match = split && !hasScheme(split.urlWord) ? /^([\w-]+)(\/.*)?$/.exec(split.urlWord) : null;
  const api = match ? config.apis[match[1]!] : undefined;
  const apiFlags = api ? await resolveHeaders(api.flags, context) : [];
  const invocation = parseArgv(root, [...config.defaults, ...apiFlags, ...args]);
  if (invocation.kind !== "run" || !api || !match || !split) return invocation;
  const base = api.base.href.replace(/\/$/, "");
  const target = `${base}${match[2] ?? ""}`;
  // The URL is the first word unless a METHOD came before it.
  const key = split.methodWord === undefined ? "method" : "url";
  invocation.values.args[key] = target;
  return invocation;
}

/** Reads the references in `-H` values (`X-Api-Key: @env:KEY`) when the API is used. */
async function resolveHeaders(flags: string[], context: CliContext): Promise<string[]> {
  const out = [...flags];
  for (let i = 0; i < out.length - 1; i++) {
    if (out[i] !== "-H" && out[i] !== "--header") continue;
    const line = out[i + 1]!;
    const colon = line.indexOf(":");
    const value = line.slice(colon + 1).trim();
    if (colon > 0 && isReference(value)) {
      const name = line.slice(0, colon).trim();
      out[i + 1] = `${name}: ${await resolveReference(value, `config header ${name}:`, context)}`;
    }
  }
  return out;
}
