/**
 * Test helpers: run main.ts as a user would, start real servers on 127.0.0.1 port 0.
 * @module
 */

import { runCli } from "./_run_cli.ts";
import { finish, type ProgramResult, runProgram } from "./_process.ts";
const MAIN = new URL("../main.ts", import.meta.url).pathname;
const decoder = new TextDecoder();

/** What one dial run produced. */
export interface DialResult {
  code: number;
  stdout: string;
  stderr: string;
  stdoutBytes: Uint8Array;
}

/** Options for {@link dial}. */
export interface DialOptions {
  /** Bytes or text written to stdin (then closed). */
  stdin?: string | Uint8Array;
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** Working directory. */
  cwd?: string;
  /** Run this built CLI (`scripts/build_cli.ts`) with `--no-config`, as installed, not main.ts. */
  built?: string;
  /**
   * Spawn main.ts as its own process. Without it (and without `cwd` or `built`) dial runs in
   * this process with its own output, stdin and environment (`runCli`): a process is for what
   * needs one, such as variables the runtime itself reads at start (`DENO_CERT`).
   */
  process?: boolean;
}

let home: string | undefined;

/** @returns a clean HOME for dial runs, made once per test process */
export function testHome(): string {
  return home ??= Deno.makeTempDirSync({ prefix: "dial-home-" });
}

/**
 * Runs `dial …args` with a clean HOME/XDG_* and NO_COLOR=1: in this process (`runCli`), or as
 * `deno run -A main.ts …args` when a process is asked for or needed (`cwd`, `built`).
 *
 * @param args the arguments after `dial`
 * @param options stdin, env, cwd, process
 * @returns exit code and output
 */
export async function dial(args: string[], options: DialOptions = {}): Promise<DialResult> {
  if (!options.process && !options.built && !options.cwd) {
    return await runCli(args, {
      ...(options.env ? { env: options.env } : {}),
      ...(options.stdin !== undefined ? { stdin: options.stdin } : {}),
    });
  }
  const command = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--quiet",
      ...(options.built ? ["--no-config", options.built] : [MAIN]),
      ...args,
    ],
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    clearEnv: true,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    env: dialEnv(options.env),
  });
  return await finish(command.spawn(), options.stdin);
}

/**
 * The environment of a dial run: a clean HOME/XDG_*, NO_COLOR=1, and Deno's own cache.
 *
 * @param extra variables to add or override (HOME moves the XDG folders along)
 * @returns the environment
 */
export function dialEnv(extra: Record<string, string> = {}): Record<string, string> {
  const h = extra.HOME ?? testHome();
  return {
    ...registryEnv(),
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: h,
    XDG_CACHE_HOME: `${h}/.cache`,
    XDG_CONFIG_HOME: `${h}/.config`,
    DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`,
    NO_COLOR: "1",
    ...extra,
  };
}

/** What {@link dialTracingStreams} saw: the run, and the web-stream scripts V8 compiled in it. */
export interface TracedRun {
  run: ProgramResult;
  /** V8's `script-details` lines of Deno's web streams module (empty: no stream was made). */
  streams: string[];
}

/**
 * Runs main.ts from source as a user would (clean environment) with V8's function log, to tell
 * whether a run made a web stream at all: the download and upload paths must not.
 *
 * @param args dial's arguments
 * @param log where V8 writes its log (overwritten)
 * @returns the run and the stream module's lines of the log
 */
export async function dialTracingStreams(args: string[], log: string): Promise<TracedRun> {
  const run = await runProgram(Deno.execPath(), [
    "run",
    "-A",
    "--quiet",
    `--v8-flags=--log-function-events,--logfile=${log},--no-logfile-per-isolate`,
    MAIN,
    ...args,
  ], { clearEnv: true, env: dialEnv() });
  const streams = (await Deno.readTextFile(log)).split("\n")
    .filter((line) => line.startsWith("script-details,") && line.includes("06_streams"));
  return { run, streams };
}

/**
 * The variables Deno needs to reach and trust the npm registry (a TLS-inspecting proxy's CA,
 * a proxy, a mirror): a child started with a cleared environment keeps them, so a run on an
 * empty `DENO_DIR` can still download what it imports.
 */
const REGISTRY_VARIABLES = [
  "DENO_CERT",
  "NODE_EXTRA_CA_CERTS",
  "DENO_TLS_CA_STORE",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "NPM_CONFIG_REGISTRY",
  "npm_config_registry",
];

/** @returns the registry variables of this process that are set */
export function registryEnv(): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of REGISTRY_VARIABLES) {
    const value = Deno.env.get(name);
    if (value !== undefined) kept[name] = value;
  }
  return kept;
}

/** Whether util-linux `script` can give dial a pseudo-terminal here. */
export const hasScript: boolean = (() => {
  try {
    return Deno.build.os === "linux" && Deno.statSync("/usr/bin/script").isFile;
  } catch {
    return false;
  }
})();

/** Options for {@link dialOnTerminal}. */
export interface TerminalOptions {
  /** Wait until the screen shows this text, then type {@link TerminalOptions.type}. */
  prompt?: string;
  /** What to type at the prompt (end it with "\r" for Enter). */
  type?: string;
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** Working directory. */
  cwd?: string;
  /** Run this built CLI (`scripts/build_cli.ts`) with `--no-config`, as installed, not main.ts. */
  built?: string;
}

/**
 * Runs dial on a pseudo-terminal (util-linux `script`), so stdin, stdout and stderr are all
 * terminals. Typing waits for the prompt: before dial turns echo off, the terminal would echo.
 *
 * @param args the arguments after `dial`
 * @param options prompt, text to type, env, cwd
 * @returns the exit code and everything the terminal showed
 */
export async function dialOnTerminal(
  args: string[],
  options: TerminalOptions = {},
): Promise<{ code: number; screen: string }> {
  const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
  const command = [Deno.execPath(), "run", "-A", "--quiet", MAIN, ...args].map(quote).join(" ");
  const child = new Deno.Command("/usr/bin/script", {
    args: ["-qec", command, "/dev/null"],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
    clearEnv: true,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    env: dialEnv({ TERM: "dumb", ...options.env }),
  }).spawn();
  const writer = child.stdin.getWriter();
  const reader = child.stdout.getReader();
  let screen = "";
  let typed = options.prompt === undefined;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    screen += decoder.decode(value, { stream: true });
    if (!typed && screen.includes(options.prompt!)) {
      typed = true;
      await writer.write(new TextEncoder().encode(options.type ?? ""));
    }
  }
  await writer.close().catch(() => {});
  const { code } = await child.status;
  return { code, screen };
}

/** A running test server. */
export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The port. */
  port: number;
  /** Every request the server received, in order. */
  requests: Request[];
  /** Stops the server and waits for it. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts a Deno.serve server on 127.0.0.1, port 0, that records every request.
 *
 * @param handler the handler
 * @returns the server
 */
export function serve(
  handler: (
    request: Request,
    info: Deno.ServeHandlerInfo<Deno.NetAddr>,
  ) => Response | Promise<Response>,
): TestServer {
  const requests: Request[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request, info) => {
      // Not request.clone(): it reads request.signal, and Deno then prints its "legacy abort"
      // notice after every successful response. The handler keeps the original request (its
      // signal, Deno.upgradeWebSocket) unless a body has to be shared with the record.
      const { url, method, headers } = request;
      if (request.body === null) {
        requests.push(new Request(url, { method, headers }));
        return handler(request, info);
      }
      const [recorded, handled] = request.body.tee();
      requests.push(new Request(url, { method, headers, body: recorded }));
      const shared = new Request(url, { method, headers, body: handled });
      // The original's signal (aborted when the client goes away), read only if the handler does.
      Object.defineProperty(shared, "signal", { get: () => request.signal });
      return handler(shared, info);
    },
  );
  const close = async () => {
    await server.shutdown();
    await server.finished;
  };
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    port: server.addr.port,
    requests,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** Options for {@link bearerApi}. */
export interface BearerApiOptions {
  /** Answer 401 to a request without a bearer token (default: every request gets `{"ok":true}`). */
  requireBearer?: boolean;
  /** Tokens answered with 401, as a revoked token would be (implies `requireBearer`). */
  revoked?: Set<string>;
}

/**
 * Starts an API for credential tests: it answers `{"ok":true}` and records the Authorization
 * header of each request in `seen` ("" where there was none).
 *
 * @param options whether a bearer token is required, which tokens are revoked
 * @returns the server, with `seen`
 */
export function bearerApi(options: BearerApiOptions = {}): TestServer & { seen: string[] } {
  const seen: string[] = [];
  const required = options.requireBearer || options.revoked !== undefined;
  const server = serve((request) => {
    const auth = request.headers.get("authorization") ?? "";
    seen.push(auth);
    const token = auth.replace(/^Bearer /, "");
    if (required && (!auth.startsWith("Bearer ") || options.revoked?.has(token))) {
      return new Response("no", { status: 401 });
    }
    return Response.json({ ok: true });
  });
  return Object.assign(server, { seen });
}

/**
 * The request with a signal of its own, for a library's handler that reads `request.signal`
 * (graphql-yoga does): reading the signal Deno.serve made makes Deno print its "legacy abort"
 * notice after each successful response. The library learns that a client went away through
 * the cancellation of its response body.
 *
 * @param request a request a {@link serve} handler received
 * @returns the same method, URL, headers and body
 */
export function withoutServeSignal(request: Request): Request {
  const { url, method, headers, body } = request;
  return new Request(url, { method, headers, body });
}

/**
 * Makes every cached OAuth 2.0 token under a directory look expired, as the clock would after
 * its lifetime: tests need no sleep, and a slow machine cannot expire a token early.
 *
 * @param dir a test's HOME or cache directory
 * @returns how many entries were changed
 */
export async function expireCachedTokens(dir: string): Promise<number> {
  let count = 0;
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) count += await expireCachedTokens(path);
    if (!entry.isFile || !entry.name.endsWith(".json")) continue;
    const data = JSON.parse(await Deno.readTextFile(path));
    if (typeof data?.expiresAt !== "number") continue;
    data.expiresAt = Date.now() - 1000;
    await Deno.writeTextFile(path, JSON.stringify(data));
    count++;
  }
  return count;
}

/** A temporary directory that is removed, with all it holds, when disposed. */
export interface TempDir extends AsyncDisposable {
  /** Its path. */
  path: string;
}

/**
 * Makes a temporary directory and writes files into it (`await using dir = await tempDir(…)`).
 *
 * @param prefix the start of its name, e.g. `dial-ui-env-`
 * @param files paths in it (their folders are made) and their text
 * @returns the directory, removed when disposed
 */
export async function tempDir(
  prefix: string,
  files: Record<string, string> = {},
): Promise<TempDir> {
  const path = await Deno.makeTempDir({ prefix });
  for (const [name, text] of Object.entries(files)) {
    await Deno.mkdir(`${path}/${name}`.replace(/\/[^/]*$/, ""), { recursive: true });
    await Deno.writeTextFile(`${path}/${name}`, text);
  }
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

/**
 * Reads a child's stdout up to its first newline (`dial ui` prints its URL there).
 *
 * @param stdout the child's stdout
 * @returns the line, and `cancel` to stop reading the rest
 */
export async function firstLine(
  stdout: ReadableStream<Uint8Array>,
): Promise<{ line: string; cancel(): Promise<void> }> {
  const reader = stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  while (!out.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) break;
    out += value;
  }
  return { line: out.split("\n")[0]!, cancel: () => reader.cancel() };
}

/** Options for {@link waitFor}. */
export interface WaitForOptions {
  /**
   * Give up after this many milliseconds (default 30 s: a bound for a hung test on a loaded
   * machine, never a schedule the test relies on).
   */
  timeout?: number;
  /** What was awaited, for the error when it never came (a function is called then). */
  message?: string | (() => string);
}

/**
 * Waits until `predicate` returns a truthy value, checking again every few milliseconds (a short
 * back-off, up to 100 ms). The one way tests wait for something they cannot await directly, such
 * as a count of requests a server saw: no unbounded loop, no sleep before acting.
 *
 * @param predicate checked until it returns a truthy value (it may be async)
 * @param options `timeout` and `message`
 * @returns the truthy value
 * @throws Error naming `message` when the time is up
 */
export async function waitFor<T>(
  predicate: () => T | Promise<T>,
  options: WaitForOptions = {},
): Promise<NonNullable<T>> {
  const timeout = options.timeout ?? 30_000;
  const deadline = Date.now() + timeout;
  for (let pause = 5;; pause = Math.min(pause * 2, 100)) {
    const value = await predicate();
    if (value) return value;
    if (Date.now() >= deadline) {
      const what = typeof options.message === "function" ? options.message() : options.message;
      throw new Error(`Timed out after ${timeout} ms waiting for ${what ?? "a condition"}`);
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}
