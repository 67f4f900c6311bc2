/**
 * Debian's nginx serving a directory on 127.0.0.1, for tests against a server nobody here
 * wrote (Range, 206, 416, If-Range as nginx does them).
 * @module
 */
import { installed } from "../_process.ts";
import { waitFor } from "../_helpers.ts";
import { unusedPort } from "../_ports.ts";

/** A running nginx. */
export interface Nginx {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Whether nginx is installed. */
export const hasNginx: boolean = installed("/usr/sbin/nginx");

/**
 * Starts nginx in the foreground serving `root`. nginx cannot listen on port 0, so it gets a
 * port that was free a moment ago; it is ready when its master process logs nothing and the
 * port accepts a connection.
 *
 * @param root the directory to serve
 * @returns the running server
 */
export async function startNginx(root: string): Promise<Nginx> {
  const prefix = await Deno.makeTempDir({ prefix: "dial-nginx-" });
  const port = unusedPort();
  const conf = `${prefix}/nginx.conf`;
  await Deno.writeTextFile(
    conf,
    `daemon off;
${Deno.uid() === 0 ? "user root;\n" : ""}worker_processes 1;
pid ${prefix}/nginx.pid;
error_log stderr warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  default_type application/octet-stream;
  server {
    listen 127.0.0.1:${port};
    root ${root};
  }
}
`,
  );
  const child = new Deno.Command("/usr/sbin/nginx", {
    args: ["-p", prefix, "-c", conf, "-e", "stderr"],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = child.stderr.pipeThrough(new TextDecoderStream());
  const log = Array.fromAsync(stderr).then((parts) => parts.join(""));
  let exited = false;
  child.status.then(() => exited = true);
  await waitFor(async () => {
    if (exited) throw new Error(`nginx did not start: ${await log}`);
    return await Deno.connect({ hostname: "127.0.0.1", port }).then(
      (c) => (c.close(), true),
      () => false,
    );
  }, { message: "nginx to listen" });
  return {
    origin: `http://127.0.0.1:${port}`,
    async [Symbol.asyncDispose]() {
      child.kill("SIGQUIT");
      await child.status;
      await log;
      await Deno.remove(prefix, { recursive: true });
    },
  };
}
