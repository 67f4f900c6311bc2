/**
 * Programs other than dial in tests: servers run as child processes (python3, node, openssl)
 * and programs run to their end (curl, credential helpers, `runuser`).
 * @module
 */

const decoder = new TextDecoder();

/**
 * @param paths executables, e.g. `/usr/sbin/nginx`
 * @returns whether each is an installed file (tests that need one are ignored without it)
 */
export function installed(...paths: string[]): boolean {
  try {
    return paths.every((path) => Deno.statSync(path).isFile);
  } catch {
    return false;
  }
}

/** A finished program's exit code and output. */
export interface ProgramResult {
  code: number;
  stdout: string;
  stderr: string;
  stdoutBytes: Uint8Array;
}

/** Writes `stdin` to a child (then closes it) and collects its exit code and output. */
export async function finish(
  child: Deno.ChildProcess,
  stdin: string | Uint8Array | undefined,
): Promise<ProgramResult> {
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(typeof stdin === "string" ? new TextEncoder().encode(stdin) : stdin);
    await writer.close();
  }
  const output = await child.output();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
    stdoutBytes: output.stdout,
  };
}

/** A server run as a child process (python3, node, openssl), ready once it said so on stdout. */
export interface ChildServer {
  /** Its first line of output, without the newline (most print their port there). */
  line: string;
  /** Stops the child. */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts a server as a child process and waits until its stdout says it is ready: its first
 * line, or `ready` when given. If the child ends first, this fails (no endless wait). Disposing
 * stops the child.
 *
 * @param program the executable
 * @param args its arguments
 * @param options `ready`: what on its stdout says it is ready (default: a newline)
 * @returns the running server
 */
export async function childServer(
  program: string,
  args: string[],
  options: { ready?: RegExp } = {},
): Promise<ChildServer> {
  const child = new Deno.Command(program, {
    args,
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const stop = async () => {
    try {
      child.kill();
    } catch { /* already ended */ }
    await reader.cancel().catch(() => {});
    await child.status;
  };
  let text = "";
  while (!(options.ready ?? /\n/).test(text)) {
    const { value, done } = await reader.read();
    if (done) {
      await stop();
      throw new Error(`${program} ended before it was ready; it printed: ${text}`);
    }
    text += value;
  }
  return { line: text.split("\n")[0]!.trim(), [Symbol.asyncDispose]: stop };
}

/** Options for {@link runProgram}. */
export interface RunOptions {
  /** Text written to its stdin (then closed); without it, stdin is nothing. */
  stdin?: string;
  /** Variables added to the inherited environment, or the whole environment with `clearEnv`. */
  env?: Record<string, string>;
  /** Inherit nothing of this process's environment (with `dialEnv()`: dial's clean one). */
  clearEnv?: boolean;
  /** Working directory. */
  cwd?: string;
}

/**
 * Runs a program other than dial (curl, a credential helper, `runuser`, httpyac, a shell
 * pipeline around dial) to its end: its stdin is `stdin` (then closed) or nothing.
 *
 * @param program the executable (`curl`, `/bin/cat`, …)
 * @param args its arguments
 * @param options `stdin` to write, `env` to add (or alone, with `clearEnv`), `cwd`
 * @returns its exit code and output
 */
export async function runProgram(
  program: string,
  args: string[],
  options: RunOptions = {},
): Promise<ProgramResult> {
  const child = new Deno.Command(program, {
    args,
    ...(options.env ? { env: options.env } : {}),
    ...(options.clearEnv ? { clearEnv: true } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  return await finish(child, options.stdin);
}

/**
 * Starts Python's http.server (which knows no Range requests) serving a folder.
 *
 * @param dir the folder to serve
 * @returns its origin, `http://127.0.0.1:<port>`; disposing stops it
 */
export async function pythonFileServer(dir: string): Promise<{ origin: string } & AsyncDisposable> {
  const server = await childServer(
    "python3",
    ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", dir],
    { ready: /port (\d+)/ },
  );
  return {
    origin: `http://127.0.0.1:${/port (\d+)/.exec(server.line)![1]}`,
    [Symbol.asyncDispose]: () => server[Symbol.asyncDispose](),
  };
}
