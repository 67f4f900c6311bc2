/**
 * Running a request file: requests in order (or the ones named), each one's pre-request
 * scripts, variables, send (dial's one `send`), response handlers and tests; named requests
 * that another request refers to (`{{login.response.body.$.token}}`) run first when they have
 * not run yet. Nothing here prints: the caller is told of each exchange, log line and test.
 * @module
 */
import { load } from "../load.ts";
import { watchSignals } from "../script_interrupt.ts";
import { processEnv } from "../env.ts";
import { DialError, ErrorCode, UsageError } from "../errors/mod.ts";
import { CookieJar } from "../http/cookies.ts";
import { sleep } from "../stream/event_channel.ts";
import { reveal } from "../secret.ts";
import type { Exchange, SendOptions } from "../http/send.ts";
import type { DataRow } from "./data_rows.ts";
import type { Environment } from "./environment.ts";
import {
  buildFileRequest,
  type FileRequest,
  httpyacOAuth2Key,
  isHttpyacOAuth2,
} from "./file_request.ts";
import type { Assertion, HttpFile, HttpRequest, RunLine, Script } from "./http_file_types.ts";
import type { AssertedResponse, AssertionContext, HttpyacResponse } from "./assertions.ts";
import type { RequestVariableSource } from "./request_variables.ts";
import type { ScriptInput, ScriptOutput, TestOutcome } from "./script_api.ts";
import {
  exchangeNumber,
  HTTPYAC_CHANNEL,
  httpyacBlockCode,
  type HttpyacBlockOutput,
  httpyacExpressionCode,
  isJavaScriptExpression,
  markupType,
  namesText,
  nodeRequire,
  requiredLibraries,
} from "./httpyac_script.ts";
import type { SandboxLimits, ScriptSession, ScriptSource } from "./script_sandbox.ts";
import { type GrpcStatus, runGrpcFileRequest } from "./run_grpc.ts";
import { isSubscription, runGraphQLSubscription, runWebSocketRequest } from "./run_streams.ts";
import {
  lookupVariable,
  substitute,
  type VariableScope,
  type VariableValue,
} from "./substitute.ts";
import { sendFileRequest } from "./file_exchange.ts";
import { scriptSender } from "./script_send.ts";
import {
  keepTypes,
  postmanGlobals,
  postmanLocals,
  postmanScope,
  typedValues,
} from "./postman_variables.ts";
import type { OAuth2Hooks } from "./security_auth.ts";
import {
  confinedDotenv,
  HANDLER_BODY_LIMIT,
  httpyacDotenv,
  joinPath,
  labelOf,
  openOutput,
  type Outcome,
  outputPaths,
  selectRequests,
  streamOutcome,
  type Timings,
} from "./_run_parts.ts";
import { requestDependencies, templatesOf } from "./request_refs.ts";
import {
  checkFilePaths,
  Confinement,
  isUnresolved,
  scriptFile,
  whenResolved,
} from "./trust_rule.ts";

/** One request's outcome. */
export interface RequestResult {
  /** The request. */
  request: HttpRequest;
  /** The file the request is in (another file's, when a `run ./file.http` line ran it). */
  file: string;
  /** Its name for reports: the request's name, else `METHOD url` as written. */
  label: string;
  /** The response status, when one arrived. */
  status?: number;
  /** Milliseconds from sending to the end of its handlers. */
  durationMs: number;
  /** Tests of its handlers, in order. */
  tests: TestOutcome[];
  /** What its scripts logged (`client.log`, `console.log`), in order, for reports. */
  logs?: string[];
  /** A Postman pre-request script called `pm.execution.skipRequest()`: it was not sent. */
  skipped?: boolean;
  /** What failed, when the request could not be sent or a script threw. */
  error?: DialError;
  /** The exchange's phases, when it was an HTTP exchange. */
  timings?: Timings;
  /** A `GRPC` request's status (`status` holds its code too). */
  grpc?: GrpcStatus;
}

/**
 * What the caller is shown of one exchange. Its response's body is the live stream, which the
 * caller reads (or cancels) before the run goes on; what handlers, assertions, request
 * variables and `>>` files need of it is taken as it passes (and read to its end afterwards).
 */
export interface ExchangeEvent {
  /** The request as built. */
  fileRequest: FileRequest;
  /** The exchange, its response ready to print. */
  exchange: Exchange;
  /** Whether it ran only because a selected request refers to it. */
  dependency: boolean;
  /** An event stream: the response has no body here; its events go to `onMessage`. */
  streamed: boolean;
}

/** One exchange as a contract checker sees it (`dial test --openapi`). */
export interface CheckableExchange {
  /** The method sent. */
  method: string;
  /** The URL sent (the last one, after redirects). */
  url: string;
  /** The request's headers as sent. */
  requestHeaders: [string, string][];
  /** The request body as text ("" for none). */
  requestBody: string;
  /** The response status. */
  status: number;
  /** The response headers. */
  headers: [string, string][];
  /** The response body as text. */
  body: string;
}

/** Options for {@link runHttpFile}. */
export interface RunHttpFileOptions {
  /** Run only these requests (by name, or 1-based index), in this order. */
  names?: string[];
  /** The chosen environment. */
  environment?: Environment;
  /** `--var` values, above everything else. */
  overrides?: ReadonlyMap<string, VariableValue>;
  /** `client.global` values, shared by every file of one run. Default: a new map. */
  globals?: Map<string, string>;
  /**
   * The named requests' results (`{{login.response.body.$.token}}`), kept across runs of the
   * same file (the UI's session). A named request found here does not run again as another's
   * dependency. Default: a new map.
   */
  responses?: Map<string, RequestVariableSource>;
  /** Reads the process environment for `{{$env.NAME}}` (default: `Deno.env.get`). */
  env?: (name: string) => string | undefined;
  /** Milliseconds each exchange may take, unless its `# @timeout` says otherwise. */
  timeoutMs?: number;
  /** Transport, signal, fetch and observers, given to `send` for every request. */
  send?: SendOptions;
  /** Files of the `run` lines being run, outermost first (a file never runs itself). */
  running?: readonly string[];
  /** The cookie jar of the run (default: a new one; `# @no-cookie-jar` skips it). */
  cookies?: CookieJar;
  /**
   * Script sandboxes kept from one run of a file to its next (`dial test --repeat`/`--data`
   * iterations, run one after another): the file's scripts then see what its earlier runs' scripts
   * put on `globalThis`, as Newman's scripts do from one iteration to the next. Without it each
   * run makes its own sandbox and frees it at the end.
   */
  scriptSessions?: ScriptSessions;
  /**
   * The iteration of a `dial test` run this file runs in (`--repeat`, `--data`): Postman
   * scripts read it as `pm.info.iteration`, `pm.info.iterationCount` and `pm.iterationData`
   * (the data row).
   */
  iteration?: {
    index: number;
    count: number;
    data?: Readonly<DataRow>;
    /**
     * The row's values as variables: above the environment and `run` line values, below
     * `overrides` (`--var`) and, as in Newman, Postman's local variables (`pm.variables.set`).
     */
    variables?: ReadonlyMap<string, VariableValue>;
  };
  /** Script time and memory limits. */
  scriptLimits?: SandboxLimits;
  /**
   * The origins `pm.sendRequest` may reach (`--script-origin`); the run adds each origin its
   * requests go to. Shared by the files of one run; default: a new set.
   */
  scriptOrigins?: Set<string>;
  /**
   * The folders the file's includes, outputs and script files must resolve inside (the run's
   * root and `--allow-path`); default: the file's own folder.
   */
  confinement?: Confinement;
  /** Record a failed request and go on (`dial test`), instead of throwing (`dial run`). */
  keepGoing?: boolean;
  /** Stop after the first failed test or request. */
  failFast?: boolean;
  /** Asked before each request: true stops the run (the caller's own `--fail-fast` rule). */
  stop?: () => boolean;
  /** Only requests whose label matches (`dial test --name`). */
  filter?: RegExp;
  /** The face's OAuth 2.0 hooks (browser, notices) for `Security.Auth` logins. */
  oauth2?: OAuth2Hooks;
  /**
   * Tokens for `{{$auth.token("id")}}` / `{{$auth.idToken("id")}}`. Default: the environment's
   * `Security.Auth` configuration through dial's OAuth 2.0 flows and token cache.
   */
  authToken?: (id: string, kind: "token" | "idToken") => Promise<VariableValue>;
  /** Checks each HTTP exchange (an OpenAPI contract): its failed tests join the request's. */
  checkExchange?: (exchange: CheckableExchange) => TestOutcome[] | Promise<TestOutcome[]>;
  /** Told of each token the run obtains for `{{$auth.token(…)}}` (`dial mcp` redacts them). */
  onSecret?: (value: string) => void;
  /**
   * Asks for a `# @prompt NAME [description]` variable (a secret for names like `password` or
   * `token`); undefined when it cannot ask (no terminal): the request then fails naming it.
   */
  prompt?: (
    name: string,
    description: string,
    secret: boolean,
  ) => Promise<VariableValue | undefined>;
  /**
   * Offered each selected request once it is built (its dependencies run, its pre-request
   * scripts and references resolved), before it is sent: true takes it, and the run neither
   * sends it nor runs its handlers (the UI's WebSocket, SSE and GraphQL tabs run their own
   * session from it). `scope` is the one it was built from (globals, request variables and
   * named results live): the UI's composers fill their later messages from it.
   */
  take?: (fileRequest: FileRequest, scope: VariableScope) => boolean;
  /** Told of each exchange, with the body read. */
  onExchange?: (event: ExchangeEvent) => void | Promise<void>;
  /** Told of each message of a WebSocket, subscription or event stream, as it arrives. */
  onMessage?: (text: string, request: HttpRequest) => void | Promise<void>;
  /** Told of what the run noticed with a doubt (a body too large for handlers to see whole). */
  onNotice?: (text: string) => void | Promise<void>;
  /** Told of each `client.log` line. */
  onLog?: (text: string, request: HttpRequest) => void | Promise<void>;
  /** Told of each finished request. */
  onResult?: (result: RequestResult) => void | Promise<void>;
  /**
   * Told when a Postman script ends the run (`postman.setNextRequest(null)`): the rest of the
   * file does not run, and the caller leaves out what would have run after it (Newman ends the
   * iteration).
   */
  onEndRun?: () => void;
  /**
   * A Postman script named a request this file does not have (`postman.setNextRequest(name)`):
   * true when the caller goes on there (a later file of the collection), and this file ends.
   * Without it, or on false, the name is an error.
   */
  onJump?: (name: string) => boolean;
  /** Begin at this request (where another file's `postman.setNextRequest` went). */
  startAt?: string;
}

/**
 * Runs a parsed request file.
 *
 * @param file the parsed file
 * @param options selection, environment, send options and observers
 * @returns each request's result, in the order they ran
 * @throws {DialError} the first failure, unless `keepGoing`
 */
export async function runHttpFile(
  file: HttpFile,
  options: RunHttpFileOptions = {},
): Promise<RequestResult[]> {
  const runner = new FileRunner(file, options);
  return await runner.run();
}

/**
 * Script sandboxes kept between runs of the same files, the most recently used up to a bound
 * (each holds a QuickJS instance, about 1-2 MiB); a session is taken for a run and kept again
 * after it, so two runs never share one at the same time.
 */
export class ScriptSessions {
  #kept = new Map<string, ScriptSession>();

  /** The most sessions kept. */
  readonly limit: number;

  /**
   * Makes an empty store.
   *
   * @param limit the most sessions kept (the least recently used is freed first)
   */
  constructor(limit = 16) {
    this.limit = limit;
  }

  /**
   * Takes a file's kept session out of the store.
   *
   * @param path the file's path
   * @returns its kept session, now taken, if there is one
   */
  take(path: string): ScriptSession | undefined {
    const session = this.#kept.get(path);
    this.#kept.delete(path);
    return session;
  }

  /**
   * Keeps a file's session for its next run.
   *
   * @param path the file's path
   * @param session its session
   */
  keep(path: string, session: ScriptSession): void {
    const old = this.#kept.get(path);
    if (old && old !== session) old.dispose();
    this.#kept.delete(path);
    this.#kept.set(path, session);
    for (const [oldest, kept] of this.#kept) {
      if (this.#kept.size <= this.limit) break;
      kept.dispose();
      this.#kept.delete(oldest);
    }
  }

  /** Frees every kept session. */
  dispose(): void {
    for (const session of this.#kept.values()) session.dispose();
    this.#kept.clear();
  }
}

/** The run's signal and the request's timeout, as one signal (the run's alone when no timeout). */
function exchangeSignal(run: AbortSignal | undefined, timeoutMs: number | undefined) {
  const timeout = timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined;
  return run && timeout ? AbortSignal.any([run, timeout]) : run ?? timeout;
}

/** How many passes httpyac's `# @loop while` may make before it is an error. */
const MAX_LOOP_PASSES = 10_000;

/** httpyac's `$httpyac.execute(…)` in a block, with its name when written as a string. */
const EXECUTE_CALL = /\$httpyac\s*\.\s*execute\s*\(\s*(?:(["'`])([^"'`]*)\1\s*[,)])?/g;
/** httpyac's `$httpyac.import(…)` in a block, with its path when written as a string. */
const IMPORT_CALL = /\$httpyac\s*\.\s*import\s*\(\s*(?:(["'`])([^"'`]*)\1\s*\))?/g;

/** The longest wait a file's `# @sleep` may ask for: five minutes. */
const MAX_SLEEP_MS = 300_000;

/** How many times `postman.setNextRequest` may jump in one file's run. */
const MAX_JUMPS = 10_000;

class FileRunner {
  readonly globals: Map<string, string>;
  readonly responses: Map<string, RequestVariableSource>;
  /** The exchange of each named response this file's requests made (httpyac's NAME document). */
  readonly exchangesOf = new WeakMap<RequestVariableSource, Outcome>();
  readonly ran = new Set<HttpRequest>();
  readonly results: RequestResult[] = [];
  readonly cookies: CookieJar;
  readonly dir: string;
  readonly authValues = new Map<string, VariableValue>();
  /** Names of requests that could not run: the ones that refer to them are not sent. */
  readonly failed = new Map<string, DialError>();
  /** Named requests skipped (`$cancel`, `# @disabled`): the requests that refer to them are too. */
  readonly skippedNames = new Set<string>();
  stopped = false;
  /** The file's scripts' sandbox, made at its first script: nothing of it reaches other files. */
  scripts?: ScriptSession;
  /** The request a Postman script chose with `postman.setNextRequest` (null: stop). */
  next: string | null | undefined = undefined;
  /** Where `pm.sendRequest` may go: the command line's origins and the run's requests'. */
  readonly origins: Set<string>;
  /** What httpyac blocks exported, with its type, while the variable still holds its text. */
  readonly exported = new Map<string, { text: string; value: unknown }>();
  /** The file's variables, below them those of the files it imports with httpyac's `# @import`. */
  fileVariables: HttpFile["variables"];
  /** Whether the file's httpyac blocks outside requests have run (once per run). */
  globalScriptsRan = false;

  constructor(readonly file: HttpFile, readonly options: RunHttpFileOptions) {
    this.globals = options.globals ?? new Map();
    this.fileVariables = file.variables;
    this.responses = options.responses ?? new Map();
    this.cookies = options.cookies ?? new CookieJar();
    this.origins = options.scriptOrigins ?? new Set();
    const slash = file.path.lastIndexOf("/");
    this.dir = slash < 0 ? "." : file.path.slice(0, slash) || "/";
  }

  dotenv?: Map<string, string>;
  dotenvDefaults?: Map<string, string>;
  confinement?: Confinement;

  async run(): Promise<RequestResult[]> {
    this.confinement = this.options.confinement ?? await Confinement.of(this.dir);
    // A file that reaches outside the run's folders sends nothing at all.
    await checkFilePaths(this.file, this.confinement);
    if (this.file.source.includes("$dotenv")) {
      this.dotenv = await confinedDotenv(this.dir, this.confinement, this.file.path);
    }
    // Read when a variable, a /path (the `host` variable) or httpyac's OAuth 2.0 (its
    // `oauth2_…` variables) may need them.
    if (
      this.file.source.includes("{{") || this.file.requests.some((r) => r.url.startsWith("/")) ||
      /^\s*authorization\s*:\s*(?:oauth2|openid)\b/im.test(this.file.source)
    ) {
      this.dotenvDefaults = await httpyacDotenv(Deno.realPathSync(this.dir), this.confinement);
    }
    if (this.file.imports?.some((line) => line.httpyac)) {
      this.fileVariables = [...await this.importedVariables(), ...this.file.variables];
    }
    // `run` lines and httpyac's named regions without a request run in place when the whole
    // file runs.
    const runs = this.options.names?.length ? [] : [...this.file.runs];
    const regions = this.options.names?.length ? [] : [...this.file.regions ?? []];
    // The signal watcher of scripts (a Worker, when the face asked for one) boots, and the
    // sandbox's module is loaded and its WebAssembly compiled, while the first requests go out
    // rather than when the first script is about to run.
    if (this.file.requests.some((r) => r.preScripts.length || r.handlers.length)) {
      watchSignals().catch(() => {});
      load.scriptSandbox().then((sandbox) => sandbox.prepareSandboxes(), () => {});
    }
    try {
      const selection = this.selection();
      let jumps = 0;
      const start = this.options.startAt === undefined
        ? 0
        : Math.max(0, selection.findIndex((r) => named(r, this.options.startAt!)));
      for (let index = start; index < selection.length; index++) {
        const request = selection[index]!;
        while (runs.length && runs[0]!.after < request.index) await this.runLine(runs.shift()!);
        while (regions.length && regions[0]!.index <= request.index) {
          await this.runRegion(regions.shift()!);
        }
        if (this.stopped || this.options.stop?.()) break;
        if (this.ran.has(request)) continue;
        await this.runOne(request, []);
        // Postman's postman.setNextRequest(name): null ends the file, a name jumps to it.
        const next = this.next;
        this.next = undefined;
        if (next === null) {
          this.options.onEndRun?.();
          break;
        }
        if (next === undefined) continue;
        const target = selection.findIndex((r) => named(r, next));
        if (target < 0 && this.options.onJump?.(next)) break;
        if (target < 0) {
          throw new UsageError(
            `${this.file.path}: postman.setNextRequest("${next}"): no such request`,
          );
        }
        if (++jumps > MAX_JUMPS) {
          throw new UsageError(
            `${this.file.path}: postman.setNextRequest jumped more than ${MAX_JUMPS} times`,
          );
        }
        this.ran.delete(selection[target]!);
        index = target - 1;
      }
      for (const line of runs) await this.runLine(line);
      for (const region of regions) await this.runRegion(region);
    } finally {
      if (this.scripts && this.options.scriptSessions) {
        this.options.scriptSessions.keep(this.file.path, this.scripts);
      } else this.scripts?.dispose();
    }
    return this.results;
  }

  /** httpyac's named region without a request, in its place: once, unless it ran already. */
  async runRegion(region: HttpRequest): Promise<void> {
    if (this.stopped || this.options.stop?.() || this.ran.has(region)) return;
    await this.runOne(region, []);
  }

  /** Variables of the `run` line being run: above the file's, below `--var`. */
  runVariables: Map<string, VariableValue> | undefined;

  /** A `run #name` or `run ./file.http` line. */
  async runLine(line: RunLine): Promise<void> {
    if (this.stopped || this.options.stop?.()) return;
    const at = `${this.file.path}:${line.span.line}:1`;
    const variables = new Map<string, VariableValue>(this.runVariables);
    for (const { name, value } of line.variables) {
      variables.set(
        name,
        substitute(value, this.scope(new Map()), {
          what: "the run line",
          path: this.file.path,
          line: line.span.line,
          column: 1,
        }).text,
      );
    }
    if (line.target.kind === "request") {
      const name = line.target.name;
      const request = findRequest(this.file, name);
      if (!request) {
        const imported = await this.imported(name, [this.file.path]);
        if (!imported) throw new UsageError(`${at}: No request named "${name}" to run`);
        await this.runInner(imported.file, imported.path, variables, [String(imported.index)]);
        return;
      }
      const outer = this.runVariables;
      this.runVariables = variables;
      try {
        await this.runOne(request, []);
      } finally {
        this.runVariables = outer;
      }
      return;
    }
    const written = line.target.path;
    const path = await this.confinement!.reading(
      written.startsWith("/") ? written : `${this.dir}/${written.replace(/^\.\//, "")}`,
      { what: `the file run by ${this.file.path}:${line.span.line}`, written },
    );
    const running = this.options.running ?? [];
    if (running.includes(path)) {
      throw new UsageError(`${at}: ${line.target.path} is already running (run lines in a loop)`);
    }
    let source: string;
    try {
      source = await Deno.readTextFile(path);
    } catch {
      throw new UsageError(`${at}: Cannot read the file to run "${line.target.path}"`);
    }
    const { parseHttpFile } = await load.parseHttpFile();
    const file = parseHttpFile(source, joinPath(this.dir, line.target.path));
    await this.runInner(file, path, variables, []);
  }

  /** Runs another file's requests (all, or the named ones) in place, sharing globals and cookies. */
  async runInner(
    file: HttpFile,
    path: string,
    variables: Map<string, VariableValue>,
    names: string[],
  ): Promise<void> {
    const overrides = new Map([...variables, ...(this.options.overrides ?? [])]);
    // An inner file's run has a sandbox of its own, as it always had.
    const { filter: _, scriptSessions: __, ...options } = this.options;
    const inner = new FileRunner(file, {
      ...options,
      names,
      globals: this.globals,
      cookies: this.cookies,
      overrides,
      confinement: this.confinement!,
      running: [...(this.options.running ?? []), path],
    });
    this.results.push(...await inner.run());
    // Its named responses, for this file's `{{name.…}}` (httpyac's imports).
    for (const [name, response] of inner.responses) this.responses.set(name, response);
    if (inner.stopped) this.stopped = true;
  }

  /**
   * The request `run #name` names in the files this file imports (JetBrains' `import`), their
   * own imports after them, depth first; each file read once, inside the run's folders.
   */
  async imported(
    name: string,
    seen: string[],
    file: HttpFile = this.file,
  ): Promise<{ file: HttpFile; path: string; index: number } | undefined> {
    for (const line of file.imports ?? []) {
      const parsed = await this.readImport(file, line, seen);
      if (!parsed) continue;
      const request = findRequest(parsed, name);
      if (request) return { file: parsed, path: seen.at(-1)!, index: request.index };
      const deeper = await this.imported(name, seen, parsed);
      if (deeper) return deeper;
    }
    return undefined;
  }

  /**
   * Reads and parses a file an import line names, inside the run's folders.
   *
   * @param seen the files read so far (the new one is added): a file is read once
   * @returns the file, or undefined when it was read before
   */
  async readImport(
    file: HttpFile,
    line: NonNullable<HttpFile["imports"]>[number],
    seen: string[],
  ): Promise<HttpFile | undefined> {
    const slash = file.path.lastIndexOf("/");
    const dir = slash < 0 ? "." : file.path.slice(0, slash) || "/";
    // httpyac's `# @import {{root}}other.http`.
    const written = line.path.includes("{{")
      ? substitute(line.path, this.scope(new Map()), {
        what: "the import",
        path: file.path,
        line: line.span.line,
        column: 1,
      }).text
      : line.path;
    const path = await this.confinement!.reading(
      written.startsWith("/") ? written : `${dir}/${written.replace(/^\.\//, "")}`,
      { what: `the file imported by ${file.path}:${line.span.line}`, written },
    );
    if (seen.includes(path)) return undefined;
    seen.push(path);
    let source: string;
    try {
      source = await Deno.readTextFile(path);
    } catch {
      throw new UsageError(
        `${file.path}:${line.span.line}:1: Cannot read the imported file "${written}"`,
      );
    }
    const { parseHttpFile } = await load.parseHttpFile();
    return parseHttpFile(source, joinPath(dir, written));
  }

  /** The variables of the files httpyac's `# @import` lines name, theirs first, each file once. */
  async importedVariables(
    file: HttpFile = this.file,
    seen: string[] = [this.file.path],
  ): Promise<HttpFile["variables"]> {
    const variables: HttpFile["variables"] = [];
    for (const line of file.imports ?? []) {
      if (!line.httpyac) continue;
      const read = await this.readImport(file, line, seen);
      if (!read) continue;
      variables.push(...await this.importedVariables(read, seen), ...read.variables);
    }
    return variables;
  }

  /** The file's first request of each name (a chain of 1,000 looks one up per request). */
  #byName?: Map<string, HttpRequest>;

  /** The file's first request (or httpyac region without a request) of that name. */
  requestNamed(name: string): HttpRequest | undefined {
    if (!this.#byName) {
      this.#byName = new Map();
      for (const r of [...this.file.requests, ...this.file.regions ?? []]) {
        if (r.name !== undefined && !this.#byName.has(r.name)) this.#byName.set(r.name, r);
      }
    }
    return this.#byName.get(name);
  }

  selection(): HttpRequest[] {
    return selectRequests(this.file, this.options.names, this.options.filter);
  }

  async runOne(request: HttpRequest, chain: HttpRequest[]): Promise<void> {
    if (chain.includes(request)) {
      throw new UsageError(
        `${this.file.path}: Requests refer to each other in a loop: ${
          [...chain, request].map(labelOf).join(" → ")
        }`,
      );
    }
    // Named requests this one refers to run first, once.
    const names = requestDependencies(this.file, request);
    // httpyac's `# @forceRef NAME`: the named request runs again before this one, every time.
    const forced = request.directives.length
      ? request.directives.flatMap((d) => d.name === "forceRef" ? [d.value] : [])
      : [];
    for (const name of names) {
      const dependency = this.requestNamed(name);
      if (!dependency && this.file.imports && !this.responses.has(name)) {
        // httpyac's `# @import`: a request of an imported file, run once, in its own file.
        const imported = await this.imported(name, [this.file.path]);
        if (imported) {
          await this.runInner(imported.file, imported.path, new Map(), [String(imported.index)]);
        }
        if (this.stopped) return;
        continue;
      }
      if (
        dependency && dependency !== request &&
        (forced.includes(name) || (!this.ran.has(dependency) && !this.responses.has(name)))
      ) {
        await this.runOne(dependency, [...chain, request]);
        if (this.stopped) return;
      }
    }
    this.ran.add(request);
    if (request.directives.length && request.directives.some((d) => d.name === "loop")) {
      try {
        await this.loop(request, names, chain);
      } catch (error) {
        // What a loop's list or condition threw fails the request, as a failed exchange does.
        if (!(error instanceof DialError) || !this.options.keepGoing) throw error;
        await this.settle({ ...this.startResult(request), error }, performance.now());
      }
      return;
    }
    await this.exchange(request, names, chain);
  }

  /**
   * httpyac's `# @loop for N`, `# @loop for ITEM of LIST` and `# @loop while EXPRESSION`: the
   * request once per pass, `{{$index}}` its 0-based pass and ITEM the list's element (a variable
   * for the rest of the run, as in httpyac); a named request's passes are `NAME0`, `NAME1` …
   * (httpyac's NAME, got's response object of the first, is not kept). LIST and EXPRESSION are
   * JavaScript, run in the sandbox.
   */
  async loop(request: HttpRequest, names: string[], chain: HttpRequest[]): Promise<void> {
    const directive = request.directives.find((d) => d.name === "loop")!;
    const at = `${this.file.path}:${directive.span.line}:1`;
    // The file's blocks outside requests run before its first request's loop reads their exports.
    if (this.file.scripts && !this.globalScriptsRan) {
      const result = this.startResult(request);
      await this.fileScripts(request, result, this.scope(new Map()), new Map(), undefined, true);
    }
    // As httpyac: the request's blocks written above the `# @loop` line run once, before the loop
    // reads LIST or EXPRESSION (`exports.data = [1, 2]`); the ones below it run in every pass.
    const above = request.preScripts.filter((script) =>
      script.kind === "inline" && script.httpyac && script.codeLine < directive.span.line
    );
    if (above.length) {
      const result = this.startResult(request);
      await this.preScripts(
        { ...request, preScripts: above },
        result,
        this.scope(new Map()),
        new Map(),
      );
      if (result.skipped || result.tests.length) await this.settle(result, performance.now());
      if (result.skipped) return;
      request = { ...request, preScripts: request.preScripts.filter((s) => !above.includes(s)) };
    }
    const evaluate = async (code: string) =>
      (await this.evaluateHttpyac(
        code,
        directive.span.line,
        request,
        this.httpyacVariables(code, this.scope(new Map())),
      )).value;
    // httpyac's response object of each pass of a named request (NAME, NAMEList afterwards).
    const passes: unknown[] = [];
    const pass = async (index: number, item?: [string, unknown]) => {
      if (item) this.keepExport(item[0], item[1]);
      const outer = this.runVariables;
      this.runVariables = new Map([...(outer ?? []), ["$index", String(index)]]);
      try {
        const name = request.name;
        this.lastResponse = undefined;
        await this.exchange(
          name === undefined ? request : { ...request, name: `${name}${index}` },
          names,
          chain,
        );
        const made = this.lastResponse as (() => Promise<HttpyacResponse>) | undefined;
        if (name !== undefined && made) passes.push(plainResponse(await made()));
      } finally {
        this.runVariables = outer;
      }
    };
    const value = directive.value;
    const forOf = /^\s*for\s+(.*?)\s+of\s+(.*?)\s*$/.exec(value);
    const times = /^\s*for\s*(\d+)\s*$/.exec(value);
    const during = /^\s*while\s+(.*?)\s*$/.exec(value);
    if (forOf) {
      const list = await evaluate(forOf[2]!);
      if (!Array.isArray(list)) {
        throw new UsageError(
          `${at}: "# @loop ${value}" needs a list: ${forOf[2]} is ${
            JSON.stringify(list) ?? "undefined"
          }`,
        );
      }
      for (let i = 0; i < list.length && !this.stopped; i++) await pass(i, [forOf[1]!, list[i]]);
    } else if (times) {
      for (let i = 0; i < Number(times[1]) && !this.stopped; i++) await pass(i);
    } else if (during) {
      for (let i = 0; !this.stopped && await evaluate(during[1]!); i++) {
        if (i >= MAX_LOOP_PASSES) {
          throw new UsageError(
            `${at}: "# @loop ${value}" still holds after ${MAX_LOOP_PASSES} passes`,
          );
        }
        await pass(i);
      }
    } else {
      throw new UsageError(
        `${at}: Cannot read "# @loop ${value}": write for N, for ITEM of LIST or while EXPRESSION`,
      );
    }
    if (request.name !== undefined && passes.length) {
      // As httpyac: NAME is the first pass's response, NAMEList every pass's, in order.
      this.keepExport(request.name, passes[0]);
      this.keepExport(`${request.name}List`, passes);
    }
  }

  /** httpyac's response of the last exchange (made when asked): a `# @loop` keeps its passes'. */
  lastResponse: (() => Promise<HttpyacResponse>) | undefined;

  /** httpyac's response of each named request that ran (made when asked), for `NAMEResponse`. */
  readonly namedHttpyacResponses = new Map<string, () => Promise<HttpyacResponse>>();

  /**
   * httpyac's `NAMEResponse` in a block: the response object of the named request NAME that ran
   * (`statusCode`, `headers`, `body`, `parsedBody` …), when no variable of that name is defined.
   */
  async responseVariables(
    code: string,
    scope: VariableScope,
  ): Promise<Record<string, Record<string, unknown>>> {
    const found: Record<string, Record<string, unknown>> = {};
    for (const [name, base] of code.matchAll(/(?<![.\w$])([A-Za-z_$][\w$]*)Response\b/g)) {
      const made = this.namedHttpyacResponses.get(base!);
      if (!made || name in found || this.defines(name, scope)) continue;
      found[name] = plainResponse(await made());
    }
    return found;
  }

  /** @returns a result of this file for the request, before anything of it ran */
  startResult(request: HttpRequest): RequestResult {
    return { request, file: this.file.path, label: labelOf(request), durationMs: 0, tests: [] };
  }

  /** Sends the request as one result of the run (its referred requests ran, or failed). */
  async exchange(request: HttpRequest, names: string[], chain: HttpRequest[]): Promise<void> {
    const started = performance.now();
    const result = this.startResult(request);
    try {
      const failed = names.find((name) => this.failed.has(name));
      if (failed !== undefined) {
        const cause = this.failed.get(failed)!;
        throw new DialError(
          `${this.file.path}: Request "${failed}", which ${labelOf(request)} refers to, failed`,
          cause.code,
          { details: cause.details, cause },
        );
      }
      // A request that refers to a skipped one is skipped too, as httpyac skips it.
      if (names.some((name) => this.skippedNames.has(name))) result.skipped = true;
      // Only a request with `# @prompt` or `# @note` lines (or httpyac's `{{$input …}}`) asks
      // before it is sent.
      else if (
        request.directives.some((d) => d.name === "prompt" || d.name === "note") ||
        this.inputs(request).length
      ) {
        await this.execute(request, result, chain.length > 0);
      } else await this.send(request, result, chain.length > 0);
    } catch (error) {
      if (!(error instanceof DialError) || !this.options.keepGoing) throw error;
      result.error = error;
    }
    await this.settle(result, started);
  }

  /** Keeps a request's result (its time from `started`): reported, and failed for later ones. */
  async settle(result: RequestResult, started: number): Promise<void> {
    result.durationMs = performance.now() - started;
    const name = result.request.name;
    if (result.error && name !== undefined) this.failed.set(name, result.error);
    if (result.skipped && name !== undefined) this.skippedNames.add(name);
    this.results.push(result);
    if (this.options.onResult) await this.options.onResult(result);
    const failed = result.error !== undefined || result.tests.some((t) => !t.passed);
    if (failed && this.options.failFast) this.stopped = true;
  }

  async execute(request: HttpRequest, result: RequestResult, dependency: boolean): Promise<void> {
    if (!await this.confirmed(request)) {
      result.skipped = true;
      return;
    }
    const outer = this.runVariables;
    const asked = await this.prompts(request);
    if (asked) this.runVariables = new Map([...(outer ?? []), ...asked]);
    try {
      await this.send(request, result, dependency);
    } finally {
      this.runVariables = outer;
    }
  }

  /**
   * httpyac's `# @note TEXT`: the request is sent once the question is confirmed on a terminal
   * (Enter or `y`, as httpyac's `(Y/n)`); `n` skips it; without a terminal, an error naming it.
   */
  async confirmed(request: HttpRequest): Promise<boolean> {
    const note = request.directives.findLast((d) => d.name === "note");
    if (!note) return true;
    const answer = await this.options.prompt?.(
      "note",
      `${note.value || "Are you sure?"} (Y/n)`,
      false,
    );
    if (answer === undefined) {
      throw new UsageError(
        `${this.file.path}:${note.span.line}:1: ${
          labelOf(request)
        } asks for confirmation with # @note and there is no terminal to ask on`,
      );
    }
    return /^\s*(?:y(?:es)?)?\s*$/i.test(typeof answer === "string" ? answer : answer.reveal());
  }

  /** The request's `# @prompt` variables that nothing on the command line gave. */
  async prompts(request: HttpRequest): Promise<Map<string, VariableValue> | undefined> {
    let asked: Map<string, VariableValue> | undefined;
    for (const directive of request.directives) {
      if (directive.name !== "prompt") continue;
      const [name = "", ...words] = directive.value.split(/\s+/);
      if (!name || this.options.overrides?.has(name)) continue;
      if (this.options.iteration?.variables?.has(name)) continue;
      const secret = /pass|secret|token|credential|key/i.test(name);
      const value = await this.options.prompt?.(name, words.join(" "), secret);
      if (value === undefined) {
        throw new UsageError(
          `${this.file.path}:${directive.span.line}:1: Variable "${name}" is asked with # @prompt and there is no terminal to ask on`,
          { details: { name }, remedy: { give: "variable" } },
        );
      }
      (asked ??= new Map()).set(name, value);
    }
    for (const input of this.inputs(request)) {
      (asked ??= new Map()).set(input.expression, await this.askInput(input));
    }
    return asked;
  }

  /** Whether the file holds httpyac's `{{…}}` expressions or inputs at all (one pass, once). */
  #httpyacSeen?: { expressions: boolean; inputs: boolean };

  /** httpyac's `{{$input …}}` answers of this run: each asked once. */
  readonly answers = new Map<string, VariableValue>();

  /**
   * httpyac's `{{$input|$prompt|$password|$pick PLACEHOLDER $value: …}}` in the request's
   * URL, headers or body, or in a file variable they name that nothing above the file defines.
   */
  inputs(request: HttpRequest): HttpyacInput[] {
    if (!(this.#httpyacSeen ??= httpyacSeen(this.file)).inputs) return [];
    const found: HttpyacInput[] = [];
    for (const { text, line, variable } of this.reachableTexts(request)) {
      for (const match of text.matchAll(HTTPYAC_INPUT)) {
        const expression = match[1]!.trim();
        if (!found.some((f) => f.expression === expression)) {
          found.push({ expression, line, ...(variable ? { variable } : {}) });
        }
      }
    }
    return found;
  }

  /** Whether a name has a value above the file's variables (`--var`, a row, a run line, the environment, a script). */
  definedAbove(name: string): boolean {
    return Boolean(
      this.options.overrides?.has(name) || this.options.iteration?.variables?.has(name) ||
        this.runVariables?.has(name) || this.options.environment?.variables.has(name) ||
        this.globals.has(name),
    );
  }

  /** Asks for an httpyac input on the terminal (once per run); off one, an error naming it. */
  async askInput(input: HttpyacInput): Promise<VariableValue> {
    const known = this.answers.get(input.expression);
    if (known !== undefined) return known;
    const parts =
      /^\$(input|prompt|password|pick)(?:-askonce)?\s*([^$]*?)\s*(?:\$value:\s*(.*?))?\s*$/
        .exec(input.expression)!;
    const [, kind, placeholder = "", preset] = parts;
    const named = input.variable
      ? `Variable "${input.variable}" (${kind} "${placeholder}")`
      : `{{$${kind} ${placeholder}}}`;
    const choices = kind === "pick" ? (preset ?? "").split(",").map((c) => c.trim()) : [];
    const description = kind === "pick"
      ? `${placeholder} [${choices.map((c, i) => `${i + 1}: ${c}`).join(", ")}]`
      : preset
      ? `${placeholder} [${preset}]`
      : placeholder;
    const value = await this.options.prompt?.(
      input.variable ?? placeholder,
      description,
      kind === "password",
    );
    if (value === undefined) {
      throw new UsageError(
        `${this.file.path}:${input.line}:1: ${named} is asked with httpyac's $${kind} and there is no terminal to ask on`,
        { details: { name: input.variable ?? placeholder }, remedy: { give: "variable" } },
      );
    }
    let answer = value;
    if (typeof value === "string" && value === "" && preset !== undefined && kind !== "pick") {
      answer = preset;
    }
    if (kind === "pick") {
      const text = typeof value === "string" ? value.trim() : reveal(value);
      const chosen = /^\d+$/.test(text)
        ? choices[Number(text) - 1]
        : choices.find((c) => c === text);
      if (chosen === undefined) {
        throw new UsageError(
          `${this.file.path}:${input.line}:1: "${text}" is not one of ${
            choices.join(", ")
          } (${named})`,
        );
      }
      answer = chosen;
    }
    this.answers.set(input.expression, answer);
    return answer;
  }

  /**
   * Runs the request's pre-request scripts: the variables they set, their tests, a skip, and
   * their header edits.
   *
   * @returns the request as the scripts left it
   */
  async preScripts(
    request: HttpRequest,
    result: RequestResult,
    scope: VariableScope,
    requestVariables: Map<string, string>,
  ): Promise<HttpRequest> {
    const postman = request.directives.some((d) => d.name === "postman");
    if (postman && request.preScripts.length) this.noteOrigin(request, scope);
    for (const script of request.preScripts) {
      const input = this.writtenInput(scope, requestVariables, request);
      if (script.kind === "inline" && script.httpyac) {
        const edits = await this.httpyacBlock(script, request, result, input, scope);
        if (result.skipped) return request;
        if (edits.length) request = editHeaders(request, edits);
        continue;
      }
      let output: ScriptOutput;
      try {
        output = await this.script(script, request, result, input);
      } catch (error) {
        // Newman records a failing pre-request script and still sends the request.
        const stopped = this.options.send?.signal?.aborted;
        if (
          !postman || stopped || !(error instanceof DialError) || error.code !== ErrorCode.Script
        ) {
          throw error;
        }
        result.tests.push({
          name: "prerequest-script",
          passed: false,
          error: true,
          message: error.message,
          durationMs: 0,
        });
        continue;
      }
      for (const [name, value] of Object.entries(output.requestVariables)) {
        requestVariables.set(name, value);
      }
      if (output.typed) keepTypes(requestVariables, output.typed.local);
      result.tests.push(...output.tests);
      if (output.skipRequest) result.skipped = true;
      if (output.headerEdits?.length) request = editHeaders(request, output.headerEdits);
    }
    return request;
  }

  /**
   * httpyac's `# @disabled` (the request is skipped) and `# @disabled EXPRESSION` (skipped when
   * the JavaScript expression is truthy, evaluated in the sandbox with the variables it names).
   */
  async disabled(request: HttpRequest, scope: VariableScope): Promise<boolean> {
    const directive = request.directives.findLast((d) => d.name === "disabled");
    if (!directive) return false;
    if (!directive.value) return true;
    const { value } = await this.evaluateHttpyac(
      directive.value,
      directive.span.line,
      request,
      this.httpyacVariables(directive.value, scope),
    );
    return Boolean(value);
  }

  /**
   * httpyac's `# @sleep MS`: the run waits so many milliseconds before the request (MS may be
   * JavaScript, as in httpyac, which waits only for an integer), at most {@link MAX_SLEEP_MS};
   * Ctrl-C ends the wait and the run.
   */
  async sleep(request: HttpRequest, scope: VariableScope): Promise<void> {
    for (const directive of request.directives) {
      if (directive.name !== "sleep" || !directive.value) continue;
      const value = directive.value;
      const ms = /^\d+$/.test(value) ? Number(value) : (await this.evaluateHttpyac(
        value,
        directive.span.line,
        request,
        this.httpyacVariables(value, scope),
      )).value;
      if (!Number.isSafeInteger(ms) || (ms as number) <= 0) continue;
      if ((ms as number) > MAX_SLEEP_MS) {
        throw new UsageError(
          `${this.file.path}:${directive.span.line}:1: "# @sleep ${value}" would wait ${ms} ms: dial waits at most ${MAX_SLEEP_MS} ms for a file`,
        );
      }
      const signal = this.options.send?.signal;
      if (!await sleep(ms as number, signal)) throw signal!.reason;
    }
  }

  /**
   * httpyac's `...NAME` header lines: each object's entries (a list: one header per element) set
   * over the written headers of the same name, as httpyac assigns them; not an object: nothing.
   */
  async spreadHeaders(request: HttpRequest, scope: VariableScope): Promise<HttpRequest> {
    let headers = request.headers;
    for (const { expression, span } of request.headerSpreads!) {
      const { value } = await this.evaluateHttpyac(
        expression,
        span.line,
        request,
        this.httpyacVariables(expression, scope),
      );
      if (!value || typeof value !== "object") continue;
      const entries = Object.entries(value).flatMap(([name, v]) =>
        (Array.isArray(v) ? v : [v]).map((one) => [name, String(one)] as const)
      );
      const bad = entries.find(([name]) => !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name));
      if (bad) {
        throw new UsageError(
          `${this.file.path}:${span.line}:1: "...${expression}" gives the header name "${
            bad[0].slice(0, 40)
          }", which is not one`,
        );
      }
      const names = new Set(entries.map(([name]) => name.toLowerCase()));
      headers = [
        ...headers.filter((h) => !names.has(h.name.toLowerCase())),
        ...entries.map(([name, text]) => ({ name, value: text, span })),
      ];
    }
    return { ...request, headers };
  }

  /** A pre-request script's input: the request as written. */
  writtenInput(
    scope: VariableScope,
    requestVariables: Map<string, string>,
    request: HttpRequest,
  ): ScriptInput {
    return {
      ...this.scriptInput(scope, requestVariables, request),
      request: {
        method: request.method,
        url: request.url,
        headers: request.headers.map((h) => [h.name, h.value]),
        body: request.body.map((p) => (p.kind === "text" ? p.text : `< ${p.path}`)).join("\n"),
      },
    };
  }

  /** httpyac's `{{@streaming` blocks of the request, in order, with the variables before it. */
  async streamingBlocks(
    request: HttpRequest,
    result: RequestResult,
    scope: VariableScope,
    requestVariables: Map<string, string>,
  ): Promise<void> {
    for (const script of request.streaming ?? []) {
      if (script.kind !== "inline") continue;
      const input = this.writtenInput(scope, requestVariables, request);
      await this.httpyacBlock(script, request, result, input, scope);
    }
  }

  /**
   * Runs an httpyac `{{ … }}` block: httpyac's context in (the variables its code names,
   * `response`), its exports out as the run's variables (`$cancel`: the request is skipped).
   */
  async httpyacBlock(
    script: Script & { kind: "inline" },
    request: HttpRequest,
    result: RequestResult,
    input: ScriptInput,
    scope: VariableScope,
    response?: HttpyacResponse,
  ): Promise<NonNullable<ScriptOutput["headerEdits"]>> {
    const { ScriptError } = await load.scriptSandbox();
    const node = nodeRequire(script.code, script.codeLine);
    if (node) {
      throw new ScriptError(
        `${this.file.path}:${node.line}: require("${node.module}") is Node code, which dial's script sandbox does not run (httpyac's scripts get Node's "assert" and "crypto" modules, and httpyac's "@xmldom/xmldom" and "xpath", only)`,
      );
    }
    if (script.code.includes("$httpyac")) await this.executed(script, request);
    const { body: _, ...meta } = response ?? {};
    const responses = await this.responseVariables(script.code, scope);
    const { offerLibrary } = await load.scriptSandbox();
    const variables = { ...responses, ...this.blockVariables(script.code, scope) };
    if (response?.markup || Object.values(variables).some(isMarkupVariable)) {
      await offerLibrary("xmldom");
    }
    for (const module of requiredLibraries(script.code)) await offerLibrary(module);
    input.requestVariables = {
      ...input.requestVariables,
      [HTTPYAC_CHANNEL]: JSON.stringify({
        variables,
        ...(response ? { response: meta } : {}),
        file: this.file.path,
        dir: this.dir,
        region: {
          metaData: Object.fromEntries(
            // httpyac's keys are camel case (`# @no-log`: `noLog`).
            request.directives.map((d) =>
              [
                d.name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()),
                d.value || true,
              ] as const
            ),
          ),
        },
      }),
    };
    // The body as text: httpyac's response parses it itself.
    if (input.response) input.response = { ...input.response, mimeType: "", charset: "" };
    const output = await this.script(script, request, result, input);
    result.tests.push(...output.tests);
    const text = output.requestVariables[HTTPYAC_CHANNEL];
    const did = text ? JSON.parse(text) as Partial<HttpyacBlockOutput> : {};
    if (did.error !== undefined) {
      throw new ScriptError(`${this.file.path}:${script.codeLine}: ${did.error}`);
    }
    for (const [name, now] of Object.entries(did.values ?? {})) this.keepChanged(name, now);
    for (const [name, value] of Object.entries(did.exports ?? {})) {
      if (name === "$cancel") {
        if (value) result.skipped = true;
        continue;
      }
      this.keepExport(name, value);
    }
    return response ? [] : headerChanges(input.request?.headers ?? [], did.headers);
  }

  /**
   * httpyac's `$global`: one object for the whole run (every file of it), made at its first use
   * and kept as an exported object is, so that what a script changes in it holds afterwards.
   *
   * @returns its text (the variables of a script take the object kept with it)
   */
  globalObject(): string {
    const text = this.globals.get("$global");
    if (text === undefined) this.keepExport("$global", {});
    else if (this.exported.get("$global")?.text !== text) {
      // Another file of the run made it: its object, from its text.
      this.exported.set("$global", { text, value: JSON.parse(text) });
    }
    return this.globals.get("$global")!;
  }

  /**
   * httpyac's `$httpyac.execute("NAME")` in a block: the named request (or region) of this file
   * runs again before the block, as `# @forceRef NAME` runs it, and the block's call resolves
   * at once. The name must be written as a string: what runs is known before the block does,
   * and it is a request of this file, which the whole file's run sends anyway; or of a file the
   * block imports with `$httpyac.import` of a path written as a string (`./other.http`; read as
   * `# @import` reads one: inside the run's folders), run in its own file.
   */
  async executed(script: Script & { kind: "inline" }, request: HttpRequest): Promise<void> {
    const { ScriptError } = await load.scriptSandbox();
    const lineOf = (index: number) =>
      script.codeLine + script.code.slice(0, index).split("\n").length - 1;
    // `$httpyac.import` of `./other.http`: another file's named requests, as `# @import` gives.
    const imports = [...script.code.matchAll(IMPORT_CALL)].map((call) => {
      if (call[2] === undefined) {
        throw new ScriptError(
          `${this.file.path}:${
            lineOf(call.index)
          }: $httpyac.import takes a file's path, written as a string`,
        );
      }
      return { path: call[2], httpyac: true, span: script.span };
    });
    for (const call of script.code.matchAll(EXECUTE_CALL)) {
      const line = lineOf(call.index);
      const name = call[2];
      const target = name === undefined ? undefined : this.requestNamed(name);
      const imported = !target && name !== undefined && imports.length
        ? await this.imported(name, [this.file.path], { ...this.file, imports })
        : undefined;
      if (imported) {
        await this.runInner(imported.file, imported.path, new Map(), [String(imported.index)]);
        continue;
      }
      if (!target) {
        throw new ScriptError(
          name === undefined
            ? `${this.file.path}:${line}: $httpyac.execute takes the name of a request of this file, written as a string`
            : `${this.file.path}:${line}: $httpyac.execute("${name}"): this file has no request of that name`,
        );
      }
      await this.runOne(target, [request]);
    }
  }

  /** A value httpyac's JavaScript gave a variable: its text for `{{name}}`, kept with its type. */
  keepExport(name: string, value: unknown): void {
    const text = typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
    this.globals.set(name, text);
    this.exported.set(name, { text, value });
  }

  /**
   * The variables httpyac's JavaScript names, as its context holds them: what a block exported
   * with its type (while the variable still holds it), else the value or a named request's body.
   */
  httpyacVariables(code: string, scope: VariableScope): Map<string, unknown> {
    const variables = this.expressionVariables(code, scope);
    for (const [name, value] of variables) {
      const kept = this.exported.get(name);
      if (kept && kept.text === value) variables.set(name, kept.value);
    }
    return variables;
  }

  /**
   * What an httpyac block's context holds: the variables it names, `$index` in a `# @loop`
   * pass, and every named response when it reads `this[…]` (a computed name).
   */
  blockVariables(code: string, scope: VariableScope): Record<string, unknown> {
    const variables = Object.fromEntries(this.httpyacVariables(namesText(code), scope));
    const index = this.runVariables?.get("$index");
    if (typeof index === "string") variables.$index = Number(index);
    if (code.includes("this[")) {
      for (const [name, source] of this.responses) {
        if (name in variables) continue;
        try {
          variables[name] = JSON.parse(source.response.body);
        } catch {
          variables[name] = source.response.body;
        }
      }
    }
    return variables;
  }

  /**
   * httpyac's JavaScript in `{{…}}` (`{{JSON.stringify(user)}}`, `{{6 + n}}`) in the request or
   * a file variable it uses: each evaluated in the sandbox with the variables it names before
   * the request is built; its value (a string as it is, else its JSON) is the request's
   * variable of that text. `require` of a Node module is an error naming it.
   */
  async httpyacExpressions(
    request: HttpRequest,
    scope: VariableScope,
    requestVariables: Map<string, string>,
  ): Promise<void> {
    if (!(this.#httpyacSeen ??= httpyacSeen(this.file)).expressions) return;
    for (const { text, line } of this.reachableTexts(request)) {
      for (const [, expression] of text.matchAll(/\{\{\s*([^{}]*?)\s*\}\}/g)) {
        if (requestVariables.has(expression!)) continue;
        // `{{user.length}}`: a path in a variable that is not a named request's or an export's.
        const head = /^([\w-]+)(?:\.[\w$]+|\[\d+\])+$/.exec(expression!)?.[1];
        const inVariable = head !== undefined && !this.responseOf(head) &&
          this.defines(head, scope);
        // httpyac's `{{$xpath:NAME EXPRESSION}}`: XPath over a named response's body.
        const xpathOf = /^\$xpath:(\S+)\s+(.+)$/.exec(expression!);
        if (xpathOf) {
          requestVariables.set(expression!, await this.xpathOf(xpathOf[1]!, xpathOf[2]!, line));
          continue;
        }
        // httpyac's `{{$global.name}}`: a path in its run-wide object.
        const global = /^\$global\b/.test(expression!);
        if (!global && !inVariable && !isJavaScriptExpression(expression!)) continue;
        if (!global && this.defines(expression!, scope)) continue;
        const node = nodeRequire(expression!, line);
        if (node) {
          const { ScriptError } = await load.scriptSandbox();
          throw new ScriptError(
            `${this.file.path}:${line}: require("${node.module}") is Node code, which dial's script sandbox does not run`,
          );
        }
        const { value } = await this.evaluateHttpyac(
          expression!,
          line,
          request,
          this.httpyacVariables(expression!, scope),
        );
        if (value === undefined) continue;
        requestVariables.set(
          expression!,
          typeof value === "string" ? value : JSON.stringify(value) ?? String(value),
        );
      }
    }
  }

  /**
   * httpyac's `{{$xpath:NAME EXPRESSION}}`: the XPath expression over the named response's body
   * (the file's `@xpath_ns` prefixes), as `?? xpath` reads it; nothing found is an error, as
   * in httpyac (whose next reading of the text, as JavaScript, fails).
   */
  async xpathOf(name: string, expression: string, line: number): Promise<string> {
    const named = this.responseOf(name);
    if (!named) {
      throw new UsageError(
        `${this.file.path}:${line}: Request "${name}" in {{$xpath:${name} …}} has not run`,
      );
    }
    const { xpathValue } = await load.xpath();
    const namespaces = Object.fromEntries(
      (this.file.xpathNamespaces ?? []).map((n) => [n.prefix, n.uri]),
    );
    let value: unknown;
    try {
      value = xpathValue(expression, named.response.body, namespaces);
    } catch (error) {
      throw new UsageError(`${this.file.path}:${line}: ${(error as Error).message}`);
    }
    if (value === undefined || value === "") {
      throw new UsageError(
        `${this.file.path}:${line}: {{$xpath:${name} ${expression}}} selects nothing in the response of "${name}"`,
      );
    }
    return typeof value === "string" ? value : JSON.stringify(value);
  }

  /** Whether a variable has a value in the scope (a reference not read yet counts). */
  defines(name: string, scope: VariableScope): boolean {
    try {
      return lookupVariable(name, scope) !== undefined;
    } catch {
      return true;
    }
  }

  /**
   * The request's URL, header and body texts, and the values of the file variables they name
   * (where `{{…}}` may be), each with its line.
   */
  reachableTexts(request: HttpRequest): { text: string; line: number; variable?: string }[] {
    const texts = templatesOf(request);
    const found: { text: string; line: number; variable?: string }[] = texts.map((text) => ({
      text,
      line: request.requestLine.line,
    }));
    const named = new Set(
      texts.flatMap((t) => [...t.matchAll(/\{\{\s*([\w.-]+)\s*\}\}/g)].map((m) => m[1]!)),
    );
    for (const variable of this.fileVariables) {
      if (!named.has(variable.name) || this.definedAbove(variable.name)) continue;
      found.push({ text: variable.value, line: variable.span.line, variable: variable.name });
    }
    return found;
  }

  /**
   * An httpyac block after the response: what it throws is a failed test named by the error
   * (as httpyac records it), and the request's other blocks still run.
   */
  async httpyacHandler(
    script: Script & { kind: "inline" },
    request: HttpRequest,
    result: RequestResult,
    input: ScriptInput,
    scope: VariableScope,
    response: HttpyacResponse,
  ): Promise<void> {
    const { ScriptError } = await load.scriptSandbox();
    try {
      await this.httpyacBlock(script, request, result, input, scope, response);
    } catch (error) {
      if (!(error instanceof ScriptError) || this.options.send?.signal?.aborted) throw error;
      const message = error.message;
      result.tests.push({
        name: message.replace(/^.*?:\d+: /, ""),
        passed: false,
        error: true,
        message,
        durationMs: 0,
      });
    }
  }

  /**
   * The file's httpyac blocks outside requests: before the request (once per run, and the
   * `{{+` ones every time), or after its response (`{{+after`, `{{+response`).
   */
  async fileScripts(
    request: HttpRequest,
    result: RequestResult,
    scope: VariableScope,
    requestVariables: Map<string, string>,
    after?: { input: ScriptInput; response: () => Promise<HttpyacResponse> },
    onceOnly = false,
  ): Promise<boolean> {
    for (const script of this.file.scripts ?? []) {
      const { event, every } = script.httpyac;
      const late = event === "after" || event === "response";
      if (after ? !(every && late) : late || (!every && this.globalScriptsRan)) continue;
      if (onceOnly && every) continue;
      const input = after
        ? { ...after.input }
        : this.writtenInput(scope, requestVariables, request);
      if (after) {
        await this.httpyacHandler(script, request, result, input, scope, await after.response());
      } else await this.httpyacBlock(script, request, result, input, scope);
      if (result.skipped) return true;
    }
    if (!after) this.globalScriptsRan = true;
    return false;
  }

  /** Keeps the outcome: the result's status and timings, the named response for later requests. */
  record(
    request: HttpRequest,
    fileRequest: FileRequest,
    outcome: Outcome,
    result: RequestResult,
  ): void {
    result.status = outcome.status;
    if (outcome.timings) result.timings = outcome.timings;
    if (request.name !== undefined) {
      const source = {
        request: { headers: outcome.requestHeaders, body: fileRequest.bodyText },
        response: { headers: outcome.headers, body: outcome.body },
      };
      this.responses.set(request.name, source);
      this.exchangesOf.set(source, outcome);
    }
  }

  /**
   * Sends the request by its kind: a WebSocket's messages, a GraphQL subscription's results, a
   * gRPC call or an HTTP exchange; its `>>` outputs written.
   *
   * @returns the outcome
   */
  async transmit(
    request: HttpRequest,
    fileRequest: FileRequest,
    outputs: Awaited<ReturnType<typeof outputPaths>>,
    result: RequestResult,
    how: {
      dependency: boolean;
      signal?: AbortSignal;
      timeoutMs?: number;
      until?: Promise<unknown>;
    },
  ): Promise<Outcome> {
    const { dependency, signal, timeoutMs, until } = how;
    const base = this.options.send ?? {};
    const streams = {
      ...(base.transport ? { transport: base.transport } : {}),
      ...(signal ? { signal } : {}),
      ...(until ? { until } : {}),
      onMessage: (text: string) => this.options.onMessage?.(text, request),
    };
    if (fileRequest.kind === "websocket") {
      const messages = await runWebSocketRequest(fileRequest, streams);
      return await this.saved(outputs, streamOutcome(fileRequest, 101, messages));
    } else if (fileRequest.kind === "graphql" && isSubscription(fileRequest.graphql!.query)) {
      const results = await runGraphQLSubscription(fileRequest, streams);
      return await this.saved(outputs, streamOutcome(fileRequest, 101, results));
    } else if (fileRequest.kind === "grpc") {
      const grpc = await runGrpcFileRequest(fileRequest, {
        ...streams,
        ...(timeoutMs ? { timeoutMs } : {}),
        protos: [...this.file.protos ?? [], ...request.protos ?? []],
        where: { path: this.file.path, dir: this.dir, confinement: this.confinement! },
      });
      result.grpc = grpc.status;
      return await this.saved(outputs, grpc.outcome);
    } else {
      return await sendFileRequest(fileRequest, {
        send: this.options.send ?? {},
        ...(signal ? { signal } : {}),
        ...(fileRequest.noCookieJar ? {} : { cookies: this.cookies }),
        streams,
        dependency,
        ...(this.options.onExchange ? { onExchange: this.options.onExchange } : {}),
        ...(this.options.checkExchange ? { wholeBody: true } : {}),
        ...(outputs.length
          ? { outputs: () => Promise.all(outputs.map((o) => openOutput(o.path, o.overwrite))) }
          : {}),
      });
    }
  }

  async send(request: HttpRequest, result: RequestResult, dependency: boolean): Promise<void> {
    // Postman sends a {{name}} nothing defines as written; so does a # @postman request.
    const postman = request.directives.some((d) => d.name === "postman");
    // pm.variables.set values last for the run, as in Newman (JetBrains' request.variables, the
    // request only).
    const requestVariables = postman ? postmanLocals(this.globals) : new Map<string, string>();
    const scope = postman ? this.postmanScope(requestVariables) : this.scope(requestVariables);
    if (this.file.scripts && await this.fileScripts(request, result, scope, requestVariables)) {
      return;
    }
    // Each step below only when the request asks for it: an `await` costs every request a
    // promise and a turn of the microtask queue.
    if (request.directives.length && await this.disabled(request, scope)) {
      result.skipped = true;
      return;
    }
    if (request.directives.some((d) => d.name === "sleep")) await this.sleep(request, scope);
    if (request.preScripts.length) {
      request = await this.preScripts(request, result, scope, requestVariables);
      if (result.skipped) return;
    }
    // httpyac's named region without a request: its blocks ran, there is nothing to send.
    if (request.region) return;
    if (request.headerSpreads) request = await this.spreadHeaders(request, scope);
    if ((this.#httpyacSeen ??= httpyacSeen(this.file)).expressions) {
      request = eachOccurrence(request);
      await this.httpyacExpressions(request, scope, requestVariables);
    }
    const authTexts = this.authTexts(request);
    if (authTexts.length) await this.resolveAuth(authTexts);
    await this.httpyacOAuth2(request, scope);
    // References (`@exec:`, `@env:`, `@path`) are read now, the ones this request uses only.
    const where = {
      // What the pre-request scripts set with pm.variables counts (the overrides' layer).
      scope: postman ? this.withOverrides(scope, requestVariables) : scope,
      path: this.file.path,
      dir: this.dir,
      confinement: this.confinement!,
    };
    const fileRequest = await whenResolved(() =>
      buildFileRequest(this.withDefaultHeaders(request), where)
    );
    if (!dependency && this.options.take?.(fileRequest, where.scope)) return;
    if (/^https?:$/.test(fileRequest.spec.url.protocol)) {
      this.origins.add(fileRequest.spec.url.origin);
    }
    const outputs = request.outputs.length ? await outputPaths(request, where) : [];
    for (const handler of request.handlers) {
      if (handler.kind === "file") await this.scriptPath(handler);
    }
    const base = this.options.send ?? {};
    const timeoutMs = fileRequest.timeoutMs ?? this.options.timeoutMs;
    const signal = exchangeSignal(base.signal, timeoutMs);
    const sent = performance.now();
    const streamed = fileRequest.kind === "websocket" ||
      (fileRequest.kind === "graphql" && isSubscription(fileRequest.graphql!.query));
    // httpyac's {{@streaming blocks run while the response is read (an event stream ends when
    // they are done); what they throw fails the request once the response is in.
    const streaming = request.streaming
      ? this.streamingBlocks(request, result, scope, requestVariables)
      : undefined;
    const settled = streaming?.catch(() => {});
    let outcome: Outcome;
    try {
      outcome = await this.transmit(request, fileRequest, outputs, result, {
        dependency,
        ...(signal ? { signal } : {}),
        ...(timeoutMs ? { timeoutMs } : {}),
        ...(streaming ? { until: streaming } : {}),
      });
    } finally {
      // Not left running into the next request's scripts (they share the sandbox).
      await settled;
    }
    await streaming;
    const durationMs = performance.now() - sent;
    this.record(request, fileRequest, outcome, result);
    const readers = request.handlers.length + request.assertions.length;
    if (outcome.truncated && (readers > 0 || request.name !== undefined)) {
      await this.options.onNotice?.(
        `${this.file.path}:${request.requestLine.line}: The response body is over ${
          HANDLER_BODY_LIMIT / 1024 / 1024
        } MiB: handlers, assertions and request variables see its first ${
          HANDLER_BODY_LIMIT / 1024 / 1024
        } MiB`,
      );
    }
    await this.afterExchange(request, result, { scope, requestVariables, postman }, {
      fileRequest,
      outcome,
      durationMs,
      sent,
      streamed,
    });
  }

  /**
   * After the exchange: the request's handlers (JetBrains', Postman's, httpyac's blocks), the
   * exchange's checks, its `??` lines, then the file's httpyac blocks after every response.
   */
  async afterExchange(
    request: HttpRequest,
    result: RequestResult,
    variables: { scope: VariableScope; requestVariables: Map<string, string>; postman: boolean },
    exchange: {
      fileRequest: FileRequest;
      outcome: Outcome;
      durationMs: number;
      sent: number;
      streamed: boolean;
    },
  ): Promise<void> {
    const { scope, requestVariables, postman } = variables;
    const { fileRequest, outcome, durationMs, sent, streamed } = exchange;
    const late = request.handlers.length || this.file.scripts;
    const contentType = late || request.assertions.length
      ? outcome.headers.find(([n]) => n.toLowerCase() === "content-type")?.[1] ?? ""
      : "";
    const exchanged = late ? handlerExchange(fileRequest, outcome, contentType) : undefined;
    // httpyac's response, for its blocks after the request (made when the first asks).
    const httpyac = () =>
      this.httpyacResponse({
        fileRequest,
        outcome,
        // Read here when neither handlers nor assertions needed it (a `# @loop`'s pass).
        contentType: contentType ||
          (outcome.headers.find(([n]) => n.toLowerCase() === "content-type")?.[1] ?? ""),
        durationMs,
      });
    this.lastResponse = httpyac;
    if (request.name !== undefined) this.namedHttpyacResponses.set(request.name, httpyac);
    // The `??` lines first, then the handlers, as httpyac runs its assertions before its blocks
    // after the response (a `??` reads the variables as they were before the blocks ran).
    if (request.assertions.length) {
      const check = await this.assertions(request, scope, {
        fileRequest,
        outcome,
        contentType,
        durationMs,
      });
      for (const assertion of request.assertions) result.tests.push(await check(assertion));
    }
    for (const handler of request.handlers) {
      const input = this.scriptInput(scope, requestVariables, request, performance.now() - sent);
      input.request = exchanged!.request;
      input.response = exchanged!.response;
      if (handler.kind === "inline" && handler.httpyac) {
        await this.httpyacHandler(handler, request, result, input, scope, await httpyac());
        continue;
      }
      const output = await this.script(handler, request, result, input);
      if (postman) {
        for (const [name, value] of Object.entries(output.requestVariables)) {
          requestVariables.set(name, value);
        }
        if (output.typed) keepTypes(requestVariables, output.typed.local);
      }
      result.tests.push(...output.tests);
    }
    if (this.options.checkExchange && !streamed) {
      result.tests.push(
        ...await this.options.checkExchange({
          method: fileRequest.spec.method,
          url: outcome.url,
          requestHeaders: outcome.requestHeaders,
          requestBody: fileRequest.bodyText,
          status: outcome.status,
          headers: outcome.headers,
          body: outcome.body,
        }),
      );
    }
    if (this.file.scripts) {
      const input = { ...this.scriptInput(scope, requestVariables, request), ...exchanged! };
      await this.fileScripts(request, result, scope, requestVariables, {
        input,
        response: httpyac,
      });
    }
  }

  /** What a request's `??` lines read of its exchange. */
  asserted(
    sent: { outcome: Outcome; contentType: string; durationMs: number },
  ): AssertedResponse {
    const { outcome } = sent;
    return {
      status: outcome.status,
      headers: outcome.headers,
      body: outcome.body,
      mimeType: sent.contentType.split(";")[0]!.trim(),
      durationMs: sent.durationMs,
      ...(outcome.timings ? { timings: outcome.timings } : {}),
    };
  }

  /** httpyac's `response` of an exchange, as its scripts and `?? js` see it. */
  async httpyacResponse(
    sent: { fileRequest: FileRequest; outcome: Outcome; contentType: string; durationMs: number },
  ): Promise<HttpyacResponse> {
    const { httpyacResponse } = await load.assertions();
    return httpyacResponse(this.asserted(sent), sent);
  }

  /** @returns what evaluates one of the request's `??` lines (a test) against its exchange */
  async assertions(
    request: HttpRequest,
    scope: VariableScope,
    sent: { fileRequest: FileRequest; outcome: Outcome; contentType: string; durationMs: number },
  ): Promise<(assertion: Assertion) => Promise<TestOutcome>> {
    const response = this.asserted(sent);
    const { evaluateAssertion, httpyacResponse } = await load.assertions();
    const context: AssertionContext = {
      substitute: (text, assertion) =>
        substitute(text, scope, {
          what: "the assertion",
          path: this.file.path,
          line: assertion.span.line,
          column: 1,
        }).text,
      evaluate: (expression, assertion) =>
        this.evaluate(
          expression,
          assertion,
          httpyacResponse(response, sent),
          request,
          this.expressionVariables(expression, scope),
        ),
      xpathNamespaces: Object.fromEntries(
        (this.file.xpathNamespaces ?? []).map((n) => [n.prefix, n.uri]),
      ),
    };
    return (assertion) => evaluateAssertion(assertion, response, context);
  }

  /** The file's script sandbox, made at its first use. */
  async session(): Promise<ScriptSession> {
    if (this.scripts) return this.scripts;
    const postman = this.file.requests.some((r) => r.directives.some((d) => d.name === "postman"));
    const sendRequest = postman
      ? scriptSender({
        send: this.options.send ?? {},
        cookies: this.cookies,
        ...(this.options.timeoutMs ? { timeoutMs: this.options.timeoutMs } : {}),
        allowed: (origin) => this.origins.has(origin),
      })
      : undefined;
    const kept = this.options.scriptSessions?.take(this.file.path);
    if (kept) {
      kept.answerSendsWith(sendRequest);
      return this.scripts = kept;
    }
    const { ScriptSession } = await load.scriptSandbox();
    const signal = this.options.send?.signal;
    this.scripts = new ScriptSession({
      ...this.options.scriptLimits,
      ...(signal ? { signal } : {}),
      postman,
      ...(sendRequest ? { sendRequest } : {}),
    });
    // The inline scripts of the requests that run, compiled together a batch at a time.
    this.scripts.expect(
      this.selection().flatMap((r) => [...r.preScripts, ...r.handlers]).flatMap((script) =>
        script.kind === "inline" ? [this.inlineSource(script)] : []
      ),
    );
    return this.scripts;
  }

  /** The origin of a request whose pre-request script may send to it (its URL as known now). */
  noteOrigin(request: HttpRequest, scope: VariableScope): void {
    try {
      const { text } = substitute(request.url, scope, {
        what: "the URL",
        path: this.file.path,
        line: request.requestLine.line,
        column: 1,
      });
      const url = new URL(text);
      if (/^https?:$/.test(url.protocol)) this.origins.add(url.origin);
    } catch {
      // Not known before the script runs (a variable it sets, a reference not read yet).
    }
  }

  /** Evaluates an assertion's JavaScript in the sandbox, with httpyac's `response` in scope. */
  async evaluate(
    expression: string,
    assertion: Assertion,
    response: HttpyacResponse,
    request: HttpRequest,
    variables: Map<string, unknown> = new Map(),
  ): Promise<unknown> {
    const did = await this.evaluateHttpyac(
      expression,
      assertion.span.line,
      request,
      variables,
      response,
    );
    if (!did.text) return did.value;
    // An object JSON cannot write (a DOM node of parsedBody): an object, shown by its text.
    const { ObjectText } = await load.assertions();
    return new ObjectText(String(did.value));
  }

  /**
   * Evaluates httpyac's JavaScript expression in the file's sandbox: the variables it names and
   * httpyac's `response` in scope, the body the script's input (the code is the same for every
   * response: compiled once per file), parsedBody JSON.parse'd in the sandbox when asked.
   *
   * @param line the file's line of the expression (its errors name it)
   */
  async evaluateHttpyac(
    expression: string,
    line: number,
    request: HttpRequest,
    variables: Map<string, unknown>,
    response?: HttpyacResponse,
  ): Promise<{ value?: unknown; values?: unknown[]; text?: boolean }> {
    const { body = "", ...meta } = response ?? {};
    if (response?.markup || [...variables.values()].some(isMarkupVariable)) {
      await (await load.scriptSandbox()).offerLibrary("xmldom");
    }
    const input = this.scriptInput(this.scope(new Map()), new Map(), request);
    input.request = { method: "", url: "", headers: [], body: "" };
    input.requestVariables = {
      [HTTPYAC_CHANNEL]: JSON.stringify({
        ...(response ? { response: meta } : {}),
        values: [...variables.values()],
      }),
    };
    if (response) {
      input.response = { status: response.status, headers: [], body, mimeType: "", charset: "" };
    }
    const output = await (await this.session()).run(
      {
        code: httpyacExpressionCode(expression, [...variables.keys()]),
        file: this.file.path,
        line: Math.max(1, line - 1),
        column: 1,
      },
      input,
    );
    const json = output.requestVariables[HTTPYAC_CHANNEL];
    const did = json === undefined
      ? {}
      : JSON.parse(json) as { value?: unknown; values?: unknown[]; text?: boolean };
    // What the expression changed in an exported object (`{{counter.index++}}`), as in httpyac,
    // whose variables are the objects themselves.
    [...variables.keys()].forEach((name, i) => this.keepChanged(name, did.values?.[i]));
    return did;
  }

  /**
   * What httpyac's JavaScript changed in an exported object (`{{counter.index++}}`, a block's
   * `$global.token = …`), kept as httpyac keeps it, whose variables are the objects themselves.
   */
  keepChanged(name: string, now: unknown): void {
    const kept = this.exported.get(name);
    if (kept && typeof kept.value === "object" && JSON.stringify(now) !== kept.text) {
      if (this.globals.get(name) === kept.text) this.keepExport(name, now);
    }
  }

  /** A stream's messages written to the request's `>>` files. */
  async saved(
    outputs: { path: string; overwrite: boolean }[],
    outcome: Outcome,
  ): Promise<Outcome> {
    for (const output of outputs) {
      const file = await openOutput(output.path, output.overwrite);
      try {
        await file.write(new TextEncoder().encode(outcome.body));
      } finally {
        await file.close();
      }
    }
    return outcome;
  }

  /** The request with kulala's default headers it does not write itself. */
  withDefaultHeaders(request: HttpRequest): HttpRequest {
    const defaults = this.options.environment?.defaultHeaders;
    if (!defaults?.size) return request;
    const written = new Set(request.headers.map((h) => h.name.toLowerCase()));
    const added = [...defaults].filter(([key]) => !written.has(key)).map(([, h]) => ({
      ...h,
      span: request.requestLine,
    }));
    return added.length ? { ...request, headers: [...request.headers, ...added] } : request;
  }

  /**
   * @param requestVariables the request's variables (JetBrains' `request.variables`)
   * @param locals Postman's local variables, in a `# @postman` request
   * @returns where the request's `{{name}}`s look
   */
  scope(
    requestVariables: Map<string, string>,
    locals?: ReadonlyMap<string, string>,
  ): VariableScope {
    return this.withOverrides({
      ...(this.options.environment ? { environment: this.options.environment.variables } : {}),
      globals: this.globals,
      file: this.fileVariables,
      request: requestVariables,
      ...(this.options.environment ? { shared: this.options.environment.shared } : {}),
      ...(this.dotenv ? { dotenv: this.dotenv } : {}),
      ...(this.dotenvDefaults?.size ? { dotenvDefaults: this.dotenvDefaults } : {}),
      env: this.options.env ?? processEnv,
      responses: this.responseOf,
      auth: this.authValues,
    }, locals);
  }

  /**
   * The variables an assertion's JavaScript names, as httpyac puts them in its scope: a defined
   * variable's value (read only when named), or a named request's parsed body.
   */
  expressionVariables(expression: string, scope: VariableScope): Map<string, unknown> {
    const found = new Map<string, unknown>();
    for (const [name] of expression.matchAll(/(?<![.\w$])[A-Za-z_$][\w$]*/g)) {
      if (name === "response" || found.has(name) || RESERVED.has(name)) continue;
      if (name === "$global") {
        found.set(name, this.globalObject());
        continue;
      }
      let value: string | undefined;
      try {
        value = lookupVariable(name, scope);
      } catch {
        // A credential reference not read yet, a malformed value: not in the expression's scope.
      }
      if (value !== undefined) {
        found.set(name, value);
        continue;
      }
      const named = this.responseOf(name);
      if (!named) continue;
      const document = this.namedDocument(named);
      if (document) {
        found.set(name, document);
        continue;
      }
      try {
        found.set(name, JSON.parse(named.response.body));
      } catch {
        found.set(name, named.response.body);
      }
    }
    return found;
  }

  /**
   * httpyac's NAME of a named request whose body is XML or HTML is its parsedBody, the DOM
   * document: what the sandbox makes it of (the prelude's httpyacVariable and httpyacValue).
   *
   * @returns the body and how to parse it, or undefined when NAME is not such a response
   */
  namedDocument(
    named: RequestVariableSource,
  ): { __dialDocument: { type: string; exchange: number }; body: string } | undefined {
    const outcome = this.exchangesOf.get(named);
    const contentType = named.response.headers.find(([n]) => n.toLowerCase() === "content-type");
    const type = contentType && markupType(contentType[1].split(";")[0]!.trim());
    if (!outcome || !type || !named.response.body) return undefined;
    return {
      __dialDocument: { type, exchange: exchangeNumber(outcome) },
      body: named.response.body,
    };
  }

  /** A named request's result (the scopes' `responses`). */
  readonly responseOf = (name: string): RequestVariableSource | undefined =>
    this.responses.get(name) ?? this.exportedObject(name);

  /** What an httpyac block exported as an object, read by `{{name.path}}` as httpyac reads it. */
  exportedObject(name: string): RequestVariableSource | undefined {
    const kept = this.exported.get(name);
    if (!kept || typeof kept.value !== "object" || this.globals.get(name) !== kept.text) return;
    return { request: { headers: [], body: "" }, response: { headers: [], body: kept.text } };
  }

  /**
   * @param locals Postman's local variables
   * @returns a `# @postman` request's scope, in Newman's order: local > data > environment >
   *   collection > global (a `{{name}}` nothing defines stays as written)
   */
  postmanScope(locals: Map<string, string>): VariableScope {
    const environment = this.options.environment;
    const globals = postmanGlobals(this.globals, environment);
    return {
      ...postmanScope(this.scope(locals, locals), environment, globals),
      undefinedAsWritten: true,
    };
  }

  /**
   * @param scope a request's scope
   * @param locals Postman's local variables, in a `# @postman` request
   * @returns the scope with its overrides, highest last: `run` line values, the data row,
   *   Postman's local variables (as in Newman, above the row), `--var`; the row's null values
   *   as names without a value
   */
  withOverrides(scope: VariableScope, locals?: ReadonlyMap<string, string>): VariableScope {
    const layers: ReadonlyMap<string, VariableValue>[] = [];
    for (
      const layer of [
        this.runVariables,
        this.options.iteration?.variables,
        locals,
        this.options.overrides,
      ]
    ) {
      if (layer?.size) layers.push(layer);
    }
    // A row's null: no value, whatever the layers below it hold (Newman sends `{{name}}`).
    const data = this.options.iteration?.data;
    const unset = data &&
      new Set(
        Object.entries(data).flatMap(([name, value]) =>
          value === null && !locals?.has(name) && !this.options.overrides?.has(name) ? [name] : []
        ),
      );
    // Most requests have no layer above the file's: their scope as it is.
    if (!layers.length && !unset?.size && scope.overrides === undefined) return scope;
    const { overrides: _, ...rest } = scope;
    if (unset?.size) rest.unset = unset;
    if (!layers.length) return rest;
    return {
      ...rest,
      overrides: layers.length > 1 ? new Map(layers.flatMap((m) => [...m])) : layers[0]!,
    };
  }

  /** The file's variables as scripts read them (`client.variables.file`), made once. */
  #fileVariables?: Record<string, string>;

  scriptInput(
    scope: VariableScope,
    requestVariables: Map<string, string>,
    request: HttpRequest,
    responseTime?: number,
  ): ScriptInput {
    // A reference not read yet is offered only to a script that names it (see script()).
    const environment: Record<string, string> = {};
    for (const [name, value] of scope.environment ?? []) {
      if (!isUnresolved(value)) environment[name] = reveal(value);
    }
    const file = this.#fileVariables ??= Object.fromEntries(
      this.file.variables.map((v) => [v.name, v.value]),
    );
    const postman = request.directives.some((d) => d.name === "postman");
    const name = this.options.environment?.name;
    const iteration = this.options.iteration;
    return {
      globals: Object.fromEntries(this.globals),
      requestVariables: Object.fromEntries(requestVariables),
      environment,
      file,
      ...(postman
        ? {
          postman: {
            requestName: labelOf(request),
            requestId: `${this.file.path}#${request.index}`,
            ...(name !== undefined ? { environmentName: name } : {}),
            ...(iteration
              ? {
                iteration: iteration.index,
                iterationCount: iteration.count,
                ...(iteration.data ? { iterationData: { ...iteration.data } } : {}),
              }
              : {}),
            ...(responseTime !== undefined ? { responseTime: Math.round(responseTime) } : {}),
            globals: this.postmanGlobalsInput(),
            typed: {
              globals: typedValues(this.globals),
              environment: typedValues(this.options.environment?.variables ?? this.globals),
              local: typedValues(requestVariables),
              postmanGlobals: typedValues(postmanGlobals(this.globals, this.options.environment)),
            },
          },
        }
        : {}),
    };
  }

  async script(
    script: Script,
    request: HttpRequest,
    result: RequestResult,
    input: ScriptInput,
  ): Promise<ScriptOutput> {
    const { ScriptError } = await load.scriptSandbox();
    let source;
    if (script.kind === "inline") {
      source = this.inlineSource(script);
    } else {
      const path = await this.scriptPath(script);
      let code: string;
      try {
        code = await Deno.readTextFile(path);
      } catch {
        throw new UsageError(
          `${this.file.path}:${script.span.line}:1: Cannot read the script file "${path}"`,
        );
      }
      source = { code, file: path, line: 1, column: 1 };
    }
    // The environment's references the script names are read for it.
    for (const [name, value] of this.options.environment?.variables ?? []) {
      const named = [`"${name}"`, `'${name}'`, `\`${name}\``].some((q) => source.code.includes(q));
      if (isUnresolved(value) && named) {
        input.environment[name] = await value.resolve();
      }
    }
    let output: ScriptOutput;
    try {
      output = await (await this.session()).run(source, input);
    } catch (error) {
      if (error instanceof ScriptError) {
        result.tests.push(...error.tests);
        (result.logs ??= []).push(...error.logs);
        for (const line of error.logs) await this.options.onLog?.(line, request);
        // A Postman script's variables set before it threw stay set, as in Newman.
        if (error.variables && input.postman) this.keepVariables(error.variables);
      }
      throw error;
    }
    this.keepVariables(output);
    if (output.nextRequest !== undefined) this.next = output.nextRequest;
    (result.logs ??= []).push(...output.logs);
    for (const line of output.logs) await this.options.onLog?.(line, request);
    return output;
  }

  /** Where an inline script of the file is, as the sandbox takes it. */
  inlineSource(script: Script & { kind: "inline" }): ScriptSource {
    return {
      code: script.httpyac ? httpyacBlockCode(script.code) : script.code,
      file: this.file.path,
      line: script.codeLine,
      column: script.codeColumn,
    };
  }

  /** Postman's globals as a script sees them (references not read yet left out). */
  postmanGlobalsInput(): Record<string, string> {
    const values: Record<string, string> = {};
    for (const [name, value] of postmanGlobals(this.globals, this.options.environment)) {
      if (!isUnresolved(value)) values[name] = reveal(value);
    }
    return values;
  }

  /** Keeps the globals and environment values a script set, for the rest of the run. */
  keepVariables(
    output: Pick<ScriptOutput, "globals" | "environment" | "postmanGlobals" | "typed">,
  ): void {
    for (const [name, value] of Object.entries(output.globals)) {
      if (value === null) this.globals.delete(name);
      else this.globals.set(name, value);
    }
    // pm.environment.set: the environment's value for the rest of the run (or a global when no
    // environment was chosen).
    const variables = this.options.environment?.variables ?? this.globals;
    for (const [name, value] of Object.entries(output.environment ?? {})) {
      if (value === null) variables.delete(name);
      else variables.set(name, value);
    }
    const pmGlobals = output.postmanGlobals &&
      postmanGlobals(this.globals, this.options.environment);
    for (const [name, value] of Object.entries(output.postmanGlobals ?? {})) {
      if (value === null) pmGlobals!.delete(name);
      else pmGlobals!.set(name, value);
    }
    if (output.typed) {
      keepTypes(this.globals, output.typed.globals);
      keepTypes(variables, output.typed.environment);
      if (pmGlobals) keepTypes(pmGlobals, output.typed.postmanGlobals ?? {});
    }
  }

  /** A script file's real path (trust_rule.ts: a `.js` file inside the run's folders). */
  scriptPath(script: Script & { kind: "file" }): Promise<string> {
    return scriptFile(script.path, {
      path: this.file.path,
      dir: this.dir,
      line: script.span.line,
      confinement: this.confinement!,
    });
  }

  /** The request's texts that may name `{{$auth.token(…)}}`: most requests have none. */
  authTexts(request: HttpRequest): string[] {
    const texts: string[] = [];
    const add = (text: string) => text.includes("$auth") && texts.push(text);
    add(request.url);
    for (const header of request.headers) add(header.value);
    // File variables come from the file's text: most files name no `$auth` at all.
    this.#namesAuth ??= this.file.source.includes("$auth");
    for (const v of this.#namesAuth ? this.file.variables : []) add(v.value);
    return texts;
  }

  /** Whether the file's text names `$auth` (read once: a file of 1,000 requests is long). */
  #namesAuth?: boolean;

  /** Obtains the tokens `{{$auth.token("id")}}` in these texts name, once per run. */
  async resolveAuth(texts: string[]): Promise<void> {
    for (const text of texts) {
      for (
        const match of text.matchAll(/\{\{\s*\$auth\.(token|idToken)\(\s*"([^"]*)"\s*\)\s*\}\}/g)
      ) {
        const key = `${match[1]}:${match[2]}`;
        if (this.authValues.has(key)) continue;
        const kind = match[1] as "token" | "idToken";
        const token = this.options.authToken
          ? await this.options.authToken(match[2]!, kind)
          : await whenResolved(() => this.securityAuthToken(match[2]!, kind));
        this.authValues.set(key, token);
        this.options.onSecret?.(reveal(token));
      }
    }
  }

  /**
   * The tokens of httpyac's `Authorization: oauth2 FLOW [PREFIX]` headers of the request (from
   * the `PREFIX_…` variables), once per run, by the same OAuth 2.0 step as `Security.Auth`.
   */
  async httpyacOAuth2(request: HttpRequest, scope: VariableScope): Promise<void> {
    for (const header of request.headers) {
      if (!/^\s*(?:openid|oauth2)\b/i.test(header.value)) continue;
      if (header.name.toLowerCase() !== "authorization") continue;
      const at = { what: "the Authorization header", path: this.file.path, line: 1, column: 1 };
      const text = substitute(header.value, scope, { ...at, line: header.span.line }).text;
      const key = httpyacOAuth2Key(text);
      if (!isHttpyacOAuth2(text) || this.authValues.has(key)) continue;
      const { httpyacOAuth2Token } = await load.securityAuth();
      const token = await whenResolved(() =>
        httpyacOAuth2Token(text, (name) => this.defines(name, scope), {
          scope,
          path: `${this.file.path}:${header.span.line}`,
          hooks: this.options.oauth2 ?? {},
          ...(this.options.send ? { send: this.options.send } : {}),
        })
      );
      this.authValues.set(key, token);
      this.options.onSecret?.(reveal(token));
    }
  }

  /** A token of the environment's `Security.Auth` configuration, by dial's OAuth 2.0 step. */
  async securityAuthToken(id: string, kind: "token" | "idToken"): Promise<VariableValue> {
    const { securityAuthToken } = await load.securityAuth();
    return await securityAuthToken(this.options.environment, id, kind, {
      scope: this.scope(new Map()),
      path: this.file.path,
      hooks: this.options.oauth2 ?? {},
      ...(this.options.send ? { send: this.options.send } : {}),
    });
  }
}

/** What each handler of a request sees of its exchange (the same for all of them). */
/**
 * @param response httpyac's response as dial's scripts get it (the body's text, `json` saying
 *   whether to parse it)
 * @returns it as httpyac keeps it in a variable: `parsedBody` parsed, no `json` flag
 */
/** @returns whether an httpyac variable's value is made a DOM document in the sandbox */
function isMarkupVariable(value: unknown): boolean {
  return typeof value === "object" && value !== null &&
    ("__dialMarkup" in value || "__dialDocument" in value);
}

function plainResponse(response: HttpyacResponse): Record<string, unknown> {
  const { json, markup, ...rest } = response;
  // Its parsedBody made in the sandbox when a block reads it (httpyac_script.ts).
  if (markup) return { ...rest, __dialMarkup: markup };
  if (!json) return rest;
  try {
    return { ...rest, parsedBody: JSON.parse(response.body) };
  } catch {
    return rest;
  }
}

function handlerExchange(
  fileRequest: FileRequest,
  outcome: Outcome,
  contentType: string,
): Required<Pick<ScriptInput, "request" | "response">> {
  return {
    request: {
      method: fileRequest.spec.method,
      url: outcome.url,
      headers: outcome.requestHeaders,
      body: fileRequest.bodyText,
    },
    response: {
      status: outcome.status,
      headers: outcome.headers,
      body: outcome.body,
      mimeType: contentType.split(";")[0]!.trim(),
      charset: /charset=([^;]+)/i.exec(contentType)?.[1]?.trim() ?? "utf-8",
    },
  };
}

/**
 * The request with a Postman pre-request script's header changes (added headers point at the
 * request line in messages).
 */
/**
 * What an httpyac block before the request did to `request.headers` (an object by name, as
 * httpyac's request has them): a changed or new header upserted, a deleted one removed.
 */
function headerChanges(
  before: [string, string][],
  after: Record<string, unknown> | undefined,
): NonNullable<ScriptOutput["headerEdits"]> {
  if (!after || typeof after !== "object") return [];
  const was = new Map(before);
  const edits: NonNullable<ScriptOutput["headerEdits"]> = [];
  for (const [name, value] of Object.entries(after)) {
    const text = typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
    if (was.get(name) !== text) edits.push(["upsert", name, text]);
  }
  for (const [name] of was) if (!Object.hasOwn(after, name)) edits.push(["remove", name, ""]);
  return edits;
}

function editHeaders(
  request: HttpRequest,
  edits: NonNullable<ScriptOutput["headerEdits"]>,
): HttpRequest {
  let headers = [...request.headers];
  for (const [what, name, value] of edits) {
    if (what !== "add") {
      headers = headers.filter((h) => h.name.toLowerCase() !== name.toLowerCase());
    }
    if (what !== "remove") headers.push({ name, value, span: request.requestLine });
  }
  return { ...request, headers };
}

export { labelOf };

/** A request by its name, else by its label (`GET https://…`), as `run #name` names one. */
function findRequest(file: HttpFile, name: string): HttpRequest | undefined {
  return file.requests.find((r) => r.name === name) ??
    file.requests.find((r) => labelOf(r) === name);
}

/** Whether a request answers to a Postman script's `setNextRequest` name. */
function named(request: HttpRequest, name: string): boolean {
  return request.name === name || labelOf(request) === name;
}

/**
 * @param file a parsed request file
 * @param name a Postman script's `setNextRequest` name
 * @returns whether the file has a request of that name
 */
export function hasRequestNamed(file: HttpFile, name: string): boolean {
  return file.requests.some((r) => named(r, name));
}

/** httpyac's `{{$input …}}` (and `$prompt`, `$password`, `$pick`), at a request. */
interface HttpyacInput {
  /** The text between the braces, trimmed: its answer's key in the scope's overrides. */
  expression: string;
  /** The line it is asked for (its file variable's, else the request line's). */
  line: number;
  /** The file variable that holds it, if one does. */
  variable?: string;
}

/**
 * Whether a file may hold httpyac's JavaScript in `{{…}}` (a call, an operator or a quote; a
 * path in a variable only in a file with httpyac's script blocks) or its `{{$input …}}`-like
 * prompts: when not, the runner looks no further (a chain of 1,000 requests pays one pass).
 */
/**
 * httpyac evaluates each `{{expression}}` of a request where it is: a repeated one gets a key of
 * its own (a comment after it), so that `{{Math.random()}}` twice is two values, as in httpyac.
 *
 * @param request the request as written
 * @returns it, each repeated JavaScript expression of its URL, headers and body marked
 */
function eachOccurrence(request: HttpRequest): HttpRequest {
  const seen = new Map<string, number>();
  let changed = false;
  const each = (text: string) =>
    text.replace(/\{\{\s*([^{}]*?)\s*\}\}/g, (whole, expression: string) => {
      if (!isJavaScriptExpression(expression)) return whole;
      const n = (seen.get(expression) ?? 0) + 1;
      seen.set(expression, n);
      if (n === 1) return whole;
      changed = true;
      return `{{${expression}/*${n}*/}}`;
    });
  const url = each(request.url);
  const headers = request.headers.map((h) => ({ ...h, value: each(h.value) }));
  const body = request.body.map((part) =>
    part.kind === "text" ? { ...part, text: each(part.text) } : part
  );
  return changed ? { ...request, url, headers, body } : request;
}

function httpyacSeen(file: HttpFile): { expressions: boolean; inputs: boolean } {
  const blocks = !!file.scripts ||
    file.requests.some((r) =>
      [...r.preScripts, ...r.handlers].some((s) => s.kind === "inline" && s.httpyac)
    );
  return {
    expressions: blocks ||
      /\{\{\s*(?:[^$%\s{}][^{}]*[()+*?'"`!=<>&|][^{}]*|\$(?:global\b|xpath:)[^{}]*)\}\}/.test(
        file.source,
      ),
    inputs: /\{\{\s*\$(?:input|prompt|password|pick)/.test(file.source),
  };
}
const HTTPYAC_INPUT = /\{\{\s*(\$(?:input|prompt|password|pick)(?:-askonce)?\s[^{}]*?)\}\}/g;

/** Words an assertion's JavaScript may hold that are never a file's variables. */
const RESERVED: ReadonlySet<string> = new Set([
  "true",
  "false",
  "null",
  "undefined",
  "typeof",
  "instanceof",
  "new",
  "in",
  "of",
  "void",
  "this",
  "function",
  "return",
  "JSON",
  "Math",
  "Object",
  "Array",
  "String",
  "Number",
  "Boolean",
  "Date",
  "RegExp",
]);
