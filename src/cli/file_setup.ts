/**
 * What `dial run` and `dial test` prepare before running files: the transport from the
 * connection flags, `--var` values (references resolved), each directory's environment, and
 * the warning when a private environment file is tracked by git.
 * @module
 */
import {
  type Environment,
  HTTPYAC_CONFIG_FILES,
  loadEnvironment,
  parseVarFlags,
  PRIVATE_ENV_FILE,
  PUBLIC_ENV_FILE,
  REST_CLIENT_ENVIRONMENTS,
  USER_ENV_FILE,
  VSCODE_SETTINGS_FILE,
} from "../files/environment.ts";
import type { HttpFile } from "../files/http_file_types.ts";
import { parseHttpFile } from "../files/parse_http_file.ts";
import type { VariableValue } from "../files/substitute.ts";
import type { TransportOptions } from "../http/client.ts";
import { UsageError } from "../errors/mod.ts";
import { warn } from "../output/report.ts";
import { escapeControls } from "../output/terminal.ts";
import { promptLine } from "./prompt.ts";
import { Secret } from "../secret.ts";
import type { CliContext } from "./context.ts";
import type { FlagValues } from "./declare.ts";
import type { FILE_FLAGS } from "./file_flags.ts";
import { isReference, resolveReference } from "./secret_ref.ts";
import { parseTransportFlags } from "./transport_flags.ts";
import type { OAuth2Hooks } from "../files/security_auth.ts";
import { defaultCacheDir } from "../cache.ts";
import { authorizationUrlShower } from "./oauth2_browser.ts";
import { deviceCodePrinter } from "./oauth2_device.ts";
import { oauth2NoticeReporter } from "./oauth2_notice.ts";
import { Confinement, gitTracks } from "../files/trust_rule.ts";

/** The values of the shared flags. */
export type FileFlagValues = FlagValues<typeof FILE_FLAGS>;

/** What every file of one run shares. */
export interface FileRunSetup {
  /** From the connection flags. */
  transport: TransportOptions;
  /** `--var`, references resolved (as secrets). */
  overrides: Map<string, VariableValue>;
  /**
   * The environment for a request file's directory (read once per directory and root), its
   * shared `@path` references confined to the run's folders.
   */
  environmentFor: (dir: string, confinement: Confinement) => Promise<Environment | undefined>;
  /** The folders of a run whose root is `root`: it and every `--allow-path`. */
  confinementFor: (root: string) => Promise<Confinement>;
  /** `--script-origin`s: where `pm.sendRequest` may go besides the run's requests' origins. */
  scriptOrigins: Set<string>;
}

/**
 * @param flags the shared flags
 * @param context the run: stdin and environment for references, stderr for warnings
 * @param verbose whether `-v` was given (routes are reported)
 * @returns the setup
 */
export async function prepareFileRun(
  flags: FileFlagValues,
  context: CliContext,
  verbose: boolean,
): Promise<FileRunSetup> {
  const transport = await parseTransportFlags(flags, context, verbose);
  const overrides = new Map<string, VariableValue>();
  for (const [name, value] of parseVarFlags(flags.var)) {
    overrides.set(
      name,
      isReference(value)
        ? new Secret(await resolveReference(value, `--var ${name}=`, context))
        : value,
    );
  }
  const cache = new Map<string, Promise<Environment | undefined>>();
  const warned = new Set<string>();
  const environmentFor = (fileDir: string, confinement: Confinement) => {
    const dir = environmentDir(fileDir);
    const key = `${dir}\0${confinement.roots.join("\0")}`;
    let loaded = cache.get(key);
    if (!loaded) {
      loaded = loadEnvironment(dir, {
        ...(flags.env !== undefined ? { name: flags.env } : {}),
        envFiles: flags.envFile,
        resolve: (value, where) => resolveReference(value, where, context),
        confinement,
      }).then(async (environment) => {
        const privateFile = environment.privateFile;
        if (privateFile && !warned.has(privateFile)) {
          warned.add(privateFile);
          await warnIfTracked(privateFile, context);
        }
        for (const notice of environment.notices) await warn(context.stderr, notice);
        return environment;
      });
      cache.set(key, loaded);
    }
    return loaded;
  };
  const confinementFor = (root: string) => Confinement.of(root, flags.allowPath);
  const scriptOrigins = new Set(flags.scriptOrigin.map(originOf));
  return { transport, overrides, environmentFor, confinementFor, scriptOrigins };
}

/**
 * How `Security.Auth` logins of request files reach the person: the login URL and the device
 * code on stderr (the browser for a login page; a device page is only shown), notices on
 * stderr, the CLI's token cache.
 *
 * @param context the run
 * @returns the OAuth 2.0 hooks of `runHttpFile`
 */
export function fileOAuth2Hooks(context: CliContext): OAuth2Hooks {
  return {
    cacheDir: defaultCacheDir(context.env),
    openBrowser: authorizationUrlShower(context),
    showDeviceCode: deviceCodePrinter(false, context),
    notify: oauth2NoticeReporter(context),
  };
}

/**
 * Asks for `# @prompt` variables on the terminal (without echo for secrets).
 *
 * @param context the run
 * @returns the prompt hook of `runHttpFile`: undefined when stdin is not a terminal
 */
export function filePrompt(
  context: CliContext,
): (name: string, description: string, secret: boolean) => Promise<VariableValue | undefined> {
  return async (name, description, secret) => {
    if (!context.stdin.isTerminal || !context.stdin.readRaw) return undefined;
    const question = `${escapeControls(description || name)}: `;
    const text = await promptLine(question, context, !secret);
    return secret ? new Secret(text) : text;
  };
}

/**
 * The directory whose environment files serve a request file: its own, else the nearest parent
 * that has one (as httpyac looks), up to the working directory or the file system's root.
 *
 * Asked without trips to the runtime's thread pool: each costs a wake-up of a pool thread and
 * of the main thread (~0.1 ms on a quiet machine, milliseconds on a loaded one), and most
 * folders have none of the files.
 *
 * @param dir the request file's directory
 * @returns the directory to read `http-client*.env.json` from
 */
export function environmentDir(dir: string): string {
  const has = (candidate: string) => {
    for (
      const name of [PUBLIC_ENV_FILE, USER_ENV_FILE, PRIVATE_ENV_FILE, ...HTTPYAC_CONFIG_FILES]
    ) {
      try {
        Deno.statSync(`${candidate}/${name}`);
        return true;
      } catch {
        // not in this directory
      }
    }
    // VS Code's settings, when they hold REST Client's environments.
    try {
      const settings = Deno.readTextFileSync(`${candidate}/${VSCODE_SETTINGS_FILE}`);
      return settings.includes(`"${REST_CLIENT_ENVIRONMENTS}"`);
    } catch {
      return false;
    }
  };
  if (has(dir)) return dir;
  const cwd = Deno.cwd();
  // "." is the working directory, asked already.
  const start = dir.startsWith("/") ? dir : dir === "." ? cwd : `${cwd}/${dir}`;
  // Above the working directory only when the file is outside it.
  const stop = start === cwd || start.startsWith(`${cwd}/`) ? cwd : "/";
  let candidate = start.replace(/\/+$/, "") || "/";
  while (candidate !== stop && candidate !== "/") {
    candidate = candidate.slice(0, candidate.lastIndexOf("/")) || "/";
    if (has(candidate)) return candidate;
  }
  return dir;
}

/**
 * Reads and parses a request file, printing its warnings.
 *
 * @param path the file
 * @param context the run: its stderr
 * @returns the parsed file
 * @throws {UsageError} for an unreadable file or a syntax error
 */
export async function readHttpFile(path: string, context: CliContext): Promise<HttpFile> {
  let source: string;
  try {
    // Read at once (no trip to the runtime's thread pool): nothing is sent before it is parsed.
    source = Deno.readTextFileSync(path);
  } catch (error) {
    const reason = error instanceof Deno.errors.NotFound
      ? "no such file"
      : error instanceof Deno.errors.IsADirectory
      ? "it is a directory"
      : "cannot read it";
    throw new UsageError(`Cannot read request file ${path}: ${reason}`);
  }
  const file = parseHttpFile(source, path);
  const err = context.stderr;
  for (const w of file.warnings) await warn(err, `${path}:${w.line}:${w.column}: ${w.message}`);
  return file;
}

/**
 * @param path a file path
 * @returns its directory ("." for a bare name)
 */
export function dirOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "." : path.slice(0, slash) || "/";
}

/** The private file holds secrets: say so when git tracks it. */
async function warnIfTracked(path: string, context: CliContext): Promise<void> {
  if (!await gitTracks(path)) return;
  await warn(
    context.stderr,
    `${path} is tracked by git, and it is the place for secrets: run git rm --cached ${path} and add it to .gitignore`,
  );
}

/** A `--script-origin` value as an origin (`https://api.example.com`). */
function originOf(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch { /* below */ }
  if (!url || !/^https?:$/.test(url.protocol) || url.origin === "null") {
    throw new UsageError(
      `Invalid --script-origin "${value}": expected an http or https origin like https://api.example.com`,
    );
  }
  return url.origin;
}
