/**
 * The sandbox that runs request-file scripts (pre-request scripts and response handlers).
 *
 * Deno limitation: a Worker with `deno: { permissions: "none" }` is the runtime's own sandbox,
 * but that option still needs `--unstable-worker-options` (Deno 2.9), and a Worker without it
 * inherits all of dial's permissions. So scripts run in QuickJS compiled to WebAssembly
 * (quickjs-emscripten): the script's world holds only the JavaScript language and the script
 * API of `script_api.ts` (and `script_postman.ts` for `# @postman` requests), whose digests,
 * JSONPath and dynamic variables are pure host functions of strings; there is no `Deno`, no `fetch`,
 * no `import`, no file, network, environment or subprocess to reach. The one way out is Postman's
 * `pm.sendRequest`: the script queues a request, and after the script returns dial sends it with
 * the session's `sendRequest` (the runner's rule, script_send.ts) and calls the script back.
 *
 * Isolation and bounds: each request file's scripts get a context of their own
 * ({@link ScriptSession}), in a WebAssembly instance of their own whose memory cannot grow past
 * the limit, so a script that replaces `JSON.parse` or a prototype sees only its own file's
 * data. dial never evaluates code in a context a script could have changed: it calls the
 * functions the prelude returned (holding their handles, not looking them up), which use the
 * intrinsics captured before any script ran. A script is compiled once per context into a
 * function (a fresh scope each call) and called for each of its runs. Every evaluation, dial's own calls included, runs
 * under the deadline of the interrupt handler, which also stops a script at once when the
 * process is told to end (`src/script_interrupt.ts`). The canary test
 * `tests/unit/files/worker_permissions_canary_test.ts` fails when Deno no longer needs the
 * flag; then this module can become a Worker, at a price in speed to weigh: each script is then
 * two handoffs between threads on a chain's critical path, which cost a handler ~75 % more in a
 * chain of 1,000 on a quiet 2-vCPU machine and far more when it is loaded (docs/benchmarks.md,
 * session 16).
 * @module
 */
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from "quickjs-emscripten-core";
import * as variantModule from "@jitl/quickjs-wasmfile-release-sync";
import { query } from "jsonpath-rfc9535";
import { DialError, ErrorCode } from "../errors/mod.ts";
import { dynamicVariable } from "./dynamic_variables.ts";
import {
  inputArguments,
  inputPart,
  postmanPart,
  type ScriptInput,
  type ScriptOutput,
  scriptPrelude,
  type TestOutcome,
} from "./script_api.ts";
import { signalled, signalsWatched, watchSignals } from "../script_interrupt.ts";
import { load } from "../load.ts";

/** A script that threw, timed out or ran out of memory; the message names its file and line. */
export class ScriptError extends DialError {
  /** What the script logged with `client.log` before it failed. */
  logs: string[] = [];
  /** The tests it finished before it failed. */
  tests: TestOutcome[] = [];
  /** The variables it set before it failed (Newman keeps them; so does dial for Postman's). */
  variables?: Pick<ScriptOutput, "globals" | "environment" | "postmanGlobals" | "typed">;
  /** The script was interrupted or ran out of memory: its sandbox is not used again. */
  broken = false;
  /**
   * Creates the error.
   *
   * @param message `file:line: what happened`
   * @param options the cause
   */
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, ErrorCode.Script, { ...options, remedy: { check: "script_sandbox" } });
    this.name = "ScriptError";
  }
}

/** Where a script's code is, so that errors name the line in the user's file. */
export interface ScriptSource {
  /** The code. */
  code: string;
  /** The file it is in (the `.http` file, or a handler file). */
  file: string;
  /** The 1-based line of the code's first character in that file. */
  line: number;
  /** The 1-based column of the code's first character. */
  column: number;
}

/** The limits and options of a session's (or one script's) sandbox. */
export interface SandboxLimits {
  /** Milliseconds a script may run (default 5000). */
  timeoutMs?: number;
  /** Bytes of memory (default 64 MiB). */
  memoryBytes?: number;
  /** Aborted when the run ends early (Ctrl-C): a running script stops at its next check. */
  signal?: AbortSignal;
  /** Give the scripts Postman's API too (a file with `# @postman` requests). */
  postman?: boolean;
  /**
   * Sends what a Postman script's `pm.sendRequest` asks (the runner's rule decides where it may
   * go); without it the request fails with a message.
   */
  sendRequest?: (request: ScriptRequest) => Promise<ScriptReply>;
}

/** A request a script asked to send (`pm.sendRequest`). */
export interface ScriptRequest {
  /** The method, upper-cased. */
  method: string;
  /** The URL as the script wrote it. */
  url: string;
  /** Header names and values, in order. */
  headers: [string, string][];
  /** The body as text, if any. */
  body?: string;
}

/** What a script gets back: the response, or why there is none. */
export type ScriptReply =
  | {
    response: { status: number; headers: [string, string][]; body: string; responseTime: number };
  }
  | { error: string };

/**
 * The libraries of Postman's sandbox a script may use (`_`, `require("lodash")`,
 * `require("moment")`): what in a script's code asks for each, and its loader. A library's text
 * is loaded (once per process) before a script that names it runs, and evaluated inside the
 * sandbox when the script first touches it.
 */
const LIBRARIES: ReadonlyArray<{ name: string; wanted: RegExp; source: () => Promise<string> }> = [
  {
    name: "lodash3",
    wanted: /(?<![\w$.])_\s*[.([]/,
    source: async () => (await load.libraryLodash3()).SOURCE,
  },
  {
    name: "lodash",
    wanted: /\brequire\s*\(\s*["'`]lodash["'`]\s*\)/,
    source: async () => (await load.libraryLodash()).SOURCE,
  },
  {
    name: "moment",
    wanted: /\brequire\s*\(\s*["'`]moment["'`]\s*\)/,
    source: async () => (await load.libraryMoment()).SOURCE,
  },
];
const librarySources = new Map<string, string>();

/** The libraries of httpyac's scripts, by the name the prelude asks for: their loaders. */
const HTTPYAC_LIBRARIES = {
  xmldom: async () => (await load.libraryXmldom()).SOURCE,
  xpath: async () => (await load.libraryXpath()).SOURCE,
};

/**
 * Offers one of httpyac's libraries to the scripts from now on: its text loaded (once per
 * process) before a script that may use it runs, and evaluated inside the sandbox only when the
 * script does: @xmldom/xmldom for a script given httpyac's response of an XML or HTML body, when
 * it reads that response's `parsedBody` (the prelude's markupDocument), and for a block's
 * `require("@xmldom/xmldom")`; xpath for `require("xpath")`.
 *
 * @param name the library
 */
export async function offerLibrary(name: keyof typeof HTTPYAC_LIBRARIES): Promise<void> {
  if (!librarySources.has(name)) librarySources.set(name, await HTTPYAC_LIBRARIES[name]());
}

/**
 * Loads the text of the libraries a script's code names.
 *
 * @returns their names
 */
async function loadLibraries(code: string): Promise<string[]> {
  const wanted = LIBRARIES.filter((library) => library.wanted.test(code));
  for (const library of wanted) {
    if (!librarySources.has(library.name)) {
      librarySources.set(library.name, await library.source());
    }
  }
  return wanted.map((library) => library.name);
}

/** Rounds of `pm.sendRequest` answers (each may ask again) one script may go through. */
const MAX_SEND_ROUNDS = 50;
/** The longest a script's `sleep(ms)` calls may wait together: five minutes, as `# @sleep`. */
const MAX_SCRIPT_SLEEP_MS = 300_000;

/** What a script queued for the host: a `pm.sendRequest` or a `sleep(ms)`. */
interface Queued {
  id: number | string;
  request?: ScriptRequest;
  wait?: number;
}

/** QuickJS's WebAssembly memory below its heap (static data, stack): the loader's initial size. */
const BASE_PAGES = 256;
const PAGE = 64 * 1024;

/**
 * The scripts of one request file: one QuickJS context (in its own WebAssembly instance and
 * memory), made when the first script runs, so that nothing a script changes reaches another
 * file's scripts. A script that times out, runs out of memory or breaks what dial needs gets the
 * context replaced before the next script. Dispose it when the file is done.
 */
export class ScriptSession {
  #timeoutMs: number;
  #memoryBytes: number;
  #signal: AbortSignal | undefined;
  #postman: boolean;
  #sendRequest: ((request: ScriptRequest) => Promise<ScriptReply>) | undefined;
  #sandbox: Sandbox | undefined;
  #expected: ScriptSource[] = [];

  /**
   * Makes a session; its context is made when its first script runs.
   *
   * @param limits time (per evaluation), memory and the run's abort signal
   */
  constructor(limits: SandboxLimits = {}) {
    this.#timeoutMs = limits.timeoutMs ?? 5000;
    this.#memoryBytes = limits.memoryBytes ?? 64 * 1024 * 1024;
    this.#signal = limits.signal;
    this.#postman = limits.postman ?? false;
    this.#sendRequest = limits.sendRequest;
  }

  /**
   * Runs one script.
   *
   * @param source the code and where it is
   * @param input what the script sees
   * @returns what it did: globals, request variables, tests, log lines
   * @throws {ScriptError} when it throws outside `client.test`, times out or runs out of memory
   */
  async run(source: ScriptSource, input: ScriptInput): Promise<ScriptOutput> {
    try {
      return await this.#run(source, input);
    } catch (error) {
      // A signal stopped the script while it held the event loop: let the face's own listener
      // (which aborts the run's signal) see it before the error travels on, so the run ends as
      // an interrupted one (exit 130/143), not as a failed script.
      if (error instanceof ScriptError && signalled() && this.#signal && !this.#signal.aborted) {
        await aborted(this.#signal, 1000);
      }
      throw error;
    }
  }

  async #run(source: ScriptSource, input: ScriptInput): Promise<ScriptOutput> {
    if (stopping(this.#signal)) throw stopped(source, source.line);
    // The signal watcher boots on its own thread (the runner starts it as the file's run
    // begins) while the sandbox is made; a script runs only once it listens.
    const watching = signalsWatched() ? undefined : watchSignals();
    watching?.catch(() => {});
    const libraries = this.#postman ? await loadLibraries(source.code) : [];
    if (!digests && DIGESTS_WANTED.test(source.code)) digests = await load.scriptDigests();
    for (let attempt = 0; attempt < 2; attempt++) {
      let sandbox;
      try {
        if (!this.#sandbox) {
          this.#sandbox = await create({
            memoryBytes: this.#memoryBytes,
            timeoutMs: this.#timeoutMs,
            signal: this.#signal,
            postman: this.#postman,
          });
          this.#sandbox.expect(this.#expected);
        }
        sandbox = this.#sandbox;
        if (watching) await watching;
        if (stopping(this.#signal)) throw stopped(source, source.line);
      } catch (error) {
        if (stopping(this.#signal)) throw stopped(source, source.line);
        throw error;
      }
      // Evaluated as dial's own code, under dial's bound rather than the script's.
      for (const name of libraries) {
        if (sandbox.libraries.has(name)) continue;
        const argument = sandbox.context.newString(name);
        const done = sandbox.call(sandbox.preload, argument, 30_000);
        argument.dispose();
        if (done === undefined) {
          throw new ScriptError(
            `${source.file}:${source.line}: The sandbox could not load ${name}`,
          );
        }
        sandbox.libraries.add(name);
      }
      let healthy = true;
      try {
        const output = await this.#evaluate(
          sandbox,
          source,
          input,
          (broken) => healthy = !broken,
        );
        if (output) return output;
      } finally {
        if (!healthy) this.#drop();
      }
      // An earlier script of the file broke what the setup needs: start afresh.
      this.#drop();
    }
    throw new Error("The script sandbox could not be prepared");
  }

  /**
   * Names the scripts of the file this session will run (its inline ones, in the file's order),
   * so that they are compiled together, a batch at a time, as the first of a batch runs.
   *
   * @param sources the scripts
   */
  expect(sources: ScriptSource[]): void {
    this.#expected = sources;
    this.#sandbox?.expect(sources);
  }

  /**
   * Answers the scripts' `pm.sendRequest` with this from now on: a session kept for the next run
   * of its file (`dial test` iterations) sends under that run's rule, cookies and origins.
   *
   * @param sendRequest the new run's sender (none: the requests fail with a message)
   */
  answerSendsWith(
    sendRequest: ((request: ScriptRequest) => Promise<ScriptReply>) | undefined,
  ): void {
    this.#sendRequest = sendRequest;
  }

  /** Frees the session's context and memory. */
  dispose(): void {
    this.#drop();
  }

  /**
   * Compiles the script (once per context) and runs it with its input through the prelude's
   * `exec`: its setup, the script and what it did, in one call.
   *
   * @returns what it did, or undefined when the setup failed (nothing of the script ran)
   */
  async #evaluate(
    sandbox: Sandbox,
    source: ScriptSource,
    input: ScriptInput,
    broke: (broken: boolean) => void,
  ): Promise<ScriptOutput | undefined> {
    const { context } = sandbox;
    let answer: string | undefined;
    /** What compiling the script threw, or what escaped `exec` (an interrupt, no memory). */
    let thrown: { handle: QuickJSHandle; compiling: boolean } | undefined;
    try {
      // A large body of the last script's is let go before this one compiles (its text may be
      // as large: an assertion's embeds the body).
      if (sandbox.held > RELEASE_AT) {
        sandbox.call(sandbox.release);
        sandbox.held = 0;
      }
      const compiled = sandbox.compiled(source);
      if ("error" in compiled) {
        thrown = { handle: compiled.error, compiling: true };
      } else {
        sandbox.current.input = input;
        sandbox.current.parsing = undefined;
        const given = inputArguments(input).map((value) =>
          typeof value === "number"
            ? context.newNumber(value)
            : value === null
            ? context.null
            : context.newString(value)
        );
        const result = sandbox.within(() =>
          context.callFunction(sandbox.exec, context.undefined, compiled.fn, ...given)
        );
        for (const handle of given) handle.dispose();
        sandbox.held = (input.response?.body.length ?? 0) + (input.request?.body.length ?? 0);
        if (result.error) {
          thrown = { handle: result.error, compiling: false };
        } else {
          answer = context.getString(result.value);
          result.value.dispose();
        }
      }
    } catch (error) {
      // The engine itself failed (its WebAssembly stack or memory): a new sandbox next time.
      broke(true);
      throw engineFailure(sandbox, source, this.#memoryBytes, error);
    }
    // Where `exec` was when something escaped it: its setup (stopped by the deadline, as a
    // setter an earlier script left can make it) is like one that failed.
    const stage = thrown && !thrown.compiling ? sandbox.call(sandbox.stage) : undefined;
    if (stage === "setup" && !stopping(this.#signal)) thrown!.handle.dispose();
    if (answer === "#" || stage === "setup" && !stopping(this.#signal)) return undefined;
    let error: Thrown | undefined;
    if (thrown) {
      error = describe(sandbox, thrown.handle);
      // Only the engine's own failures escape the script; anything else broke the prelude.
      if (
        stage === "take" ||
        !thrown.compiling && error.name !== "InternalError" && !sandbox.exhausted()
      ) {
        error = undefined;
      }
    } else if (answer?.startsWith("!")) {
      error = answer.length > 1 ? JSON.parse(answer.slice(1)) : CANNOT_DESCRIBE;
    } else if (answer === "?" || sandbox.runtime.hasPendingJob()) {
      // pm.sendRequest's answers, each calling its callback (which may ask again); promises.
      const failed = await this.#settle(sandbox, source);
      if (failed) error = describe(sandbox, failed);
      else answer = sandbox.call(sandbox.take);
    }
    if (error && !error.exit) {
      const failure = scriptError(error, source, {
        line: sandbox.lineOf(error.stack, source.file),
        timeoutMs: this.#timeoutMs,
        memoryBytes: this.#memoryBytes,
        exhausted: sandbox.exhausted(),
        signal: this.#signal,
        parsing: sandbox.current.parsing,
      });
      broke(failure.broken);
      // A script that did not compile did nothing.
      const partial = failure.broken || thrown ? undefined : readOutput(sandbox);
      failure.logs = partial?.logs ?? [];
      failure.tests = partial?.tests ?? [];
      if (partial) failure.variables = variablesOf(partial);
      throw failure;
    }
    const output = error ? readOutput(sandbox) : thrown ? undefined : outputOf(answer);
    if (!output) {
      broke(true);
      throw new ScriptError(
        `${source.file}:${source.line}: The script replaced what dial reads its results with`,
      );
    }
    return output;
  }

  /**
   * Runs the script's pending promise jobs and answers its `pm.sendRequest`s, round after round
   * (a callback may send again), until nothing is pending.
   *
   * @returns what a job or callback threw, if one did
   */
  async #settle(sandbox: Sandbox, source: ScriptSource): Promise<QuickJSHandle | undefined> {
    const { context, runtime } = sandbox;
    let waited = 0;
    for (let round = 0;; round++) {
      if (runtime.hasPendingJob()) {
        const jobs = sandbox.within(() => runtime.executePendingJobs());
        if (jobs.error) return jobs.error;
      }
      // Postman's pm.sendRequest and httpyac's sleep(ms) queue what the host does.
      const text = sandbox.call(sandbox.pending);
      const queued = text ? JSON.parse(text) as Queued[] : [];
      if (!queued.length) return undefined;
      if (round >= MAX_SEND_ROUNDS && queued.some((one) => one.request)) {
        throw new ScriptError(
          `${source.file}:${source.line}: pm.sendRequest callbacks sent again more than ${MAX_SEND_ROUNDS} times`,
        );
      }
      for (const { id, request, wait } of queued) {
        let reply: ScriptReply | { waited: true };
        if (request) {
          reply = this.#sendRequest
            ? await this.#sendRequest(request).catch((error) => ({
              error: (error as Error).message,
            }))
            : { error: "pm.sendRequest is not available in dial's script sandbox here" };
        } else {
          waited += Math.max(0, wait ?? 0);
          if (waited > MAX_SCRIPT_SLEEP_MS) {
            throw new ScriptError(
              `${source.file}:${source.line}: sleep() would wait more than ${MAX_SCRIPT_SLEEP_MS} ms in one script`,
            );
          }
          await aborted(this.#signal, Math.max(0, wait ?? 0));
          reply = { waited: true };
        }
        if (stopping(this.#signal)) throw stopped(source, source.line);
        const argument = context.newString(JSON.stringify({ id, ...reply }));
        const called = sandbox.within(() =>
          context.callFunction(sandbox.settle, context.undefined, argument)
        );
        argument.dispose();
        if (called.error) return called.error;
        called.value.dispose();
      }
    }
  }

  #drop(): void {
    const sandbox = this.#sandbox;
    this.#sandbox = undefined;
    if (!sandbox) return;
    try {
      sandbox.exec.dispose();
      sandbox.stage.dispose();
      sandbox.release.dispose();
      sandbox.take.dispose();
      sandbox.describe.dispose();
      sandbox.pending.dispose();
      sandbox.settle.dispose();
      sandbox.preload.dispose();
      sandbox.forget();
      sandbox.context.dispose();
      sandbox.runtime.dispose();
    } catch {
      // A runtime left broken by an interrupted or exhausted script may refuse to be freed.
    }
  }
}

/**
 * Runs one script in a sandbox of its own (a {@link ScriptSession} of one script).
 *
 * @param source the code and where it is
 * @param input what the script sees
 * @param limits time and memory
 * @returns what it did: globals, request variables, tests, log lines
 * @throws {ScriptError} when it throws outside `client.test`, times out or runs out of memory
 */
export async function runScript(
  source: ScriptSource,
  input: ScriptInput,
  limits: SandboxLimits = {},
): Promise<ScriptOutput> {
  const session = new ScriptSession(limits);
  try {
    return await session.run(source, input);
  } finally {
    session.dispose();
  }
}

/** One QuickJS runtime and context with the prelude evaluated. */
interface Sandbox {
  runtime: QuickJSRuntime;
  context: QuickJSContext;
  /** The prelude's `exec(fn, …input)`: a script's setup, run and results, in one call. */
  exec: QuickJSHandle;
  /** The prelude's `stage()`: where `exec` was when something escaped it. */
  stage: QuickJSHandle;
  /** The prelude's `release()`: lets go of the last script's input. */
  release: QuickJSHandle;
  /** The characters of the last script's bodies (the request's and the response's). */
  held: number;
  /**
   * The running (or last) script's input, whose parts the prelude asks for ({@link inputPart}),
   * and the body the prelude is parsing into httpyac's `parsedBody` (its length and media type),
   * if it is.
   */
  current: { input?: ScriptInput; parsing?: { length: number; mimeType: string } | undefined };
  /** The prelude's `take()`, held by the host. */
  take: QuickJSHandle;
  /** The prelude's `describe(error)`, held by the host. */
  describe: QuickJSHandle;
  /** The prelude's `pending()`: the `pm.sendRequest`s queued since it was last called. */
  pending: QuickJSHandle;
  /** The prelude's `settle(answer)`: calls a `pm.sendRequest` callback with its answer. */
  settle: QuickJSHandle;
  /** The prelude's `preload(name)`: evaluates a library (lodash, moment) in the context. */
  preload: QuickJSHandle;
  /** The libraries evaluated in the context so far. */
  libraries: Set<string>;
  /**
   * The script as a function of the context, compiled when its text (at its place) is first run
   * and kept for the next runs (a file's iterations), or what its compilation threw.
   */
  compiled(source: ScriptSource): { fn: QuickJSHandle } | { error: QuickJSHandle };
  /** The scripts the file will run, in its order: compiled together as the first of them runs. */
  expect(sources: ScriptSource[]): void;
  /**
   * The line in `file` of the innermost frame of a stack that is in one of the context's scripts
   * of that file, or undefined.
   */
  lineOf(stack: string, file: string): number | undefined;
  /** Frees the compiled scripts. */
  forget(): void;
  /** Runs one evaluation with the deadline armed (the scripts' limit, unless given). */
  within<T>(evaluate: () => T, ms?: number): T;
  /**
   * Calls one of the prelude's functions under the deadline (the scripts' limit, a second at
   * least).
   *
   * @returns its string result (as `String` makes it: "undefined" for none; "" when `text` is
   *   false), or undefined when it threw
   */
  call(
    fn: QuickJSHandle,
    argument?: QuickJSHandle,
    ms?: number,
    text?: boolean,
  ): string | undefined;
  /** Whether the last evaluation was stopped by the interrupt handler. */
  interrupted(): boolean;
  /** Whether the WebAssembly memory grew to (about) its bound. */
  exhausted(): boolean;
}

async function create(
  { memoryBytes, timeoutMs, signal, postman }: {
    memoryBytes: number;
    timeoutMs: number;
    signal: AbortSignal | undefined;
    postman: boolean;
  },
): Promise<Sandbox> {
  const maximum = BASE_PAGES + Math.ceil(memoryBytes / PAGE);
  const memory = new WebAssembly.Memory({ initial: BASE_PAGES, maximum });
  const quickjs = await newModule(memory);
  const runtime = quickjs.newRuntime();
  // No runtime.setMemoryLimit: in this build QuickJS counts allocations, not their size
  // (malloc_usable_size is unavailable), so the bound is the WebAssembly memory's own.
  // Below the WebAssembly stack: QuickJS reports a stack overflow before the host's stack runs
  // out (at 512 KiB a deep recursion overflowed the host instead).
  runtime.setMaxStackSize(256 * 1024);
  const context = runtime.newContext();
  // Outside an evaluation nothing may run: the deadline is in the past.
  let deadline = 0;
  let interrupted = false;
  runtime.setInterruptHandler(() => {
    if (stopping(signal) || Date.now() > deadline) interrupted = true;
    return interrupted;
  });
  const within = <T>(evaluate: () => T, ms = timeoutMs): T => {
    deadline = Date.now() + ms;
    interrupted = false;
    try {
      return evaluate();
    } finally {
      deadline = 0;
    }
  };
  // dial's own code, before any script: bounded too, but not by a script's short limit.
  const preludeMs = Math.max(timeoutMs, 10_000);
  const made = within(
    () => context.evalCode(scriptPrelude(postman), "dial-prelude.js"),
    preludeMs,
  );
  const current: Sandbox["current"] = {};
  const host = hostFunctions(context, current);
  const prelude = made.error
    ? made
    : within(() => context.callFunction(made.value, context.undefined, host), preludeMs);
  host.dispose();
  if (!made.error) made.value.dispose();
  if (prelude.error) {
    const detail = within(() => context.dump(prelude.error), preludeMs);
    prelude.error.dispose();
    throw new Error(`The script prelude failed: ${JSON.stringify(detail)}`);
  }
  const exec = context.getProp(prelude.value, "exec");
  const stage = context.getProp(prelude.value, "stage");
  const release = context.getProp(prelude.value, "release");
  const take = context.getProp(prelude.value, "take");
  const describe = context.getProp(prelude.value, "describe");
  const pending = context.getProp(prelude.value, "pending");
  const settle = context.getProp(prelude.value, "settle");
  const preload = context.getProp(prelude.value, "preload");
  prelude.value.dispose();
  // dial's own calls (setup, take, describe) are bounded by a second at least, so that a short
  // script limit on a loaded machine does not cut them off.
  const ownMs = Math.max(timeoutMs, 1000);
  const call = caller(context, within, ownMs);
  const { compiled, expect, lineOf, forget } = compiler(context, within);
  // The loader grows the memory by a fifth or more at a time: a growth that failed leaves it
  // within that of its bound.
  const exhausted = () => memory.buffer.byteLength * 1.25 >= maximum * PAGE;
  return {
    runtime,
    context,
    exec,
    stage,
    release,
    held: 0,
    current,
    take,
    describe,
    pending,
    settle,
    preload,
    libraries: new Set(),
    compiled,
    expect,
    lineOf,
    forget,
    within,
    call,
    exhausted,
    interrupted: () => interrupted,
  };
}

/**
 * Calls one of the prelude's functions (dial's own code) under the deadline, a second at least.
 */
function caller(
  context: QuickJSContext,
  within: <T>(evaluate: () => T, ms?: number) => T,
  ownMs: number,
): Sandbox["call"] {
  return (fn, argument, ms = ownMs, text = true) => {
    const result = within(
      () =>
        argument
          ? context.callFunction(fn, context.undefined, argument)
          : context.callFunction(fn, context.undefined),
      Math.max(ms, ownMs),
    );
    if (result.error) {
      result.error.dispose();
      return undefined;
    }
    // The prelude's functions answer a string (JSON text or ""), or nothing.
    const answer = text ? context.getString(result.value) : "";
    result.value.dispose();
    return answer;
  };
}

/** Compiled scripts a context keeps (the least recently run are freed past this). */
const MAX_COMPILED = 256;
/** Characters of a script's bodies past which its context lets go of them before the next compile. */
const RELEASE_AT = 1024 * 1024;
/** Scripts of a file compiled in one evaluation, at most. */
const BATCH = 32;

/**
 * Compiles scripts once per context: each becomes a function (a fresh scope for its `var`s) that
 * is called for each run. Its code is not padded to its place in the file (compiling padding
 * cost as much as the script at line 3,000); QuickJS is given the script's file name, followed
 * by `#LINE` when the script does not start the file, and counts lines from the script's start,
 * which `lineOf` maps back to the file's. The scripts a file will run ({@link Sandbox.expect})
 * are compiled together, up to {@link BATCH} in one evaluation, when the first of them runs
 * (an evaluation costs about as much again as the script's own compiling); a batch that does
 * not compile, or does not give one function per script, leaves each to be compiled alone.
 */
function compiler(
  context: QuickJSContext,
  within: <T>(evaluate: () => T) => T,
): Pick<Sandbox, "compiled" | "expect" | "lineOf" | "forget"> {
  const scripts = new Map<string, QuickJSHandle>();
  const starts = new Map<string, { file: string; line: number }>();
  /** Each batch's scripts: the line in the batch where each starts, and where it is. */
  const batches = new Map<string, { at: number; file: string; line: number }[]>();
  /** The expected scripts not compiled yet, in the file's order, and their places in it. */
  let queue: { key: string; name: string; source: ScriptSource }[] = [];
  const queued = new Map<string, number>();
  const keep = (key: string, handle: QuickJSHandle) => {
    scripts.set(key, handle);
    if (scripts.size > MAX_COMPILED) {
      const [oldest, old] = scripts.entries().next().value!;
      scripts.delete(oldest);
      old.dispose();
    }
  };
  const nameOf = (source: ScriptSource) =>
    source.line === 1 && source.column === 1 ? source.file : `${source.file}#${source.line}`;
  /** Compiles the expected scripts from `first` on together; false when that did not work. */
  const batch = (first: number): boolean => {
    const group = queue.slice(first, first + BATCH).filter((q) => queued.has(q.key));
    for (const { key } of group) queued.delete(key);
    const made = group.length > 1 ? compileTogether(context, within, group) : undefined;
    if (!made) return false;
    batches.set(made.name, made.places);
    group.forEach(({ key }, i) => keep(key, made.handles[i]!));
    return true;
  };
  return {
    compiled(source) {
      const name = nameOf(source);
      const key = `${name}\n${source.code}`;
      const at = queued.get(key);
      if (at !== undefined && !batch(at)) queued.delete(key);
      const known = scripts.get(key);
      if (known) {
        scripts.delete(key);
        scripts.set(key, known);
        return { fn: known };
      }
      starts.set(name, { file: source.file, line: source.line });
      const made = within(() =>
        context.evalCode(`(function () {${source.code}\n})`, name, {
          type: "global",
          strict: false,
        })
      );
      if (made.error) return { error: made.error };
      keep(key, made.value);
      return { fn: made.value };
    },
    expect(sources) {
      queue = [];
      queued.clear();
      for (const source of sources) {
        const name = nameOf(source);
        const key = `${name}\n${source.code}`;
        if (scripts.has(key) || queued.has(key)) continue;
        queued.set(key, queue.length);
        queue.push({ key, name, source });
      }
    },
    lineOf(stack, file) {
      // `at f (NAME:LINE:COLUMN)`, or `at NAME:LINE:COLUMN` for a syntax error.
      for (
        const [, name, line] of stack.matchAll(
          /^\s*at (?:[^\n]*? \()?([^\n]*?):(\d+)(?::\d+)?\)?$/gm,
        )
      ) {
        const start: { at?: number; file: string; line: number } | undefined = starts.get(name!) ??
          placeIn(batches.get(name!), Number(line));
        if (start?.file === file) return start.line + Number(line) - (start.at ?? 1);
      }
      return undefined;
    },
    forget() {
      for (const handle of scripts.values()) handle.dispose();
      scripts.clear();
    },
  };
}

/**
 * Compiles scripts in one evaluation, to an array of their functions.
 *
 * @returns the functions, the batch's name and where each script starts in it; undefined when
 *   the batch does not compile or does not give one function per script
 */
function compileTogether(
  context: QuickJSContext,
  within: <T>(evaluate: () => T) => T,
  group: { name: string; source: ScriptSource }[],
):
  | { handles: QuickJSHandle[]; name: string; places: { at: number; file: string; line: number }[] }
  | undefined {
  let text = "[";
  let lines = 1;
  const places: { at: number; file: string; line: number }[] = [];
  for (const { source } of group) {
    places.push({ at: lines, file: source.file, line: source.line });
    const part = `(function () {${source.code}\n}),\n`;
    text += part;
    for (let i = part.indexOf("\n"); i >= 0; i = part.indexOf("\n", i + 1)) lines++;
  }
  const name = `${group[0]!.name}+${group.length - 1}`;
  const made = within(() => context.evalCode(`${text}]`, name, { type: "global", strict: false }));
  if (made.error) {
    made.error.dispose();
    return undefined;
  }
  const count = context.getLength(made.value);
  const handles = count === group.length ? group.map((_, i) => context.getProp(made.value, i)) : [];
  made.value.dispose();
  if (handles.length === 0 || handles.some((h) => context.typeof(h) !== "function")) {
    for (const handle of handles) handle.dispose();
    return undefined;
  }
  return { handles, name, places };
}

/** The script of a batch that a line of the batch is in. */
function placeIn(
  places: { at: number; file: string; line: number }[] | undefined,
  line: number,
): { at: number; file: string; line: number } | undefined {
  let found;
  for (const place of places ?? []) {
    if (place.at > line) break;
    found = place;
  }
  return found;
}

/**
 * What the prelude gets from the host: pure functions of strings, the only code of dial's a
 * script can reach. `digest(algorithm, dataHex, keyHex, keyed)` is a hash or HMAC as hex;
 * `jsonPath(json, expression)` the RFC 9535 matches as a JSON array; `dynamic(expression)` a
 * dynamic variable's value (`$guid` …; the process environment's are never given); `input(part)`
 * a part of the running script's own input as JSON text (what it would otherwise be handed
 * whole before it runs).
 */
function hostFunctions(context: QuickJSContext, current: Sandbox["current"]): QuickJSHandle {
  const host = context.newObject();
  // A part of the running script's input, as JSON text, when the script first reads it.
  const input = context.newFunction("input", (part) => {
    const text = current.input && inputPart(current.input, context.getNumber(part));
    return text === undefined ? context.undefined : context.newString(text);
  });
  const digest = context.newFunction("digest", (algorithm, data, key, keyed) => {
    if (!digests) {
      throw new Error("crypto is available to a script that names crypto (or CryptoJS) itself");
    }
    const hex = digests.digestHex(
      context.getString(algorithm),
      context.getString(data),
      context.dump(keyed) === true ? context.getString(key) : undefined,
    );
    return context.newString(hex);
  });
  const path = context.newFunction("jsonPath", (json, expression) => {
    const document = JSON.parse(context.getString(json)) as Parameters<typeof query>[0];
    const selector = context.getString(expression);
    let found: unknown[];
    try {
      found = query(document, selector);
    } catch (error) {
      throw new Error(`Invalid JSONPath "${selector}": ${(error as Error).message}`);
    }
    return context.newString(JSON.stringify(found));
  });
  // `{{$guid}}`, `{{$randomInt}}` … for Postman's replaceIn; never `$env`/`$processEnv`.
  const dynamic = context.newFunction("dynamic", (expression) => {
    const place = { what: "a script's replaceIn", path: "", line: 0, column: 0 };
    try {
      const value = dynamicVariable(context.getString(expression), () => undefined, place);
      return value === undefined ? context.undefined : context.newString(value);
    } catch {
      return context.undefined;
    }
  });
  // A library's text, when a script that names it is about to run (loadLibraries).
  const library = context.newFunction("library", (name) => {
    const text = librarySources.get(context.getString(name));
    return text === undefined ? context.undefined : context.newString(text);
  });
  // A part of Postman's API, when a script first uses it (script_postman.ts).
  const part = context.newFunction("part", (name) => {
    const text = postmanPart(context.getString(name));
    return text === undefined ? context.undefined : context.newString(text);
  });
  context.setProp(host, "digest", digest);
  context.setProp(host, "jsonPath", path);
  context.setProp(host, "dynamic", dynamic);
  context.setProp(host, "library", library);
  context.setProp(host, "part", part);
  context.setProp(host, "input", input);
  // The time zone's long name at an instant, for a date's text (`Coordinated Universal Time`).
  const zone = context.newFunction("zone", (ms) => {
    zoneNames ??= new Intl.DateTimeFormat("en-US", { timeZoneName: "long" });
    const name = zoneNames.formatToParts(context.getNumber(ms))
      .find((part) => part.type === "timeZoneName")?.value;
    return name ? context.newString(name) : context.undefined;
  });
  context.setProp(host, "zone", zone);
  zone.dispose();
  // The prelude parses a body into httpyac's parsedBody (its length, media type), or is done.
  const markup = context.newFunction("markup", (length, mimeType) => {
    const characters = context.getNumber(length);
    current.parsing = characters
      ? { length: characters, mimeType: context.getString(mimeType) }
      : undefined;
    return context.undefined;
  });
  context.setProp(host, "markup", markup);
  markup.dispose();
  digest.dispose();
  path.dispose();
  dynamic.dispose();
  library.dispose();
  part.dispose();
  input.dispose();
  return host;
}

/** The long names of time zones, made when a script first asks for a date's text. */
let zoneNames: Intl.DateTimeFormat | undefined;
/** The digests' module, once a script that names crypto has run (see {@link DIGESTS_WANTED}). */
let digests: typeof import("./script_digests.ts") | undefined;
/**
 * What in a script's code asks for digests: JetBrains' `crypto.*`, Postman's `CryptoJS` and
 * `require("crypto-js")`. A script calls them through code whose text names them (its own, or an
 * earlier script's of the process, which loaded them then).
 */
const DIGESTS_WANTED = /crypto/i;

/**
 * Starts reading and compiling QuickJS's WebAssembly (once per process), so that a file's first
 * script does not wait for it: the runner calls it as a file with scripts starts running.
 */
export function prepareSandboxes(): void {
  quickjsWasm().catch(() => {});
}

/** QuickJS's WebAssembly, compiled once per process and instantiated per sandbox. */
let compiled: Promise<WebAssembly.Module> | undefined;

/**
 * Reads and compiles QuickJS's `.wasm` (once per process): beside this module in the build (which
 * copies it there, `FILES_BESIDE` in scripts/build_cli.ts), else through the import map (the
 * package's own `@jitl/quickjs-wasmfile-release-sync/wasm` export) when dial runs from its
 * sources.
 *
 * @returns the compiled module
 */
function quickjsWasm(): Promise<WebAssembly.Module> {
  return compiled ??= (async () => {
    // Read at once (0.5 MB): no file operation is left pending when a run that started it ends
    // before its first script.
    let bytes;
    try {
      bytes = Deno.readFileSync(new URL("emscripten-module.wasm", import.meta.url));
    } catch {
      // Not the build (no such file beside this module, or a module that is not a file).
      const url = import.meta.resolve("@jitl/quickjs-wasmfile-release-sync/wasm");
      bytes = Deno.readFileSync(new URL(url));
    }
    return await WebAssembly.compile(bytes);
  })();
}

/**
 * A QuickJS WebAssembly instance whose memory cannot grow past its base and `memoryBytes`: the
 * engine's own limit counts allocations rather than bytes in this build, and a script that
 * allocates large arrays went past it to gigabytes. A failed growth is QuickJS's "out of memory".
 * (Exported for scripts/bench_sandbox.ts, which times the sandbox's parts in a bare context.)
 *
 * @param wasmMemory the instance's memory
 * @returns the instance's QuickJS module
 */
export async function newModule(wasmMemory: WebAssembly.Memory): Promise<QuickJSWASMModule> {
  const wasmModule = await quickjsWasm();
  return await newQuickJSWASMModuleFromVariant(
    newVariant(LOADER, { wasmMemory, wasmModule }),
  );
}

/**
 * The QuickJS variant whose Emscripten loader takes its plain path. The loader takes Node's path
 * when it sees `globalThis.process` (Deno has one): it then loads `node:module`, `node:fs`,
 * `node:path` and `node:url` (with the Node compatibility layer they pull in, ~20 ms of CPU
 * before the first script) only to find and read the `.wasm`, which dial compiles itself
 * ({@link quickjsWasm}) and hands over. So `process` is hidden from the global object while the
 * loader decides, synchronously, before its first `await`: no other code runs meanwhile.
 *
 * Emscripten's own messages are dropped (`print`, `printErr`): the only one this build writes
 * is `Aborted(Assertion failed: list_empty(&rt->gc_obj_list) …)` when a runtime a script
 * exhausted is freed, which dial already handles (the sandbox is dropped, the script's error
 * is reported) and which went to the terminal beside dial's own output.
 */
const LOADER: QuickJSSyncVariant = (() => {
  const ignore = () => {};
  const variant = syncVariant();
  return {
    ...variant,
    async importModuleLoader() {
      const imported: unknown = await variant.importModuleLoader();
      const load = (typeof imported === "function" ? imported : (imported as {
        default: (options?: unknown) => Promise<unknown>;
      }).default) as (options?: unknown) => Promise<unknown>;
      return ((options?: unknown) => {
        const process = Object.getOwnPropertyDescriptor(globalThis, "process");
        if (process?.configurable) {
          Object.defineProperty(globalThis, "process", { value: undefined, configurable: true });
        }
        try {
          // The same object (the factory's Module): the variant may read it afterwards.
          return load(Object.assign(options ?? {}, { print: ignore, printErr: ignore }));
        } finally {
          if (process?.configurable) Object.defineProperty(globalThis, "process", process);
        }
      }) as Awaited<ReturnType<QuickJSSyncVariant["importModuleLoader"]>>;
    },
  };
})();

/** What the prelude collected, or undefined when the script broke it. */
function readOutput(sandbox: Sandbox): ScriptOutput | undefined {
  return outputOf(sandbox.call(sandbox.take));
}

/** The output of `take`'s text ("": the script did nothing), undefined when it is not one. */
function outputOf(text: string | undefined): ScriptOutput | undefined {
  if (text === undefined) return undefined;
  if (text === "") return { globals: {}, requestVariables: {}, tests: [], logs: [] };
  try {
    const parsed: unknown = JSON.parse(text);
    return isOutput(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function isOutput(value: unknown): value is ScriptOutput {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.globals === "object" && v.globals !== null &&
    typeof v.requestVariables === "object" && v.requestVariables !== null &&
    Array.isArray(v.tests) && Array.isArray(v.logs) &&
    v.logs.every((l) => typeof l === "string") &&
    v.tests.every((t) =>
      typeof t === "object" && t !== null && typeof t.name === "string" &&
      typeof t.passed === "boolean"
    ) &&
    Object.values(v.globals).every((g) => g === null || typeof g === "string") &&
    Object.values(v.requestVariables).every((g) => typeof g === "string") &&
    [v.environment, v.postmanGlobals].every((set) =>
      set === undefined || (typeof set === "object" && set !== null &&
        Object.values(set).every((g) => g === null || typeof g === "string"))
    ) &&
    (v.typed === undefined || (typeof v.typed === "object" && v.typed !== null &&
      ["globals", "environment", "local", "postmanGlobals"].map((k) =>
        (v.typed as Record<string, unknown>)[k]
      ).every((t, i) =>
        (i === 3 && t === undefined) ||
        (typeof t === "object" && t !== null &&
          Object.values(t).every((j) => j === null || typeof j === "string"))
      ))) &&
    (v.nextRequest === undefined || v.nextRequest === null || typeof v.nextRequest === "string") &&
    (v.skipRequest === undefined || v.skipRequest === true) &&
    (v.headerEdits === undefined || (Array.isArray(v.headerEdits) &&
      v.headerEdits.every((e) =>
        Array.isArray(e) && ["add", "upsert", "remove"].includes(e[0]) &&
        typeof e[1] === "string" && typeof e[2] === "string"
      )));
}

/** The package's default export, found whichever way the module system wrapped it. */
function syncVariant(): QuickJSSyncVariant {
  const candidates: unknown[] = [variantModule, (variantModule as { default?: unknown }).default];
  const inner = (candidates[1] as { default?: unknown } | undefined)?.default;
  candidates.push(inner);
  const found = candidates.find(isSyncVariant);
  if (!found) throw new Error("The QuickJS variant package has an unexpected shape");
  return found;
}

function isSyncVariant(value: unknown): value is QuickJSSyncVariant {
  return typeof value === "object" && value !== null && "type" in value &&
    (value as { type: unknown }).type === "sync" && "importFFI" in value;
}

/** The variables of a script's output. */
function variablesOf(
  output: ScriptOutput,
): Pick<ScriptOutput, "globals" | "environment" | "postmanGlobals" | "typed"> {
  return {
    globals: output.globals,
    ...(output.environment ? { environment: output.environment } : {}),
    ...(output.postmanGlobals ? { postmanGlobals: output.postmanGlobals } : {}),
    ...(output.typed ? { typed: output.typed } : {}),
  };
}

/** What a thrown value is, by the prelude's `describe` (which may fail: a broken context). */
function describe(sandbox: Sandbox, handle: QuickJSHandle): Thrown {
  const described = sandbox.call(sandbox.describe, handle);
  handle.dispose();
  if (described !== undefined) return JSON.parse(described);
  return sandbox.interrupted()
    ? { name: "InternalError", message: "interrupted", stack: "" }
    : CANNOT_DESCRIBE;
}

const CANNOT_DESCRIBE: Thrown = {
  name: "Error",
  message: "The script threw what dial cannot describe",
  stack: "",
};

/** What a script threw, as the prelude's `describe` tells it. */
interface Thrown {
  exit?: boolean;
  name: string;
  message: string;
  stack: string;
  isNull?: boolean;
}

function stopped(source: ScriptSource, line: number): ScriptError {
  const failure = new ScriptError(`${source.file}:${line}: Script stopped: dial was told to end`);
  failure.broken = true;
  return failure;
}

/** Resolves when the signal aborts (or has), or after `ms`. */
function aborted(signal: AbortSignal | undefined, ms: number): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** @returns whether the process or the run is ending: scripts stop */
function stopping(signal: AbortSignal | undefined): boolean {
  return signalled() || signal?.aborted === true;
}

function scriptError(
  { name, message, isNull }: Thrown,
  source: ScriptSource,
  { line: thrownAt, timeoutMs, memoryBytes, exhausted, signal, parsing }: {
    line: number | undefined;
    timeoutMs: number;
    memoryBytes: number;
    exhausted: boolean;
    signal: AbortSignal | undefined;
    parsing?: { length: number; mimeType: string } | undefined;
  },
): ScriptError {
  const line = thrownAt ?? source.line;
  // What the script was doing, when it was dial's parse of a body into httpyac's parsedBody.
  const doing = parsingText(parsing);
  if (name === "InternalError" && message === "interrupted") {
    // An interrupted script's stack points at no useful line: name where it starts.
    if (stopping(signal)) return stopped(source, source.line);
    const failure = new ScriptError(
      `${source.file}:${source.line}: Script timed out after ${timeoutMs / 1000} s${doing}`,
    );
    failure.broken = true;
    return failure;
  }
  // QuickJS throws null when it cannot even allocate the error.
  const outOfMemory = (name === "InternalError" && /out of memory/i.test(message)) ||
    (exhausted && isNull === true);
  // Postman's names in a script of a request that did not ask for Postman's API.
  const postman = /^'(pm|postman|tests|responseBody|responseCode|responseHeaders)' is not defined$/
    .test(message);
  if (postman) message += " (add `# @postman` to the request for Postman's script API)";
  const failure = outOfMemory
    ? new ScriptError(
      `${source.file}:${line}: Script ran out of memory (${memoryBytes / 1024 / 1024} MiB)${doing}`,
    )
    : new ScriptError(`${source.file}:${line}: ${name}: ${message}`);
  // Out of memory, stack overflow: the engine's own failures leave the context unusable.
  failure.broken = name === "InternalError" || exhausted;
  return failure;
}

/**
 * The engine itself failed (a WebAssembly trap): an allocation QuickJS did not check traps once
 * the memory is at its bound, which is running out of memory.
 *
 * @returns the script's error
 */
function engineFailure(
  sandbox: Sandbox,
  source: ScriptSource,
  memoryBytes: number,
  cause: unknown,
): ScriptError {
  return new ScriptError(
    sandbox.exhausted()
      ? `${source.file}:${source.line}: Script ran out of memory (${
        memoryBytes / 1024 / 1024
      } MiB)${parsingText(sandbox.current.parsing)}`
      : `${source.file}:${source.line}: The script broke the sandbox`,
    { cause },
  );
}

/**
 * @param parsing the body the prelude was parsing into httpyac's parsedBody, if it was
 * @returns what the script was doing, for an error's message ("" when not that)
 */
function parsingText(parsing: { length: number; mimeType: string } | undefined): string {
  return parsing
    ? ` while parsing the ${
      size(parsing.length)
    } ${parsing.mimeType} response body into response.parsedBody (a DOM document, as httpyac makes it): read response.body instead, or make the body smaller`
    : "";
}

/** @returns a length of text in characters, as a size (`5.2 MB`, `800 kB`) */
function size(characters: number): string {
  if (characters >= 1e6) return `${(characters / 1e6).toFixed(1)} MB`;
  return `${Math.ceil(characters / 1000)} kB`;
}
