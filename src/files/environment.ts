/**
 * Environments of request files: `http-client.env.json` and `http-client.private.env.json`
 * beside the file (private values override public ones and count as secrets), extra files
 * given with `--env-file`, and `--var NAME=VALUE` on top. The `$shared` environment applies to
 * every environment. Values may be credential references (`@env:NAME`, `@PATH`, and in the
 * person's own files `@exec:COMMAND`) so that no secret needs to be written in any file; they
 * are {@link Reference}s, read when a request uses them, under the trust rule of `trust_rule.ts`.
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import { Secret } from "../secret.ts";
import type { VariableValue } from "./substitute.ts";
import {
  type Confinement,
  isReferenceText,
  ownFile,
  Reference,
  type ReferencePolicy,
  type ReferenceReader,
  type Trust,
} from "./trust_rule.ts";

/** The keys of a `Security.Auth` configuration that hold secrets (references allowed). */
export const SECRET_AUTH_KEYS: readonly string[] = ["Client Secret", "Password", "Client Key"];

/** The public environment file's name (JetBrains HTTP Client). */
export const PUBLIC_ENV_FILE = "http-client.env.json";
/** The private environment file's name: secrets, kept out of version control. */
export const PRIVATE_ENV_FILE = "http-client.private.env.json";
/** Visual Studio's user-specific environment file (its private one), beside the public one. */
export const USER_ENV_FILE = "http-client.env.json.user";

/**
 * httpyac's JSON configuration files: their `environments` (`$shared` and named ones) are
 * environments as `http-client.env.json`'s are, below them.
 */
export const HTTPYAC_CONFIG_FILES: readonly string[] = [".httpyac.json", "httpyac.config.json"];

/**
 * VS Code's workspace settings, where REST Client keeps its environments (its
 * `rest-client.environmentVariables`: `$shared` and named ones), below every other file.
 */
export const VSCODE_SETTINGS_FILE = ".vscode/settings.json";
/** The key of {@link VSCODE_SETTINGS_FILE} that holds REST Client's environments. */
export const REST_CLIENT_ENVIRONMENTS = "rest-client.environmentVariables";

/** One auth configuration of `Security.Auth` (JetBrains OAuth 2.0), values substituted later. */
export type AuthConfig = Record<string, unknown>;

/** A chosen environment. */
export interface Environment {
  /** Its name, when one was chosen. */
  name?: string;
  /** Its variables (private ones as secrets), `$shared` ones included. */
  variables: Map<string, VariableValue>;
  /** The `$shared` environment's variables (for `{{$shared NAME}}`). */
  shared: Map<string, VariableValue>;
  /** `Security.Auth` configurations by id. */
  auth: Map<string, AuthConfig>;
  /**
   * kulala's default headers (`$default_headers`, `$kulalaDefaultHeaders` in `$shared`,
   * `$kulalaShared` or the environment; the environment's win): sent by every request that
   * does not write the header itself. Values may hold `{{…}}`.
   */
  defaultHeaders: Map<string, { name: string; value: string }>;
  /** What was read with a doubt (an object-valued variable, skipped), to tell the user. */
  notices: string[];
  /** The environment files that were read, in order. */
  files: string[];
  /** The private file, when one was read (the CLI checks it is not tracked by git). */
  privateFile?: string;
  /**
   * Its `openapi` entry: the OpenAPI description its requests are checked against, as written
   * (a local path, relative to `dir`), and where (the last file that sets it wins).
   */
  openapi?: { written: string; file: string; dir: string };
}

/** Options for {@link loadEnvironment}. */
export interface LoadEnvironmentOptions {
  /** `--env NAME`. */
  name?: string;
  /** `--env-file PATH` (read after the files beside the request file). */
  envFiles?: string[];
  /**
   * Reads a credential reference (`@env:NAME`, `@/real/path`, `@exec:COMMAND`) when a request
   * uses it, after the trust rule allowed it; default: values are literal.
   */
  resolve?: ReferenceReader;
  /** The run's folders: a shared file's `@path` must resolve inside them. */
  confinement?: Confinement;
  /** Whether a shared file's `@env:NAME` is read (default: yes; the UI: no). */
  sharedEnv?: boolean;
}

/**
 * Loads the environment for request files in one directory.
 *
 * @param dir the request file's directory
 * @param options the environment's name, extra files and the reference resolver
 * @returns the variables and auth configurations
 * @throws {UsageError} for a file that is not JSON, or an environment no file defines
 */
export async function loadEnvironment(
  dir: string,
  options: LoadEnvironmentOptions = {},
): Promise<Environment> {
  const sep = dir.endsWith("/") || dir === "" ? "" : "/";
  // The public file is shared; the private file and --env-file are the person's own, unless
  // git tracks them (then they came with the repository too).
  const sources: EnvSource[] = [
    // REST Client's, in VS Code's settings (JSON with comments; not JSON: not read, as VS Code
    // would not read it either).
    {
      path: `${dir}${sep}${VSCODE_SETTINGS_FILE}`,
      secret: false,
      required: false,
      trust: "shared",
      within: REST_CLIENT_ENVIRONMENTS,
      comments: true,
    },
    // httpyac's JSON configuration's `environments` (its JavaScript ones are never read).
    ...HTTPYAC_CONFIG_FILES.map((name): EnvSource => ({
      path: `${dir}${sep}${name}`,
      secret: false,
      required: false,
      trust: "shared",
      within: "environments",
    })),
    { path: `${dir}${sep}${PUBLIC_ENV_FILE}`, secret: false, required: false, trust: "shared" },
    { path: `${dir}${sep}${USER_ENV_FILE}`, secret: true, required: false, trust: "own" },
    { path: `${dir}${sep}${PRIVATE_ENV_FILE}`, secret: true, required: false, trust: "own" },
    ...(options.envFiles ?? []).map((path): EnvSource => ({
      path,
      secret: /private/.test(path.split("/").at(-1) ?? ""),
      required: true,
      trust: "own",
    })),
  ];
  const policy: ReferencePolicy | undefined = options.resolve
    ? {
      read: options.resolve,
      ...(options.confinement ? { confinement: options.confinement } : {}),
      ...(options.sharedEnv !== undefined ? { sharedEnv: options.sharedEnv } : {}),
    }
    : undefined;
  const environment: Environment = {
    variables: new Map(),
    shared: new Map(),
    auth: new Map(),
    defaultHeaders: new Map(),
    notices: [],
    files: [],
  };
  if (options.name !== undefined) environment.name = options.name;
  const known = new Set<string>();
  for (const source of sources) {
    await checkLink(source, options.confinement);
    const read = readEnvFile(source.path, source.required, source.comments);
    const data = source.within ? read?.[source.within] : read;
    if (!isObject(data)) continue;
    environment.files.push(source.path);
    if (source.secret && !source.required) environment.privateFile = source.path;
    if (source.trust === "own" && policy && holdsReference(data) && !await ownFile(source.path)) {
      source.trust = "shared";
    }
    for (const key of Object.keys(data)) {
      if (key !== "$shared" && key !== "$kulalaShared" && key !== "$schema") known.add(key);
    }
    const chosen = options.name === undefined ? undefined : data[options.name];
    const blocks = [
      ["$shared", data.$shared],
      ["$kulalaShared", data.$kulalaShared],
      [options.name, chosen],
    ] as const;
    for (const [label, block] of blocks) {
      if (block === undefined) continue;
      if (!isObject(block)) {
        throw new UsageError(`Cannot read ${source.path}: environment "${label}" is not an object`);
      }
      const shared = label === "$shared" || label === "$kulalaShared";
      addVariables(environment, block, source, policy, shared);
    }
  }
  if (options.name !== undefined && !known.has(options.name)) {
    const names = [...known].sort();
    throw new UsageError(
      environment.files.length
        ? `Unknown environment "${options.name}": ${environment.files.join(", ")} define ${
          names.length ? names.map((n) => `"${n}"`).join(", ") : "none"
        }`
        : `Unknown environment "${options.name}": no ${PUBLIC_ENV_FILE} or ${PRIVATE_ENV_FILE} in ${
          dir || "."
        }`,
      { remedy: { choose: "environment" } },
    );
  }
  return environment;
}

/**
 * An environment file that is a link out of its folder is read only when it is the person's own
 * (the private file or `--env-file`, not tracked by git) or lands inside the run's folders: a
 * repository's `http-client.env.json -> ~/.config/gh/hosts.yml` would send a stranger the values.
 */
async function checkLink(source: EnvSource, confinement: Confinement | undefined): Promise<void> {
  let real: string;
  try {
    // Without a trip to the runtime's thread pool: most of the files are not there.
    if (!Deno.lstatSync(source.path).isSymlink) return;
    real = await Deno.realPath(source.path);
  } catch {
    return; // missing: reported (or skipped) by its reader
  }
  const slash = source.path.lastIndexOf("/");
  const folder = await Deno.realPath(slash < 0 ? "." : source.path.slice(0, slash) || "/");
  if (real.startsWith(`${folder}/`) || confinement?.contains(real)) return;
  if (source.trust === "own" && await ownFile(source.path)) return;
  throw new UsageError(
    `Refused ${source.path}: it is a link out of its folder, to ${real}`,
    { details: { path: real }, remedy: { allow: "path" } },
  );
}

interface EnvSource {
  path: string;
  secret: boolean;
  required: boolean;
  trust: Trust;
  /** The key of the file's object that holds the environments (httpyac's configuration). */
  within?: string;
  /** JSON with comments and trailing commas (VS Code's settings); unreadable: skipped. */
  comments?: boolean;
}

/** Whether an environment file holds a reference anywhere (then its trust matters). */
function holdsReference(data: unknown): boolean {
  if (typeof data === "string") return isReferenceText(data);
  if (data !== null && typeof data === "object") return Object.values(data).some(holdsReference);
  return false;
}

function addVariables(
  environment: Environment,
  block: Record<string, unknown>,
  source: EnvSource,
  policy: ReferencePolicy | undefined,
  shared: boolean,
): void {
  const slash = source.path.lastIndexOf("/");
  const where = (key: string) => ({
    file: source.path,
    key,
    trust: source.trust,
    dir: slash < 0 ? "." : source.path.slice(0, slash) || "/",
  });
  for (const [name, value] of Object.entries(block)) {
    if (name === "openapi" && typeof value === "string") {
      // Not a variable: the description the requests are checked against (a path, read under
      // the trust rule by the command that runs them).
      environment.openapi = { written: value, file: source.path, dir: where(name).dir };
      continue;
    }
    if (name === "Security") {
      const auth = isObject(value) ? value.Auth : undefined;
      if (!isObject(auth)) continue;
      for (const [id, config] of Object.entries(auth)) {
        if (!isObject(config)) continue;
        const key = config["Client Key"];
        if (!source.secret && typeof key === "string" && key.includes("-----BEGIN")) {
          throw new UsageError(
            `Cannot read ${source.path}: Security.Auth "${id}" writes its "Client Key" in a shared file: give it by reference ("@env:NAME", "@path/key.pem") or in ${PRIVATE_ENV_FILE}`,
          );
        }
        const own: AuthConfig = { ...config };
        for (const secretKey of SECRET_AUTH_KEYS) {
          const text = own[secretKey];
          if (policy && typeof text === "string" && isReferenceText(text)) {
            own[secretKey] = new Reference(text, where(`Security.Auth.${id}.${secretKey}`), policy);
          }
        }
        const merged = { ...(environment.auth.get(id) ?? {}), ...own };
        environment.auth.set(id, merged);
      }
      continue;
    }
    if (value !== null && typeof value === "object") {
      if ((name === "$default_headers" || name === "$kulalaDefaultHeaders") && isObject(value)) {
        for (const [header, text] of Object.entries(value)) {
          if (typeof text === "string") {
            environment.defaultHeaders.set(header.toLowerCase(), { name: header, value: text });
          }
        }
        continue;
      }
      const provider = isObject(value) && typeof value.provider === "string"
        ? value.provider
        : undefined;
      environment.notices.push(
        provider
          ? `${source.path}: variable "${name}" is read by Visual Studio's "${provider}" provider, which dial does not run, and is skipped (give its value by reference, such as @env:NAME, or in ${PRIVATE_ENV_FILE})`
          : `${source.path}: variable "${name}" is an object and is skipped (variables are strings, numbers or booleans)`,
      );
      continue;
    }
    const text = String(value);
    // A reference is read when a request uses it (trust_rule.ts), never here.
    const stored = policy && isReferenceText(text)
      ? new Reference(text, where(name), policy)
      : text.startsWith("@@")
      ? (source.secret ? new Secret(text.slice(1)) : text.slice(1))
      : source.secret
      ? new Secret(text)
      : text;
    environment.variables.set(name, stored);
    if (shared) environment.shared.set(name, stored);
  }
}

function readEnvFile(
  path: string,
  required: boolean,
  comments = false,
): Record<string, unknown> | undefined {
  let text: string;
  try {
    // Read at once (a small file), as its absence is found: no trip to the thread pool.
    text = Deno.readTextFileSync(path);
  } catch (error) {
    if (!required && error instanceof Deno.errors.NotFound) return undefined;
    const reason = error instanceof Deno.errors.NotFound ? "no such file" : "cannot read it";
    throw new UsageError(`Cannot read environment file ${path}: ${reason}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(comments ? withoutComments(text) : text);
  } catch (error) {
    if (comments) return undefined;
    throw new UsageError(
      `Cannot read environment file ${path}: not JSON (${(error as Error).message})`,
    );
  }
  if (!isObject(data)) {
    throw new UsageError(
      `Cannot read environment file ${path}: expected an object of environments`,
    );
  }
  return data;
}

/**
 * JSON with comments (`//`, `/* *\/`) and trailing commas, as VS Code writes its settings, made
 * JSON: both removed outside strings.
 */
export function withoutComments(text: string): string {
  const strip = (source: string, comments: boolean) => {
    let out = "";
    for (let i = 0; i < source.length; i++) {
      const c = source[i]!;
      if (c === '"') {
        const string = /^"(?:[^"\\]|\\.)*"?/.exec(source.slice(i))![0];
        out += string;
        i += string.length - 1;
      } else if (comments && c === "/" && source[i + 1] === "/") {
        const eol = source.indexOf("\n", i);
        i = eol < 0 ? source.length : eol - 1;
      } else if (comments && c === "/" && source[i + 1] === "*") {
        const close = source.indexOf("*/", i + 2);
        i = close < 0 ? source.length : close + 1;
      } else if (!comments && c === "," && /^\s*[}\]]/.test(source.slice(i + 1))) {
        // a trailing comma
      } else out += c;
    }
    return out;
  };
  return strip(strip(text, true), false);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Parses `--var NAME=VALUE` values.
 *
 * @param values the flag values
 * @returns the overrides
 * @throws {UsageError} for a value without `=`
 */
export function parseVarFlags(values: readonly string[]): Map<string, string> {
  const vars = new Map<string, string>();
  for (const text of values) {
    const eq = text.indexOf("=");
    if (eq <= 0) {
      throw new UsageError(`Cannot parse variable "${text}": expected NAME=VALUE`, {
        remedy: { write: "variable" },
      });
    }
    vars.set(text.slice(0, eq), text.slice(eq + 1));
  }
  return vars;
}
