/**
 * Test fixtures for TLS and proxies: certificates made with openssl (a private CA and its
 * leaf, a self-signed CA:TRUE leaf, a client certificate), TLS servers, and a small forward
 * proxy (CONNECT and absolute-form requests) that logs each request line.
 * @module
 */

/** PEM files in a temporary directory. */
export interface Certificates {
  dir: string;
  /** Private CA. */
  ca: string;
  /** Leaf for localhost/127.0.0.1 signed by the CA, and its key. */
  leaf: string;
  leafKey: string;
  /** Self-signed CA:TRUE certificate for localhost/127.0.0.1, as `openssl req -x509` makes it. */
  self: string;
  selfKey: string;
  /** Client certificate signed by the CA, and its key. */
  client: string;
  clientKey: string;
  /** Signed by the CA with the leaf's key: expired, and valid only for other.example. */
  expired: string;
  otherName: string;
}

async function openssl(args: string[], cwd: string): Promise<void> {
  const output = await new Deno.Command("openssl", { args, cwd, stdout: "null", stderr: "piped" })
    .output();
  if (!output.success) throw new Error(new TextDecoder().decode(output.stderr));
}

/** @returns fresh certificates, made with openssl */
export async function makeCertificates(): Promise<Certificates> {
  const dir = await Deno.makeTempDir({ prefix: "dial-tls-" });
  const san = "subjectAltName=DNS:localhost,IP:127.0.0.1";
  /** A self-signed (CA:TRUE) certificate `name.pem` and its key `name.key`, valid two days. */
  const selfSigned = (name: string, subject: string, extra: string[]) =>
    openssl(
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", `${name}.key`]
        .concat(["-out", `${name}.pem`, "-days", "2", "-subj", subject, ...extra]),
      dir,
    );
  await selfSigned("ca", "/CN=dial test CA", []);
  await Deno.writeTextFile(`${dir}/leaf.cnf`, `${san}\nbasicConstraints=CA:FALSE\n`);
  await Deno.writeTextFile(
    `${dir}/client.cnf`,
    "basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n",
  );
  for (const [name, cn] of [["leaf", "localhost"], ["client", "dial client"]]) {
    await openssl([
      "req",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      `${name}.key`,
      "-out",
      `${name}.csr`,
      "-subj",
      `/CN=${cn}`,
    ], dir);
    await openssl(
      [
        "x509",
        "-req",
        "-in",
        `${name}.csr`,
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        `${name}.pem`,
        "-days",
        "1",
        "-extfile",
        `${name}.cnf`,
      ],
      dir,
    );
  }
  await selfSigned("self", "/CN=localhost", ["-addext", san]);
  await Deno.writeTextFile(`${dir}/other.cnf`, "subjectAltName=DNS:other.example\n");
  for (const [out, days, ext] of [["expired", "-1", "leaf"], ["other", "1", "other"]]) {
    await openssl(
      ["x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-out", `${out}.pem`]
        .concat(["-days", days!, "-extfile", `${ext}.cnf`]),
      dir,
    );
  }
  return {
    dir,
    ca: `${dir}/ca.pem`,
    leaf: `${dir}/leaf.pem`,
    leafKey: `${dir}/leaf.key`,
    self: `${dir}/self.pem`,
    selfKey: `${dir}/self.key`,
    client: `${dir}/client.pem`,
    clientKey: `${dir}/client.key`,
    expired: `${dir}/expired.pem`,
    otherName: `${dir}/other.pem`,
  };
}

/** A forward proxy with a log of request lines. */
export interface TestProxy {
  port: number;
  /** Each request line. */
  log: string[];
  /** Each Proxy-Authorization value received. */
  credentials: string[];
  close(): Promise<void>;
}

/**
 * @param tls PEM certificate and key: the proxy itself speaks TLS (an `https://` proxy)
 * @returns a forward proxy on 127.0.0.1: CONNECT tunnels and absolute-form requests
 */
export function startProxy(tls?: { cert: string; key: string }): TestProxy {
  const listener: Deno.Listener = tls
    ? Deno.listenTls({ hostname: "127.0.0.1", port: 0, ...tls })
    : Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const log: string[] = [];
  const credentials: string[] = [];
  const open = new Set<Deno.Conn>();
  const tasks: Promise<void>[] = [];
  const loop = (async () => {
    for await (const conn of listener) {
      open.add(conn);
      tasks.push(
        handle(conn, { log, credentials }, open).catch(() => {}).finally(() => {
          open.delete(conn);
          try {
            conn.close();
          } catch { /* closed */ }
        }),
      );
    }
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    log,
    credentials,
    async close() {
      listener.close();
      for (const conn of open) {
        try {
          conn.close();
        } catch { /* closed */ }
      }
      await loop;
      await Promise.allSettled(tasks);
    },
  };
}

async function handle(
  conn: Deno.Conn,
  record: { log: string[]; credentials: string[] },
  open: Set<Deno.Conn>,
): Promise<void> {
  const reader = conn.readable.getReader();
  let buffered = new Uint8Array(0);
  let end = -1;
  while (end < 0) {
    const { value, done } = await reader.read();
    if (done) return;
    const next = new Uint8Array(buffered.length + value.length);
    next.set(buffered);
    next.set(value, buffered.length);
    buffered = next;
    end = new TextDecoder().decode(buffered).indexOf("\r\n\r\n");
  }
  const [line = "", ...headers] = new TextDecoder().decode(buffered.subarray(0, end)).split("\r\n");
  const rest = buffered.subarray(end + 4);
  reader.releaseLock();
  record.log.push(line);
  for (const header of headers) {
    const match = /^proxy-authorization:\s*(.*)$/i.exec(header);
    if (match) record.credentials.push(match[1]!);
  }
  const [method = "", target = "", version = "HTTP/1.1"] = line.split(" ");
  let upstream: Deno.Conn;
  const writer = conn.writable.getWriter();
  try {
    if (method === "CONNECT") {
      const at = target.lastIndexOf(":");
      upstream = await Deno.connect({
        hostname: target.slice(0, at),
        port: Number(target.slice(at + 1)),
      });
      await writer.write(new TextEncoder().encode("HTTP/1.1 200 Connection established\r\n\r\n"));
    } else {
      const url = new URL(target);
      upstream = await Deno.connect({ hostname: url.hostname, port: Number(url.port || 80) });
      const kept = headers.filter((h) => !/^proxy-/i.test(h));
      const head = [`${method} ${url.pathname}${url.search} ${version}`, ...kept].join("\r\n");
      await upstream.write(new TextEncoder().encode(head + "\r\n\r\n"));
    }
  } catch {
    await writer.write(
      new TextEncoder().encode("HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n"),
    );
    return;
  } finally {
    writer.releaseLock();
  }
  open.add(upstream);
  if (rest.length > 0) await upstream.write(rest);
  await Promise.allSettled([
    conn.readable.pipeTo(upstream.writable),
    upstream.readable.pipeTo(conn.writable),
  ]);
  open.delete(upstream);
}

/**
 * @param cert PEM path
 * @param key PEM path
 * @param handler the handler
 * @returns a Deno.serve TLS server on 127.0.0.1
 */
export function serveTls(
  cert: string,
  key: string,
  handler: (request: Request) => Response | Promise<Response>,
): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    cert: Deno.readTextFileSync(cert),
    key: Deno.readTextFileSync(key),
    onListen() {},
  }, handler);
}
