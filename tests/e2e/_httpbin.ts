/**
 * Debian's python3-httpbin (`apt-get install python3-httpbin`) served by Werkzeug on
 * 127.0.0.1 port 0, in a child process.
 * @module
 */

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
  const child = new Deno.Command("/usr/bin/python3", {
    args: ["-c", SCRIPT],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("httpbin did not start (is python3-httpbin installed?)");
    text += value;
  }
  reader.releaseLock();
  const port = Number(text.trim());
  return {
    origin: `http://127.0.0.1:${port}`,
    async [Symbol.asyncDispose]() {
      child.kill();
      await child.stdout.cancel().catch(() => {});
      await child.status;
    },
  };
}
