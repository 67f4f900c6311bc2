/**
 * The greeter of the gRPC tests (`grpc_greeter/server.js`, on `@grpc/grpc-js`) as a child process.
 * @module
 */
import { childServer } from "../_process.ts";

const SERVER = new URL("./grpc_greeter/server.js", import.meta.url).pathname;
/** The greeter's own configuration: grpc-js and its packages stay out of tests/deno.lock. */
const CONFIG = new URL("./grpc_greeter/deno.json", import.meta.url).pathname;

/** The folder of the greeter's `.proto` files (greeter.proto imports common/types.proto). */
export const GREETER_PROTOS: string = new URL("./fixtures/grpc/protos/", import.meta.url).pathname;

/**
 * Copies the greeter's `.proto` files into a folder: `greeter.proto` into `into`, the
 * `common/types.proto` it imports into `imports` (another folder: an import path).
 *
 * @param dir the folder
 * @param into where greeter.proto goes, relative to it
 * @param imports where common/types.proto goes (default: beside greeter.proto)
 */
export async function copyGreeterProtos(dir: string, into: string, imports = into): Promise<void> {
  await Deno.mkdir(`${dir}/${into}`, { recursive: true });
  await Deno.mkdir(`${dir}/${imports}/common`, { recursive: true });
  await Deno.copyFile(`${GREETER_PROTOS}greeter.proto`, `${dir}/${into}/greeter.proto`);
  await Deno.copyFile(
    `${GREETER_PROTOS}common/types.proto`,
    `${dir}/${imports}/common/types.proto`,
  );
}

/** A running greeter. */
export interface Greeter {
  /** `127.0.0.1:port`, plaintext (h2c). */
  address: string;
  /** `127.0.0.1:port` with TLS, when started with `--tls` or `--grpc-tls`. */
  tlsAddress: string;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts the greeter.
 *
 * @param args `--no-reflection`, `--tls CERT KEY`, `--grpc-tls CERT KEY`
 * @returns the running server
 */
export async function startGreeter(...args: string[]): Promise<Greeter> {
  const child = await childServer(Deno.execPath(), [
    "run",
    "-A",
    "--quiet",
    "--config",
    CONFIG,
    SERVER,
    ...args,
  ]);
  const { port, tlsPort } = JSON.parse(child.line) as { port: number; tlsPort?: number };
  return {
    address: `127.0.0.1:${port}`,
    tlsAddress: `127.0.0.1:${tlsPort}`,
    [Symbol.asyncDispose]: () => child[Symbol.asyncDispose](),
  };
}
