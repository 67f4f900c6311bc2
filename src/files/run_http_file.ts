/**
 * Running a request file: requests in order (or the ones named), each one's pre-request
 * scripts, variables, send (dial's one `send`), response handlers and tests; named requests
 * that another request refers to (`{{login.response.body.$.token}}`) run first when they have
 * not run yet. Nothing here prints: the caller is told of each exchange, log line and test.
 * @module
 */
import { processEnv } from "../env.ts";
import { DialError, ErrorCode, UsageError } from "../errors/mod.ts";
import { CookieJar } from "../http/cookies.ts";
import { reveal } from "../secret.ts";
import type { Exchange, SendOptions } from "../http/send.ts";
import type { Environment } from "./environment.ts";
import { buildFileRequest, type FileRequest } from "./file_request.ts";
import type { HttpFile, HttpRequest, Script } from "./http_file_types.ts";
import type { RequestVariableSource } from "./request_variables.ts";
import type { ScriptInput, ScriptOutput, TestOutcome } from "./script_api.ts";
import type { SandboxLimits, ScriptSession } from "./script_sandbox.ts";
import { isSubscription, runGraphQLSubscription, runWebSocketRequest } from "./run_streams.ts";
import type { VariableScope, VariableValue } from "./substitute.ts";
import { sendFileRequest } from "./file_exchange.ts";
import type { OAuth2Hooks } from "./security_auth.ts";
import {
  labelOf,
  type Outcome,
  outputPaths,
  readDotenv,
  requestDependencies,
  saveOutput,
  selectRequests,
  streamOutcome,
} from "./_run_parts.ts";
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
}

/**
 * What the caller is shown of one exchange. Its response's body is the bytes read when a
 * handler, a request variable or a `>>` file needs them; otherwise the live stream, which the
 * caller reads (or cancels) before the run goes on.
 */
export interface ExchangeEvent {
  /** The request as built. */
  fileRequest: FileRequest;
  /** The exchange, its response ready to print. */
  exchange: Exchange;
  /** The whole response body when it was read (empty when it streams). */
  body: Uint8Array<ArrayBuffer>;
  /** Whether it ran only because a selected request refers to it. */
  dependency: boolean;
  /** An event stream: the response has no body here; its events go to `onMessage`. */
  streamed: boolean;
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
  /** The cookie jar of the run (default: a new one; `# @no-cookie-jar` skips it). */
  cookies?: CookieJar;
  /** Script time and memory limits. */
  scriptLimits?: SandboxLimits;
  /**
   * The folders the file's includes, outputs and script files must resolve inside (the run's
   * root and `--allow-path`); default: the file's own folder.
   */
  confinement?: Confinement;
  /** Record a failed request and go on (`dial test`), instead of throwing (`dial run`). */
  keepGoing?: boolean;
  /** Stop after the first failed test or request. */
  failFast?: boolean;
  /** Only requests whose label matches (`dial test --filter`). */
  filter?: RegExp;
  /** The face's OAuth 2.0 hooks (browser, notices) for `Security.Auth` logins. */
  oauth2?: OAuth2Hooks;
  /**
   * Tokens for `{{$auth.token("id")}}` / `{{$auth.idToken("id")}}`. Default: the environment's
   * `Security.Auth` configuration through dial's OAuth 2.0 flows and token cache.
   */
  authToken?: (id: string, kind: "token" | "idToken") => Promise<VariableValue>;
  /** Told of each exchange, with the body read. */
  onExchange?: (event: ExchangeEvent) => void | Promise<void>;
  /** Told of each message of a WebSocket, subscription or event stream, as it arrives. */
  onMessage?: (text: string, request: HttpRequest) => void | Promise<void>;
  /** Told of each `client.log` line. */
  onLog?: (text: string, request: HttpRequest) => void | Promise<void>;
  /** Told of each finished request. */
  onResult?: (result: RequestResult) => void | Promise<void>;
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

/** How many times `postman.setNextRequest` may jump in one file's run. */
const MAX_JUMPS = 10_000;

class FileRunner {
  readonly globals: Map<string, string>;
  readonly responses: Map<string, RequestVariableSource>;
  readonly ran = new Set<HttpRequest>();
  readonly results: RequestResult[] = [];
  readonly cookies: CookieJar;
  readonly dir: string;
  readonly authValues = new Map<string, VariableValue>();
  /** Names of requests that could not run: the ones that refer to them are not sent. */
  readonly failed = new Map<string, DialError>();
  stopped = false;
  /** The file's scripts' sandbox, made at its first script: nothing of it reaches other files. */
  scripts?: ScriptSession;
  /** The request a Postman script chose with `postman.setNextRequest` (null: stop). */
  next: string | null | undefined = undefined;

  constructor(readonly file: HttpFile, readonly options: RunHttpFileOptions) {
    this.globals = options.globals ?? new Map();
    this.responses = options.responses ?? new Map();
    this.cookies = options.cookies ?? new CookieJar();
    const slash = file.path.lastIndexOf("/");
    this.dir = slash < 0 ? "." : file.path.slice(0, slash) || "/";
  }

  dotenv?: Map<string, string>;
  confinement?: Confinement;

  async run(): Promise<RequestResult[]> {
    this.confinement = this.options.confinement ?? await Confinement.of(this.dir);
    // A file that reaches outside the run's folders sends nothing at all.
    await checkFilePaths(this.file, this.confinement);
    if (this.file.source.includes("$dotenv")) {
      // A `.env` that links out of the run's folders (to ~/.aws/credentials) is not read.
      const path = await this.confinement.reading(`${this.dir}/.env`, {
        what: `the .env file of ${this.file.path}`,
        written: ".env",
      });
      this.dotenv = await readDotenv(path);
    }
    try {
      const selection = this.selection();
      let jumps = 0;
      for (let index = 0; index < selection.length; index++) {
        const request = selection[index]!;
        if (this.stopped) break;
        if (this.ran.has(request)) continue;
        await this.runOne(request, []);
        // Postman's postman.setNextRequest(name): null ends the file, a name jumps to it.
        const next = this.next;
        this.next = undefined;
        if (next === null) break;
        if (next === undefined) continue;
        const target = selection.findIndex((r) => r.name === next || labelOf(r) === next);
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
    } finally {
      this.scripts?.dispose();
    }
    return this.results;
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
    for (const name of names) {
      const dependency = this.file.requests.find((r) => r.name === name);
      if (
        dependency && dependency !== request && !this.ran.has(dependency) &&
        !this.responses.has(name)
      ) {
        await this.runOne(dependency, [...chain, request]);
        if (this.stopped) return;
      }
    }
    this.ran.add(request);
    const started = performance.now();
    const result: RequestResult = { request, label: labelOf(request), durationMs: 0, tests: [] };
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
      await this.execute(request, result, chain.length > 0);
    } catch (error) {
      if (!(error instanceof DialError) || !this.options.keepGoing) throw error;
      result.error = error;
    }
    result.durationMs = performance.now() - started;
    if (result.error && request.name !== undefined) this.failed.set(request.name, result.error);
    this.results.push(result);
    await this.options.onResult?.(result);
    const failed = result.error !== undefined || result.tests.some((t) => !t.passed);
    if (failed && this.options.failFast) this.stopped = true;
  }

  async execute(request: HttpRequest, result: RequestResult, dependency: boolean): Promise<void> {
    const requestVariables = new Map<string, string>();
    const scope = this.scope(requestVariables);
    const postman = request.directives.some((d) => d.name === "postman");
    for (const script of request.preScripts) {
      let output: ScriptOutput;
      try {
        output = await this.script(script, request, result, {
          ...this.scriptInput(scope, requestVariables, request),
          request: {
            method: request.method,
            url: request.url,
            headers: request.headers.map((h) => [h.name, h.value]),
            body: request.body.map((p) => (p.kind === "text" ? p.text : `< ${p.path}`)).join("\n"),
          },
        });
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
      result.tests.push(...output.tests);
      if (output.skipRequest) result.skipped = true;
      if (output.headerEdits?.length) request = editHeaders(request, output.headerEdits);
    }
    if (result.skipped) return;
    await this.resolveAuth(request);
    // References (`@exec:`, `@env:`, `@path`) are read now, the ones this request uses only.
    const where = {
      scope,
      path: this.file.path,
      dir: this.dir,
      confinement: this.confinement!,
    };
    const fileRequest = await whenResolved(() => buildFileRequest(request, where));
    const outputs = await outputPaths(request, where);
    for (const handler of request.handlers) {
      if (handler.kind === "file") await this.scriptPath(handler);
    }
    const base = this.options.send ?? {};
    const timeoutMs = fileRequest.timeoutMs ?? this.options.timeoutMs;
    const signals = [base.signal, timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined]
      .filter((s) => s !== undefined);
    const signal = signals.length ? AbortSignal.any(signals) : undefined;
    const streams = {
      ...(base.transport ? { transport: base.transport } : {}),
      ...(signal ? { signal } : {}),
      onMessage: (text: string) => this.options.onMessage?.(text, request),
    };
    let outcome: Outcome;
    const sent = performance.now();
    if (fileRequest.kind === "websocket") {
      const messages = await runWebSocketRequest(fileRequest, streams);
      outcome = streamOutcome(fileRequest, 101, messages);
    } else if (fileRequest.kind === "graphql" && isSubscription(fileRequest.graphql!.query)) {
      const results = await runGraphQLSubscription(fileRequest, streams);
      outcome = streamOutcome(fileRequest, 101, results);
    } else {
      outcome = await sendFileRequest(fileRequest, {
        send: this.options.send ?? {},
        ...(signal ? { signal } : {}),
        ...(fileRequest.noCookieJar ? {} : { cookies: this.cookies }),
        streams,
        dependency,
        ...(this.options.onExchange ? { onExchange: this.options.onExchange } : {}),
      });
    }
    result.status = outcome.status;
    for (const output of outputs) await saveOutput(output.path, output.overwrite, outcome.bytes);
    if (request.name !== undefined) {
      this.responses.set(request.name, {
        request: { headers: outcome.requestHeaders, body: fileRequest.bodyText },
        response: { headers: outcome.headers, body: outcome.body },
      });
    }
    const contentType = outcome.headers.find(([n]) => n.toLowerCase() === "content-type")?.[1] ??
      "";
    for (const handler of request.handlers) {
      const output = await this.script(handler, request, result, {
        ...this.scriptInput(scope, requestVariables, request, performance.now() - sent),
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
      });
      result.tests.push(...output.tests);
    }
  }

  scope(requestVariables: Map<string, string>): VariableScope {
    return {
      ...(this.options.overrides ? { overrides: this.options.overrides } : {}),
      ...(this.options.environment ? { environment: this.options.environment.variables } : {}),
      globals: this.globals,
      file: this.file.variables,
      request: requestVariables,
      ...(this.options.environment ? { shared: this.options.environment.shared } : {}),
      ...(this.dotenv ? { dotenv: this.dotenv } : {}),
      env: this.options.env ?? processEnv,
      responses: (name) => this.responses.get(name),
      auth: this.authValues,
    };
  }

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
    const file: Record<string, string> = {};
    for (const v of this.file.variables) file[v.name] = v.value;
    const postman = request.directives.some((d) => d.name === "postman");
    const name = this.options.environment?.name;
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
            ...(responseTime !== undefined ? { responseTime: Math.round(responseTime) } : {}),
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
    const { ScriptSession, ScriptError } = await import("./script_sandbox.ts");
    let source;
    if (script.kind === "inline") {
      source = {
        code: script.code,
        file: this.file.path,
        line: script.codeLine,
        column: script.codeColumn,
      };
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
      const signal = this.options.send?.signal;
      this.scripts ??= new ScriptSession({
        ...this.options.scriptLimits,
        ...(signal ? { signal } : {}),
        postman: this.file.requests.some((r) => r.directives.some((d) => d.name === "postman")),
      });
      output = await this.scripts.run(source, input);
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

  /** Keeps the globals and environment values a script set, for the rest of the run. */
  keepVariables(output: Pick<ScriptOutput, "globals" | "environment">): void {
    for (const [name, value] of Object.entries(output.globals)) {
      if (value === null) this.globals.delete(name);
      else this.globals.set(name, value);
    }
    // pm.environment.set: the environment's value for the rest of the run (or a global when no
    // environment was chosen).
    for (const [name, value] of Object.entries(output.environment ?? {})) {
      const variables = this.options.environment?.variables ?? this.globals;
      if (value === null) variables.delete(name);
      else variables.set(name, value);
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

  async resolveAuth(request: HttpRequest): Promise<void> {
    const texts = [
      request.url,
      ...request.headers.map((h) => h.value),
      ...this.file.variables.map((v) => v.value),
    ];
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
      }
    }
  }

  /** A token of the environment's `Security.Auth` configuration, by dial's OAuth 2.0 step. */
  async securityAuthToken(id: string, kind: "token" | "idToken"): Promise<VariableValue> {
    const { securityAuthToken } = await import("./security_auth.ts");
    return await securityAuthToken(this.options.environment, id, kind, {
      scope: this.scope(new Map()),
      path: this.file.path,
      hooks: this.options.oauth2 ?? {},
      ...(this.options.send ? { send: this.options.send } : {}),
    });
  }
}

/**
 * The request with a Postman pre-request script's header changes (added headers point at the
 * request line in messages).
 */
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
