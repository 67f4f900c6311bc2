/**
 * Debian's python3-httpbin (`apt-get install python3-httpbin`) served by Werkzeug on
 * 127.0.0.1 port 0, in a child process.
 * @module
 */
import { childServer } from "../_process.ts";

const SCRIPT = `
import sys
from werkzeug.serving import make_server
from httpbin import app
server = make_server("127.0.0.1", 0, app, threaded=True)
print(server.server_port, flush=True)
server.serve_forever()
`;

/** A running httpbin. */
export interface Httpbin {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts httpbin with Debian's Python (whose dist-packages hold the package).
 *
 * @returns the running server
 */
export async function startHttpbin(): Promise<Httpbin> {
  // Fails at once when python3-httpbin is not installed (the child ends).
  const server = await childServer("/usr/bin/python3", ["-c", SCRIPT]);
  return Object.assign(server, { origin: `http://127.0.0.1:${Number(server.line)}` });
}
