/**
 * Running a request file: requests in order (or the ones named), each one's pre-request
 * scripts, variables, send (dial's one `send`), response handlers and tests; named requests
 * that another request refers to (`{{login.response.body.$.token}}`) run first when they have
 * not run yet. Nothing here prints: the caller is told of each exchange, log line and test.
 * @module
 */
import { DialError, UsageError } from "../errors.ts";
import { CookieJar } from "../http/cookies.ts";
import { reveal } from "../secret.ts";
import { type Exchange, send, type SendOptions } from "../http/send.ts";
import type { Environment } from "./environment.ts";
import { buildFileRequest, type FileRequest } from "./file_request.ts";
import type { HttpFile, HttpRequest, Script } from "./http_file_types.ts";
import type { RequestVariableSource } from "./request_variables.ts";
import type { ScriptInput, ScriptOutput, TestOutcome } from "./script_api.ts";
import type { SandboxLimits } from "./script_sandbox.ts";
import { referencedRequests, type VariableScope, type VariableValue } from "./substitute.ts";

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
  /** What failed, when the request could not be sent or a script threw. */
  error?: DialError;
}

/** What the caller is shown of one exchange, after its body was read. */
export interface ExchangeEvent {
  /** The request as built. */
  fileRequest: FileRequest;
  /** The exchange; its response's body is the bytes below, ready to print. */
  exchange: Exchange;
  /** The whole response body. */
  body: Uint8Array<ArrayBuffer>;
  /** Whether it ran only because a selected request refers to it. */
  dependency: boolean;
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
  /** Record a failed request and go on (`dial test`), instead of throwing (`dial run`). */
  keepGoing?: boolean;
  /** Stop after the first failed test or request. */
  failFast?: boolean;
  /** Only requests whose label matches (`dial test --filter`). */
  filter?: RegExp;
  /** Tokens for `{{$auth.token("id")}}` / `{{$auth.idToken("id")}}`. */
  authToken?: (id: string, kind: "token" | "idToken") => Promise<VariableValue>;
  /** Told of each exchange, with the body read. */
  onExchange?: (event: ExchangeEvent) => void | Promise<void>;
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

class FileRunner {
  readonly globals: Map<string, string>;
  readonly responses = new Map<string, RequestVariableSource>();
  readonly ran = new Set<HttpRequest>();
  readonly results: RequestResult[] = [];
  readonly cookies: CookieJar;
  readonly dir: string;
  readonly authValues = new Map<string, VariableValue>();
  stopped = false;

  constructor(readonly file: HttpFile, readonly options: RunHttpFileOptions) {
    this.globals = options.globals ?? new Map();
    this.cookies = options.cookies ?? new CookieJar();
    const slash = file.path.lastIndexOf("/");
    this.dir = slash < 0 ? "." : file.path.slice(0, slash) || "/";
  }

  dotenv?: Map<string, string>;

  async run(): Promise<RequestResult[]> {
    if (this.file.source.includes("$dotenv")) this.dotenv = await readDotenv(`${this.dir}/.env`);
    for (const request of this.selection()) {
      if (this.stopped) break;
      if (this.ran.has(request)) continue;
      await this.runOne(request, []);
    }
    return this.results;
  }

  selection(): HttpRequest[] {
    const { names, filter } = this.options;
    let requests = this.file.requests;
    if (names?.length) {
      requests = names.map((name) => {
        const found = this.file.requests.find((r) => r.name === name) ??
          (/^\d+$/.test(name) ? this.file.requests[Number(name) - 1] : undefined);
        if (!found) {
          const known = this.file.requests.map((r) => r.name).filter((n) => n !== undefined);
          throw new UsageError(`No request named "${name}" in ${this.file.path}`, {
            hint: known.length
              ? `its requests are: ${
                known.map((n) => `"${n}"`).join(", ")
              } (or give a number from 1)`
              : `name requests with # @name NAME, or give a number from 1`,
          });
        }
        return found;
      });
    }
    return filter ? requests.filter((r) => filter.test(labelOf(r))) : requests;
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
    for (const name of this.dependencies(request)) {
      const dependency = this.file.requests.find((r) => r.name === name);
      if (dependency && dependency !== request && !this.ran.has(dependency)) {
        await this.runOne(dependency, [...chain, request]);
        if (this.stopped) return;
      }
    }
    this.ran.add(request);
    const started = performance.now();
    const result: RequestResult = { request, label: labelOf(request), durationMs: 0, tests: [] };
    try {
      await this.execute(request, result, chain.length > 0);
    } catch (error) {
      if (!(error instanceof DialError) || !this.options.keepGoing) throw error;
      result.error = error;
    }
    result.durationMs = performance.now() - started;
    this.results.push(result);
    await this.options.onResult?.(result);
    const failed = result.error !== undefined || result.tests.some((t) => !t.passed);
    if (failed && this.options.failFast) this.stopped = true;
  }

  async execute(request: HttpRequest, result: RequestResult, dependency: boolean): Promise<void> {
    const requestVariables = new Map<string, string>();
    const scope = this.scope(requestVariables);
    for (const script of request.preScripts) {
      const output = await this.script(script, request, {
        ...this.scriptInput(scope, requestVariables),
        request: {
          method: request.method,
          url: request.url,
          headers: request.headers.map((h) => [h.name, h.value]),
          body: request.body.map((p) => (p.kind === "text" ? p.text : `< ${p.path}`)).join("\n"),
        },
      });
      for (const [name, value] of Object.entries(output.requestVariables)) {
        requestVariables.set(name, value);
      }
      result.tests.push(...output.tests);
    }
    await this.resolveAuth(request);
    const fileRequest = await buildFileRequest(request, {
      scope,
      path: this.file.path,
      dir: this.dir,
    });
    const base = this.options.send ?? {};
    const timeoutMs = fileRequest.timeoutMs ?? this.options.timeoutMs;
    const signals = [base.signal, timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined]
      .filter((s) => s !== undefined);
    const exchange = await send(fileRequest.spec, {
      ...base,
      follow: fileRequest.follow,
      ...(signals.length ? { signal: AbortSignal.any(signals) } : {}),
      ...(fileRequest.noCookieJar ? {} : { cookies: this.cookies }),
      ...(fileRequest.connectTimeoutMs !== undefined && !base.fetch
        ? { transport: { ...base.transport, connectTimeoutMs: fileRequest.connectTimeoutMs } }
        : {}),
    });
    const body = new Uint8Array(await exchange.response.arrayBuffer());
    result.status = exchange.response.status;
    const { response } = exchange;
    const shown = new Response(nullBodyStatus(response.status) ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    await this.options.onExchange?.({
      fileRequest,
      exchange: { ...exchange, response: shown },
      body,
      dependency,
    });
    const text = new TextDecoder().decode(body);
    const responseHeaders = [...response.headers];
    const requestHeaders: [string, string][] = exchange.request.headers.map((
      h,
    ) => [h.name, reveal(h.value)]);
    if (request.name !== undefined) {
      this.responses.set(request.name, {
        request: { headers: requestHeaders, body: fileRequest.bodyText },
        response: { headers: responseHeaders, body: text },
      });
    }
    const contentType = response.headers.get("content-type") ?? "";
    for (const handler of request.handlers) {
      const output = await this.script(handler, request, {
        ...this.scriptInput(scope, requestVariables),
        request: {
          method: fileRequest.spec.method,
          url: exchange.request.url.href,
          headers: requestHeaders,
          body: fileRequest.bodyText,
        },
        response: {
          status: response.status,
          headers: responseHeaders,
          body: text,
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
      env: this.options.env ?? ((name) => Deno.env.get(name)),
      responses: (name) => this.responses.get(name),
      auth: this.authValues,
    };
  }

  scriptInput(scope: VariableScope, requestVariables: Map<string, string>): ScriptInput {
    const environment: Record<string, string> = {};
    for (const [name, value] of scope.environment ?? []) environment[name] = reveal(value);
    const file: Record<string, string> = {};
    for (const v of this.file.variables) file[v.name] = v.value;
    return {
      globals: Object.fromEntries(this.globals),
      requestVariables: Object.fromEntries(requestVariables),
      environment,
      file,
    };
  }

  async script(script: Script, request: HttpRequest, input: ScriptInput): Promise<ScriptOutput> {
    const { runScript, ScriptError } = await import("./script_sandbox.ts");
    let source;
    if (script.kind === "inline") {
      source = {
        code: script.code,
        file: this.file.path,
        line: script.codeLine,
        column: script.codeColumn,
      };
    } else {
      const path = script.path.startsWith("/")
        ? script.path
        : `${this.dir}/${script.path.replace(/^\.\//, "")}`;
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
    let output: ScriptOutput;
    try {
      output = await runScript(source, input, this.options.scriptLimits);
    } catch (error) {
      if (error instanceof ScriptError) {
        for (const line of error.logs) await this.options.onLog?.(line, request);
      }
      throw error;
    }
    for (const [name, value] of Object.entries(output.globals)) {
      if (value === null) this.globals.delete(name);
      else this.globals.set(name, value);
    }
    for (const line of output.logs) await this.options.onLog?.(line, request);
    return output;
  }

  /** Names of requests referred to by the request's templates, through file variables too. */
  dependencies(request: HttpRequest): string[] {
    const texts = [request.url, ...request.headers.map((h) => h.value)];
    for (const part of request.body) if (part.kind === "text") texts.push(part.text);
    const names = new Set<string>();
    const seen = new Set<string>();
    while (texts.length) {
      const text = texts.pop()!;
      for (const name of referencedRequests(text)) names.add(name);
      for (const match of text.matchAll(/\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g)) {
        const variable = match[1]!;
        if (seen.has(variable)) continue;
        seen.add(variable);
        const defined = this.file.variables.findLast((v) => v.name === variable);
        if (defined) texts.push(defined.value);
      }
    }
    return [...names];
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
        if (!this.options.authToken) {
          throw new UsageError(
            `${this.file.path}: {{$auth.${match[1]}("${
              match[2]
            }")}} needs an OAuth 2.0 configuration`,
          );
        }
        this.authValues.set(
          key,
          await this.options.authToken(match[2]!, match[1] as "token" | "idToken"),
        );
      }
    }
  }
}

/**
 * Names a request for reports.
 *
 * @param request a parsed request
 * @returns its name, else `METHOD url` as written
 */
export function labelOf(request: HttpRequest): string {
  return request.name ?? `${request.method} ${request.url}`;
}

/** A `.env` file's `NAME=value` lines (quotes removed); empty when there is none. */
async function readDotenv(path: string): Promise<Map<string, string>> {
  const values = new Map<string, string>();
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch {
    return values;
  }
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([\w.-]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match || line.trimStart().startsWith("#")) continue;
    values.set(match[1]!, match[2]!.replace(/^(["'])(.*)\1$/, "$2"));
  }
  return values;
}

function nullBodyStatus(status: number): boolean {
  return status === 101 || status === 103 || status === 204 || status === 205 || status === 304;
}
