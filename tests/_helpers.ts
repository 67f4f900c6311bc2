/**
 * Test helpers: run main.ts as a user would, start real servers on 127.0.0.1 port 0.
 * @module
 */

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
}

let home: string | undefined;

/** @returns a clean HOME for dial runs, made once per test process */
export function testHome(): string {
  return home ??= Deno.makeTempDirSync({ prefix: "dial-home-" });
}

/**
 * Runs `deno run -A main.ts …args` with a clean HOME/XDG_* and NO_COLOR=1.
 *
 * @param args the arguments after `dial`
 * @param options stdin, env, cwd
 * @returns exit code and output
 */
export async function dial(args: string[], options: DialOptions = {}): Promise<DialResult> {
  const h = options.env?.HOME ?? testHome();
  const command = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", MAIN, ...args],
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    clearEnv: true,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: h,
      XDG_CACHE_HOME: `${h}/.cache`,
      XDG_CONFIG_HOME: `${h}/.config`,
      DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`,
      NO_COLOR: "1",
      ...options.env,
    },
  });
  const child = command.spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(
      typeof options.stdin === "string" ? new TextEncoder().encode(options.stdin) : options.stdin,
    );
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
      requests.push(request.clone());
      return handler(request, info);
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
