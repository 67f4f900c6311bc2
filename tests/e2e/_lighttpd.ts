/**
 * Debian's lighttpd as an HTTP Digest gate (mod_auth with an htdigest file) in front of a
 * backend on 127.0.0.1, WebSocket upgrades proxied through (mod_proxy, `upgrade` enabled): a
 * Digest verifier nobody here wrote, for plain requests and WebSocket handshakes alike; and as
 * a static file server (byte ranges, for `-C`).
 * @module
 */
import { installed } from "../_process.ts";
import { unusedPort } from "../_ports.ts";

/** A running lighttpd. */
export interface Lighttpd {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The directory it serves: a file added while it runs is served too (a 512 MiB download). */
  root: string;
  /** lighttpd's error log so far (failed logins are logged there). */
  log(): string;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Whether lighttpd is installed. */
export const hasLighttpd: boolean = installed("/usr/sbin/lighttpd");

async function hex(algorithm: "MD5" | "SHA-256", text: string): Promise<string> {
  if (algorithm === "SHA-256") {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
    return new Uint8Array(digest).toHex();
  }
  // Web Crypto has no MD5: node:crypto does.
  const { createHash } = await import("node:crypto");
  return createHash("md5").update(text).digest("hex");
}

/**
 * Starts lighttpd demanding Digest (realm `dial`) for every path and proxying to `backend`.
 * lighttpd cannot listen on port 0, so it gets a port that was free a moment ago; it is ready
 * when it logs "server started".
 *
 * @param backend the port of the backend on 127.0.0.1
 * @param users user name to password
 * @param algorithm the Digest algorithm lighttpd asks for
 * @returns the running server
 */
export async function startDigestGate(
  backend: number,
  users: Record<string, string>,
  algorithm: "MD5" | "SHA-256" = "MD5",
): Promise<Lighttpd> {
  const dir = await Deno.makeTempDir({ prefix: "dial-lighttpd-" });
  const port = unusedPort();
  const lines = [];
  for (const [user, password] of Object.entries(users)) {
    lines.push(`${user}:dial:${await hex(algorithm, `${user}:dial:${password}`)}`);
  }
  await Deno.writeTextFile(`${dir}/htdigest`, lines.join("\n") + "\n");
  await Deno.writeTextFile(
    `${dir}/lighttpd.conf`,
    `server.modules = ("mod_auth", "mod_authn_file", "mod_proxy")
server.document-root = "${dir}"
server.bind = "127.0.0.1"
server.port = ${port}
server.errorlog = "/dev/stderr"
auth.backend = "htdigest"
auth.backend.htdigest.userfile = "${dir}/htdigest"
auth.require = ( "/" => ( "method" => "digest", "realm" => "dial", "require" => "valid-user", "algorithm" => "${algorithm}" ) )
proxy.server = ( "" => (( "host" => "127.0.0.1", "port" => ${backend} )))
proxy.header = ( "upgrade" => "enable" )
`,
  );
  return await run(dir, port, dir);
}

/**
 * Starts lighttpd serving the files of `files` (path → text) as they are, with byte ranges
 * (`Range:` → 206) as lighttpd serves static files; `.json` files as application/json.
 *
 * @param files the files, by path below the document root
 * @param settings more lines of lighttpd.conf (`server.max-keep-alive-requests = 1000`)
 * @returns the running server
 */
export async function startFileServer(
  files: Record<string, string>,
  settings: string[] = [],
): Promise<Lighttpd> {
  const dir = await Deno.makeTempDir({ prefix: "dial-lighttpd-" });
  const port = unusedPort();
  await Deno.mkdir(`${dir}/root`);
  for (const [path, text] of Object.entries(files)) {
    const file = `${dir}/root/${path}`;
    await Deno.mkdir(file.slice(0, file.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(file, text);
  }
  await Deno.writeTextFile(
    `${dir}/lighttpd.conf`,
    `server.document-root = "${dir}/root"
server.bind = "127.0.0.1"
server.port = ${port}
server.errorlog = "/dev/stderr"
mimetype.assign = ( ".json" => "application/json" )
${settings.map((line) => `${line}\n`).join("")}`,
  );
  return await run(dir, port, `${dir}/root`);
}

/** Runs lighttpd on `dir/lighttpd.conf` until it logs "server started". */
async function run(dir: string, port: number, root: string): Promise<Lighttpd> {
  const child = new Deno.Command("/usr/sbin/lighttpd", {
    args: ["-D", "-f", `${dir}/lighttpd.conf`],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let text = "";
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  while (!text.includes("server started")) {
    const { done, value } = await reader.read();
    if (done) {
      await child.status;
      throw new Error(`lighttpd did not start: ${text}`);
    }
    text += value;
  }
  // Keep reading its log (failed logins) until it exits.
  const rest = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      text += value;
    }
  })();
  return {
    origin: `http://127.0.0.1:${port}`,
    root,
    log: () => text,
    async [Symbol.asyncDispose]() {
      child.kill("SIGTERM");
      await child.status;
      await rest;
      await Deno.remove(dir, { recursive: true });
    },
  };
}
