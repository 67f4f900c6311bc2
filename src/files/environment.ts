/**
 * Environments of request files: `http-client.env.json` and `http-client.private.env.json`
 * beside the file (private values override public ones and count as secrets), extra files
 * given with `--env-file`, and `--var NAME=VALUE` on top. The `$shared` environment applies to
 * every environment. Values may be credential references (`@env:NAME`, `@PATH`) so that no
 * secret needs to be written in any file.
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import { Secret } from "../secret.ts";
import type { VariableValue } from "./substitute.ts";

/** The public environment file's name (JetBrains HTTP Client). */
export const PUBLIC_ENV_FILE = "http-client.env.json";
/** The private environment file's name: secrets, kept out of version control. */
export const PRIVATE_ENV_FILE = "http-client.private.env.json";

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
  /** The environment files that were read, in order. */
  files: string[];
  /** The private file, when one was read (the CLI checks it is not tracked by git). */
  privateFile?: string;
  /**
   * Resolves a credential reference of a `Security.Auth` secret (`"Client Key": "@env:KEY"`)
   * when the configuration is used: the loader's resolver.
   */
  resolve?: (value: string, where: string) => Promise<string>;
}

/** Options for {@link loadEnvironment}. */
export interface LoadEnvironmentOptions {
  /** `--env NAME`. */
  name?: string;
  /** `--env-file PATH` (read after the files beside the request file). */
  envFiles?: string[];
  /** Resolves a credential reference (`@env:NAME`, `@PATH`); default: values are literal. */
  resolve?: (value: string, where: string) => Promise<string>;
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
  const sources: { path: string; secret: boolean; required: boolean }[] = [
    { path: `${dir}${sep}${PUBLIC_ENV_FILE}`, secret: false, required: false },
    { path: `${dir}${sep}${PRIVATE_ENV_FILE}`, secret: true, required: false },
    ...(options.envFiles ?? []).map((path) => ({
      path,
      secret: /private/.test(path.split("/").at(-1) ?? ""),
      required: true,
    })),
  ];
  const environment: Environment = {
    variables: new Map(),
    shared: new Map(),
    auth: new Map(),
    files: [],
  };
  if (options.name !== undefined) environment.name = options.name;
  if (options.resolve) environment.resolve = options.resolve;
  const known = new Set<string>();
  for (const source of sources) {
    const data = await readEnvFile(source.path, source.required);
    if (data === undefined) continue;
    environment.files.push(source.path);
    if (source.secret && !source.required) environment.privateFile = source.path;
    for (const key of Object.keys(data)) if (key !== "$shared") known.add(key);
    const chosen = options.name === undefined ? undefined : data[options.name];
    for (const [label, block] of [["$shared", data.$shared], [options.name, chosen]] as const) {
      if (block === undefined) continue;
      if (!isObject(block)) {
        throw new UsageError(`Cannot read ${source.path}: environment "${label}" is not an object`);
      }
      await addVariables(environment, block, source, options.resolve, label === "$shared");
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

async function addVariables(
  environment: Environment,
  block: Record<string, unknown>,
  source: { path: string; secret: boolean },
  resolve: LoadEnvironmentOptions["resolve"],
  shared: boolean,
): Promise<void> {
  for (const [name, value] of Object.entries(block)) {
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
        const merged = { ...(environment.auth.get(id) ?? {}), ...config };
        environment.auth.set(id, merged);
      }
      continue;
    }
    if (value !== null && typeof value === "object") {
      throw new UsageError(
        `Cannot read ${source.path}: variable "${name}" is not a string, number or boolean`,
      );
    }
    let text = String(value);
    let secret = source.secret;
    if (resolve && /^@(?!@)./.test(text)) {
      text = await resolve(text, `${name} in ${source.path}`);
      secret = true;
    } else if (text.startsWith("@@")) {
      text = text.slice(1);
    }
    const stored = secret ? new Secret(text) : text;
    environment.variables.set(name, stored);
    if (shared) environment.shared.set(name, stored);
  }
}

async function readEnvFile(
  path: string,
  required: boolean,
): Promise<Record<string, unknown> | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (!required && error instanceof Deno.errors.NotFound) return undefined;
    const reason = error instanceof Deno.errors.NotFound ? "no such file" : "cannot read it";
    throw new UsageError(`Cannot read environment file ${path}: ${reason}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
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
