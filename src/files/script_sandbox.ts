/**
 * The sandbox that runs request-file scripts (pre-request scripts and response handlers).
 *
 * Deno limitation: a Worker with `deno: { permissions: "none" }` is the runtime's own sandbox,
 * but that option still needs `--unstable-worker-options` (Deno 2.9), and a Worker without it
 * inherits all of dial's permissions. So scripts run in QuickJS compiled to WebAssembly
 * (quickjs-emscripten): the script's world holds only the JavaScript language and the
 * `client`/`request`/`response` objects of `script_api.ts`; there is no `Deno`, no `fetch`,
 * no `import`, no file, network, environment or subprocess to reach. A time limit (an
 * interrupt handler) and a memory limit bound each script. The canary test
 * `tests/unit/files/worker_permissions_canary_test.ts` fails when Deno no longer needs the
 * flag; then this module can become a Worker.
 * @module
 */
import {
  newQuickJSWASMModuleFromVariant,
  type QuickJSContext,
  type QuickJSRuntime,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from "quickjs-emscripten-core";
import * as variantModule from "@jitl/quickjs-wasmfile-release-sync";
import { DialError, ErrorCode } from "../errors/mod.ts";
import { SCRIPT_PRELUDE, type ScriptInput, type ScriptOutput } from "./script_api.ts";

/** A script that threw, timed out or ran out of memory; the message names its file and line. */
export class ScriptError extends DialError {
  /** What the script logged with `client.log` before it failed. */
  logs: string[] = [];
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

/** Limits of one script run. */
export interface SandboxLimits {
  /** Milliseconds a script may run (default 5000). */
  timeoutMs?: number;
  /** Bytes of memory (default 64 MiB). */
  memoryBytes?: number;
}

let module: Promise<QuickJSWASMModule> | undefined;

/**
 * Runs one script in a fresh sandbox context.
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
  const timeoutMs = limits.timeoutMs ?? 5000;
  const sandbox = await prepared(limits.memoryBytes ?? 64 * 1024 * 1024, JSON.stringify(input));
  const { context } = sandbox;
  let healthy = true;
  try {
    // A fresh function scope on the code's own lines: `var`s do not outlive the script, and the
    // sandbox's line numbers are the file's.
    const padded = "(function () {" + "\n".repeat(source.line - 1) + " ".repeat(source.column - 1) +
      source.code + "\n})()";
    sandbox.deadline = Date.now() + timeoutMs;
    let result;
    try {
      result = context.evalCode(padded, source.file, { type: "global", strict: false });
    } catch (error) {
      // The engine itself failed (its WebAssembly stack or memory): a new sandbox next time.
      healthy = false;
      throw new ScriptError(`${source.file}:${source.line}: The script broke the sandbox`, {
        cause: error,
      });
    }
    sandbox.deadline = Infinity;
    if (result.error) {
      const error = context.dump(result.error) as unknown;
      result.error.dispose();
      if (!isExit(error)) {
        const failure = scriptError(error, source, timeoutMs);
        healthy = !failure.broken;
        failure.logs = (healthy ? readOutput(context)?.logs : undefined) ?? [];
        throw failure;
      }
    } else {
      result.value.dispose();
    }
    const output = readOutput(context);
    if (!output) {
      healthy = false;
      throw new ScriptError(
        `${source.file}:${source.line}: The script replaced dial's output object`,
      );
    }
    return output;
  } finally {
    sandbox.deadline = Infinity;
    // A context a script interrupted or exhausted is not used again.
    if (!healthy) drop(sandbox);
  }
}

/** One QuickJS runtime and context, the prelude evaluated, shared by the scripts of a run. */
interface Sandbox {
  runtime: QuickJSRuntime;
  context: QuickJSContext;
  memoryBytes: number;
  /** When the running script must stop (the interrupt handler reads it). */
  deadline: number;
}

let current: Sandbox | undefined;

/** The shared sandbox, with `__dialSetup(input)` called; a new one when the old one broke. */
async function prepared(memoryBytes: number, input: string): Promise<Sandbox> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const sandbox = current?.memoryBytes === memoryBytes ? current : await create(memoryBytes);
    const { context } = sandbox;
    const setup = context.getProp(context.global, "__dialSetup");
    const argument = context.newString(input);
    const result = context.callFunction(setup, context.undefined, argument);
    argument.dispose();
    setup.dispose();
    if (!result.error) {
      result.value.dispose();
      return sandbox;
    }
    // An earlier script of the run broke the globals the setup needs: start afresh.
    result.error.dispose();
    drop(sandbox);
  }
  throw new Error("The script sandbox could not be prepared");
}

async function create(memoryBytes: number): Promise<Sandbox> {
  if (current) drop(current);
  const quickjs = await (module ??= newQuickJSWASMModuleFromVariant(syncVariant()));
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(memoryBytes);
  // Below the WebAssembly stack: QuickJS reports a stack overflow before the host's stack runs
  // out (at 512 KiB a deep recursion overflowed the host instead).
  runtime.setMaxStackSize(256 * 1024);
  const context = runtime.newContext();
  const sandbox: Sandbox = { runtime, context, memoryBytes, deadline: Infinity };
  runtime.setInterruptHandler(() => Date.now() > sandbox.deadline);
  const prelude = context.evalCode(SCRIPT_PRELUDE, "dial-prelude.js");
  if (prelude.error) {
    const detail = context.dump(prelude.error);
    prelude.error.dispose();
    throw new Error(`The script prelude failed: ${JSON.stringify(detail)}`);
  }
  prelude.value.dispose();
  current = sandbox;
  return sandbox;
}

function drop(sandbox: Sandbox): void {
  if (current === sandbox) current = undefined;
  try {
    sandbox.context.dispose();
    sandbox.runtime.dispose();
  } catch {
    // A runtime left broken by an interrupted or exhausted script may refuse to be freed.
  }
}

/** What the prelude collected, or undefined when the script broke it. */
function readOutput(context: QuickJSContext): ScriptOutput | undefined {
  // The deadline is over: a getter the script planted cannot run for long either.
  const output = context.evalCode("JSON.stringify(__dialOutput)");
  if (output.error) {
    output.error.dispose();
    return undefined;
  }
  const text = context.getString(output.value);
  output.value.dispose();
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
    Object.values(v.requestVariables).every((g) => typeof g === "string");
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

function isExit(error: unknown): boolean {
  return typeof error === "object" && error !== null && "__dialExit" in error;
}

function scriptError(error: unknown, source: ScriptSource, timeoutMs: number): ScriptError {
  const fields = typeof error === "object" && error !== null
    ? error as { name?: unknown; message?: unknown; stack?: unknown }
    : { message: String(error) };
  const stack = typeof fields.stack === "string" ? fields.stack : "";
  const escaped = source.file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const at = new RegExp(`\\(${escaped}:(\\d+)(?::(\\d+))?\\)`).exec(stack);
  const line = at ? Number(at[1]) : source.line;
  const name = typeof fields.name === "string" ? fields.name : "Error";
  const message = typeof fields.message === "string" ? fields.message : String(error);
  if (name === "InternalError" && message === "interrupted") {
    const failure = new ScriptError(
      `${source.file}:${line}: Script timed out after ${timeoutMs / 1000} s`,
    );
    failure.broken = true;
    return failure;
  }
  const failure = name === "InternalError" && /out of memory/i.test(message)
    ? new ScriptError(`${source.file}:${line}: Script ran out of memory`)
    : new ScriptError(`${source.file}:${line}: ${name}: ${message}`);
  // Out of memory, stack overflow: the engine's own failures leave the context unusable.
  failure.broken = name === "InternalError";
  return failure;
}
