/**
 * The transport part of `deno task bench` (`--only http`): each case beside a bare Deno script
 * doing the same with `fetch` (the floor for any Deno program) and curl, on loopback:
 *
 * - cold start of one GET, plain HTTP and HTTPS through a private CA (the bare script trusts
 *   the same CA with `--cert`; the HTTPS server speaks HTTP/1.1 only, as Python's does);
 * - a 512 MiB download to `-o` and to a pipe (throughput and peak RSS);
 * - a 300 MB upload by `-T`, `-F` and `-d @file`;
 * - 1,000 chained requests of `dial test` to one origin, with the TCP connections counted by a
 *   relay in front of the server, beside a bare `fetch` loop;
 * - the CPU of one request on a kept-alive connection: dial's `send()` beside `fetch`, in one
 *   process (scripts/bench_keepalive.ts).
 * @module
 */

/** What bench.ts hands over. */
export interface HttpBenchContext {
  /** The dial command (the built CLI). */
  dial: string[];
  /** Runs a shell command under /usr/bin/time: wall ms and peak RSS. */
  timeShell: (
    command: string,
    options?: { env?: Record<string, string>; timeoutMs?: number },
  ) => Promise<{ ms: number; rssMb?: number; timedOut?: boolean }>;
  /** Runs a command: wall and CPU ms. */
  timeCpu: (args: string[], cwd: string) => Promise<{ ms: number; cpu?: number }>;
  /** Quotes arguments for a shell. */
  shell: (args: string[]) => string;
  /** Prints Markdown. */
  out: (text: string) => void;
  /** The environment of the children. */
  env: Record<string, string>;
  /** Fewer runs, smaller bodies. */
  quick: boolean;
}

const DENO = Deno.execPath();
const ROOT = new URL("../", import.meta.url).pathname;
const MiB = 1024 * 1024;

const FETCH_TO_FILE = `const r = await fetch(Deno.args[0]);
using f = await Deno.open(Deno.args[1], { write: true, create: true, truncate: true });
await r.body.pipeTo(f.writable);`;
const FETCH_TO_STDOUT = `const r = await fetch(Deno.args[0]);
await r.body.pipeTo(Deno.stdout.writable);`;
const FETCH_UPLOAD = `using f = await Deno.open(Deno.args[1]);
const r = await fetch(Deno.args[0], { method: "PUT", body: f.readable });
await r.body.cancel();`;
const FETCH_LOOP = `let next = 0;
for (let i = 0; i < Number(Deno.args[1]); i++) {
  const r = await fetch(\`\${Deno.args[0]}/step/\${next}\`);
  next = (await r.json()).next;
}`;
const PY_HTTPS = `import http.server, ssl, sys
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        self.send_response(200); self.send_header("Content-Length", "3"); self.end_headers()
        self.wfile.write(b"hi\\n")
    def log_message(self, *a): pass
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
c = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER); c.load_cert_chain(sys.argv[1], sys.argv[2])
s.socket = c.wrap_socket(s.socket, server_side=True)
print(s.server_address[1], flush=True)
s.serve_forever()`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const fmt = (ms: number) => ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`;

function which(name: string): boolean {
  return (Deno.env.get("PATH") ?? "").split(":").some((dir) => {
    try {
      return Deno.statSync(`${dir}/${name}`).isFile;
    } catch {
      return false;
    }
  });
}

async function openssl(dir: string, args: string[]): Promise<void> {
  const output = await new Deno.Command("openssl", { args, cwd: dir, stderr: "piped" }).output();
  if (!output.success) throw new Error(new TextDecoder().decode(output.stderr));
}

/** A private CA and a leaf for localhost signed by it. */
async function certificates(dir: string): Promise<void> {
  await openssl(dir, [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    "ca.key",
    "-out",
    "ca.pem",
    "-days",
    "2",
    "-subj",
    "/CN=dial bench CA",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
  ]);
  await openssl(dir, [
    "req",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    "leaf.key",
    "-out",
    "leaf.csr",
    "-subj",
    "/CN=localhost",
  ]);
  await Deno.writeTextFile(`${dir}/ext`, "subjectAltName=DNS:localhost,IP:127.0.0.1\n");
  await openssl(dir, [
    "x509",
    "-req",
    "-in",
    "leaf.csr",
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-out",
    "leaf.pem",
    "-days",
    "2",
    "-extfile",
    "ext",
  ]);
}

/** Waits until the kernel has written every dirty page to disk (`sync`). */
async function syncDisk(): Promise<void> {
  await new Deno.Command("sync", { stdin: "null", stdout: "null", stderr: "null" }).output();
}

/** Writes 2,000 MiB files to `path` one after another until stopped (a busy disk). */
function diskWriter(path: string): { stop(): Promise<void> } {
  let stopped = false;
  let child: Deno.ChildProcess | undefined;
  const loop = (async () => {
    while (!stopped) {
      child = new Deno.Command("dd", {
        args: ["if=/dev/zero", `of=${path}`, "bs=1M", "count=2000", "status=none"],
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).spawn();
      await child.status;
    }
  })();
  return {
    async stop() {
      stopped = true;
      try {
        child?.kill();
      } catch { /* it ended */ }
      await loop;
      await Deno.remove(path).catch(() => {});
    },
  };
}

/** A TCP relay that counts the connections it accepts. */
function countingRelay(backend: number) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let accepted = 0;
  const loop = (async () => {
    for await (const client of listener) {
      accepted++;
      (async () => {
        const server = await Deno.connect({ hostname: "127.0.0.1", port: backend });
        await Promise.allSettled([
          client.readable.pipeTo(server.writable),
          server.readable.pipeTo(client.writable),
        ]);
      })();
    }
  })();
  return {
    port: listener.addr.port,
    take() {
      const n = accepted;
      accepted = 0;
      return n;
    },
    close() {
      listener.close();
      return loop.catch(() => {});
    },
  };
}

/**
 * Runs the transport benchmarks and prints their tables.
 *
 * @param context the commands and printers of bench.ts
 */
export async function benchHttp(context: HttpBenchContext): Promise<void> {
  const { out, shell } = context;
  const dir = await Deno.makeTempDir({ prefix: "dial-bench-http-" });
  const script = async (name: string, text: string) => {
    await Deno.writeTextFile(`${dir}/${name}`, text);
    return [DENO, "run", "-A", "--quiet", "--no-config", `${dir}/${name}`];
  };
  const fetchToFile = await script("fetch_file.ts", FETCH_TO_FILE);
  const fetchToStdout = await script("fetch_stdout.ts", FETCH_TO_STDOUT);
  const fetchUpload = await script("fetch_upload.ts", FETCH_UPLOAD);
  const fetchLoop = await script("fetch_loop.ts", FETCH_LOOP);
  const fetchOnce = await script("fetch_once.ts", FETCH_TO_STDOUT);
  const curl = which("curl");
  const DOWNLOAD = (context.quick ? 64 : 512) * MiB;
  const UPLOAD = (context.quick ? 30 : 300) * 1000 * 1000;
  const chunk = new Uint8Array(MiB).fill(0x61);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.body) {
      let n = 0;
      for await (const part of req.body) n += part.length;
      return new Response(`${n}\n`);
    }
    if (url.pathname.startsWith("/step/")) {
      return Response.json({ next: Number(url.pathname.slice(6)) + 1 });
    }
    if (url.pathname === "/big") {
      let sent = 0;
      return new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent >= DOWNLOAD) return controller.close();
            sent += chunk.length;
            controller.enqueue(chunk);
          },
        }),
        { headers: { "content-length": `${DOWNLOAD}` } },
      );
    }
    return new Response("hi\n");
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const python = which("python3") && which("openssl");
  let https: Deno.ChildProcess | undefined;
  try {
    // --- cold start ---
    const starts = context.quick ? 5 : 21;
    const rows: Array<[string, string[]]> = [
      ["HTTP: bare Deno fetch", [...fetchOnce, `${origin}/`]],
      ["HTTP: dial GET", [...context.dial, "GET", `${origin}/`]],
    ];
    if (curl) rows.push(["HTTP: curl", ["curl", "-s", `${origin}/`]]);
    if (python) {
      await certificates(dir);
      https = new Deno.Command("python3", {
        args: ["-c", PY_HTTPS, `${dir}/leaf.pem`, `${dir}/leaf.key`],
        stdout: "piped",
        stderr: "null",
      }).spawn();
      const reader = https.stdout.pipeThrough(new TextDecoderStream()).getReader();
      const port = Number((await reader.read()).value?.trim());
      reader.releaseLock();
      const url = `https://localhost:${port}/`;
      rows.push(
        ["HTTPS: bare Deno fetch --cert ca.pem", [
          DENO,
          "run",
          "-A",
          "--quiet",
          "--no-config",
          "--cert",
          `${dir}/ca.pem`,
          `${dir}/fetch_once.ts`,
          url,
        ]],
        ["HTTPS: dial GET --cacert ca.pem", [
          ...context.dial,
          "GET",
          url,
          "--cacert",
          `${dir}/ca.pem`,
        ]],
      );
      if (curl) {
        rows.push(["HTTPS: curl --cacert", ["curl", "-s", "--cacert", `${dir}/ca.pem`, url]]);
      }
    }
    const times = new Map<string, Array<{ ms: number; cpu?: number }>>(rows.map(([n]) => [n, []]));
    for (const [, args] of rows) await context.timeCpu(args, dir);
    for (let i = 0; i < starts; i++) {
      for (const [name, args] of rows) times.get(name)!.push(await context.timeCpu(args, dir));
    }
    out(`\n### 7. Transport: cold start of one GET (median of ${starts}, interleaved)\n\n`);
    out("| case | wall | CPU | vs bare Deno (wall / CPU) |\n| --- | --- | --- | --- |\n");
    const med = (name: string) => {
      const list = times.get(name)!;
      return { ms: median(list.map((t) => t.ms)), cpu: median(list.map((t) => t.cpu ?? NaN)) };
    };
    for (const [name] of rows) {
      const m = med(name);
      const floor = med(
        name.startsWith("HTTPS") ? rows.find(([n]) => n.startsWith("HTTPS"))![0] : rows[0]![0],
      );
      out(
        `| ${name} | ${fmt(m.ms)} | ${fmt(m.cpu)} | ${(m.ms / floor.ms).toFixed(2)}× / ${
          (m.cpu / floor.cpu).toFixed(2)
        }× |\n`,
      );
    }
    const startVerdicts = rows.filter(([name]) => name.includes("dial")).map(([name]) => {
      const m = med(name);
      const https = name.startsWith("HTTPS");
      const floor = med(rows.find(([n]) => n.startsWith(https ? "HTTPS" : "HTTP:"))![0]);
      const goal = https ? 1.15 : 1.10;
      const [wall, cpu] = [m.ms / floor.ms, m.cpu / floor.cpu];
      return `${name} ${wall.toFixed(2)}× wall / ${cpu.toFixed(2)}× CPU: ${
        wall <= goal && cpu <= goal ? "met" : "NOT met"
      }`;
    });
    out(
      "\nGoals: HTTPS ≤ 1.15× the bare script trusting the same CA, HTTP ≤ 1.10×, wall and " +
        `CPU (${startVerdicts.join("; ")}).\n`,
    );

    // --- download ---
    const runs = context.quick ? 1 : 3;
    const file = `${dir}/out.bin`;
    const big = `${origin}/big`;
    const downloads: Array<[string, string]> = [
      ["bare Deno fetch → file", shell([...fetchToFile, big, file])],
      ["dial -o file", shell([...context.dial, "GET", big, "-o", file])],
      ["bare Deno fetch → pipe", `${shell([...fetchToStdout, big])} | cat > /dev/null`],
      ["dial → pipe", `${shell([...context.dial, "GET", big])} | cat > /dev/null`],
    ];
    if (curl) {
      downloads.push(["curl -s -o file", `curl -s -o ${file} ${big}`]);
      downloads.push(["curl -s → pipe", `curl -s ${big} | cat > /dev/null`]);
    }
    out(`\n### 8. Transport: a ${DOWNLOAD / MiB} MiB download (best of ${runs})\n\n`);
    out(
      "| case | time | MiB/s | peak RSS | throughput vs bare Deno |\n| --- | --- | --- | --- | --- |\n",
    );
    const results = new Map<string, { ms: number; rss: number }>();
    const timeDownloads = async (cases: Array<[string, string]>, settle: boolean) => {
      for (let i = 0; i < runs; i++) {
        // Every other round in reverse order: no case always follows the same one.
        for (const [name, command] of i % 2 ? cases.toReversed() : cases) {
          // Each run to a file starts with the disk written back: otherwise the one after a
          // 512 MiB write is throttled while the kernel writes the pages the one before left.
          if (settle && name.includes("file")) await syncDisk();
          const r = await context.timeShell(command, { env: context.env });
          const was = results.get(name);
          results.set(name, {
            ms: was ? Math.min(was.ms, r.ms) : r.ms,
            rss: Math.max(was?.rss ?? 0, r.rssMb ?? 0),
          });
        }
      }
    };
    await timeDownloads(downloads, true);
    // The same to a file while another process writes to the disk (a test suite, a build):
    // the kernel throttles every writer of the disk, and a write that stalls the reads shows.
    const busy = diskWriter(`${dir}/busy.bin`);
    try {
      await timeDownloads(
        downloads.slice(0, 2).map(([name, command]) => [`${name}, disk busy`, command]),
        false,
      );
    } finally {
      await busy.stop();
    }
    const downloadVerdicts: string[] = [];
    for (const [name, { ms, rss }] of results) {
      const floorName = name.includes("pipe")
        ? "bare Deno fetch → pipe"
        : name.includes("disk busy")
        ? "bare Deno fetch → file, disk busy"
        : "bare Deno fetch → file";
      const ratio = results.get(floorName)!.ms / ms;
      if (name.startsWith("dial")) {
        downloadVerdicts.push(
          `${name} ${ratio.toFixed(2)}×: ${ratio >= 0.95 && rss <= 64 ? "met" : "NOT met"}`,
        );
      }
      out(
        `| ${name} | ${fmt(ms)} | ${(DOWNLOAD / MiB / (ms / 1000)).toFixed(0)} | ${
          rss.toFixed(0)
        } MB | ${ratio.toFixed(2)}× |\n`,
      );
    }
    out(
      "\n(best of the runs; disk busy: `dd` writes 2,000 MiB files to the same disk meanwhile; " +
        `goal: ≥ 0.95× the bare script's throughput, peak RSS ≤ 64 MB: ${
          downloadVerdicts.join("; ")
        })\n`,
    );

    // --- upload ---
    const upload = `${dir}/upload.bin`;
    {
      using f = await Deno.open(upload, { write: true, create: true, truncate: true });
      for (let n = 0; n < UPLOAD; n += chunk.length) {
        f.writeSync(chunk.subarray(0, Math.min(chunk.length, UPLOAD - n)));
      }
    }
    const uploads: Array<[string, string]> = [
      ["bare Deno fetch PUT (file stream)", shell([...fetchUpload, `${origin}/up`, upload])],
      ["dial -T file", shell([...context.dial, "PUT", `${origin}/up`, "-T", upload])],
      ["dial -F f=@file", shell([...context.dial, "POST", `${origin}/up`, "-F", `f=@${upload}`])],
      ["dial -d @file", shell([...context.dial, "POST", `${origin}/up`, "-d", `@${upload}`])],
    ];
    if (curl) {
      uploads.push(["curl -T file", `curl -s -o /dev/null -T ${upload} ${origin}/up`]);
      uploads.push(["curl -F f=@file", `curl -s -o /dev/null -F f=@${upload} ${origin}/up`]);
      uploads.push([
        "curl --data-binary @file",
        `curl -s -o /dev/null --data-binary @${upload} ${origin}/up`,
      ]);
    }
    // Interleaved (each round runs every case once), so a burst of load hits every case alike.
    const uploadRuns = context.quick ? 1 : 5;
    const timings = new Map(uploads.map(([name]) => [name, [] as number[]]));
    const rss = new Map(uploads.map(([name]) => [name, 0]));
    for (let i = 0; i < uploadRuns; i++) {
      for (const [name, command] of uploads) {
        const r = await context.timeShell(command, { env: context.env });
        timings.get(name)!.push(r.ms);
        rss.set(name, Math.max(rss.get(name)!, r.rssMb ?? 0));
      }
    }
    const curlOf = (name: string) =>
      name.includes("-T")
        ? "curl -T file"
        : name.includes("-F")
        ? "curl -F f=@file"
        : "curl --data-binary @file";
    out(
      `\n### 9. Transport: a ${UPLOAD / 1e6} MB upload (median of ${uploadRuns} interleaved ` +
        "runs)\n\n| case | time | best | vs curl (median) | peak RSS |\n| --- | --- | --- | --- | --- |\n",
    );
    const verdicts: string[] = [];
    for (const [name] of uploads) {
      const ms = median(timings.get(name)!);
      const reference = curlOf(name);
      const versus = name.startsWith("dial") && timings.has(reference)
        ? ms / median(timings.get(reference)!)
        : undefined;
      if (versus !== undefined && !name.includes("-d")) {
        const met = versus <= 1.2 && rss.get(name)! <= 64;
        verdicts.push(`${name} ${versus.toFixed(2)}× ${reference}: ${met ? "met" : "NOT met"}`);
      }
      out(
        `| ${name} | ${fmt(ms)} | ${fmt(Math.min(...timings.get(name)!))} | ${
          versus === undefined ? "" : `${versus.toFixed(2)}×`
        } | ${rss.get(name)!.toFixed(0)} MB |\n`,
      );
    }
    out(
      `\nGoal: \`-T\`/\`-F\` ≤ 1.2× curl's time, peak RSS ≤ 64 MB${
        verdicts.length ? ` (${verdicts.join("; ")})` : ""
      }.\n`,
    );

    // --- 1,000 chained requests, connections counted ---
    const relay = countingRelay(server.addr.port);
    const via = `http://127.0.0.1:${relay.port}`;
    const n = 1000;
    let chain = "";
    for (let i = 0; i < n; i++) {
      chain += `### step ${i}\nGET ${via}/step/${i === 0 ? "0" : "{{next}}"}\n\n` +
        `> {%\n  client.global.set("next", response.body.next);\n` +
        `  client.test("step ${i}", function () { client.assert(response.status === 200); });\n%}\n\n`;
    }
    await Deno.writeTextFile(`${dir}/chain.http`, chain);
    out(`\n### 10. Transport: ${n} chained requests to one origin (best of ${runs})\n\n`);
    out("| runner | time | TCP connections |\n| --- | --- | --- |\n");
    for (
      const [name, command] of [
        ["bare Deno fetch loop", shell([...fetchLoop, via, String(n)])],
        [
          "dial test",
          shell([...context.dial, "test", `${dir}/chain.http`, "--reporter", "json"]) +
          " > /dev/null",
        ],
      ] as const
    ) {
      const list = [];
      let connections = 0;
      for (let i = 0; i < runs; i++) {
        list.push(await context.timeShell(command, { env: context.env }));
        connections = Math.max(connections, relay.take());
      }
      out(`| ${name} | ${fmt(Math.min(...list.map((r) => r.ms)))} | ${connections} |\n`);
    }
    out(`\nGoal: 1 TCP connection and ≤ 2× the bare loop's time.\n`);
    await relay.close();

    // --- the transport's CPU per kept-alive request (scripts/bench_keepalive.ts) ---
    const keepalive = await new Deno.Command(DENO, {
      args: ["run", "-A", "--quiet", "--no-check", "--config", `${ROOT}deno.json`]
        .concat(
          `${ROOT}scripts/bench_keepalive.ts`,
          `${origin}/`,
          "1000",
          context.quick ? "1" : "5",
        ),
      stdin: "null",
      stdout: "piped",
      stderr: "inherit",
    }).output();
    const cost = JSON.parse(new TextDecoder().decode(keepalive.stdout)) as {
      fetchUs: number;
      sendUs: number;
      connections: number;
    };
    out("\n### 11. Transport: CPU per request on one kept-alive connection (in process, ");
    out("1,000 requests a loop, loops taking turns, medians)\n\n");
    out("| loop | CPU per request | vs fetch |\n| --- | --- | --- |\n");
    out(`| bare Deno \`fetch\` | ${cost.fetchUs.toFixed(0)} µs | 1.00× |\n`);
    out(
      `| dial \`send()\` (${cost.connections} connection) | ${cost.sendUs.toFixed(0)} µs | ${
        (cost.sendUs / cost.fetchUs).toFixed(2)
      }× |\n`,
    );
  } finally {
    https?.kill();
    await https?.status;
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
}
