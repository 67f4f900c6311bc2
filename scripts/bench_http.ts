/**
 * The transport part of `deno task bench` (`--only http`): each case beside a bare Deno script
 * doing the same with `fetch` (the floor for any Deno program) and curl, on loopback:
 *
 * - cold start of one GET, plain HTTP and HTTPS through a private CA (the bare script trusts
 *   the same CA with `--cert`; the HTTPS server speaks HTTP/1.1 only, as Python's does);
 * - a 512 MiB download from lighttpd to `-o` and to a pipe (throughput and peak RSS);
 * - a 300 MB upload by `-T`, `-F` and `-d @file`, the goal's rows in 21 interleaved rounds
 *   (`--only upload` runs it alone; `--beside DIR` adds another build's dial to its rounds);
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
  /** Another build's dial (`--beside DIR`), run beside this one's in section 9's rounds. */
  beside?: { label: string; dial: string[] };
}

import { hasLighttpd, startFileServer } from "../tests/e2e/_lighttpd.ts";
import { writeAll } from "../src/output/terminal.ts";

const DENO = Deno.execPath();
const ROOT = new URL("../", import.meta.url).pathname;
const MiB = 1024 * 1024;

const FETCH_TO_FILE = `const r = await fetch(Deno.args[0]);
using f = await Deno.open(Deno.args[1], { write: true, create: true, truncate: true });
await r.body.pipeTo(f.writable);`;
/** The bare script saving as dial's `-o` does: a new file, renamed over the old one at the end. */
const FETCH_TO_FILE_ATOMIC = `const r = await fetch(Deno.args[0]);
const temp = \`\${Deno.args[1]}.part\`;
{
  using f = await Deno.open(temp, { write: true, createNew: true });
  await r.body.pipeTo(f.writable);
}
await Deno.rename(temp, Deno.args[1]);`;
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

/** @returns the value at fraction `q` of the sorted values (linear between neighbours) */
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  return sorted[low]! + (sorted[Math.min(low + 1, sorted.length - 1)]! - sorted[low]!) * (at - low);
}

/**
 * The ratios of two cases run in the same rounds, round by round (`a[i] / b[i]`): a burst of
 * load hits both sides of a ratio alike, where the ratio of two medians can pair a quiet run
 * of one with a busy run of the other.
 *
 * @returns the median ratio and its interquartile range (the spread of the middle half)
 */
function pairedRatio(a: number[], b: number[]): { median: number; low: number; high: number } {
  const ratios = a.map((value, i) => value / b[i]!);
  return { median: median(ratios), low: quantile(ratios, 0.25), high: quantile(ratios, 0.75) };
}

const showRatio = (r: { median: number; low: number; high: number }) =>
  `${r.median.toFixed(2)}× (middle half ${r.low.toFixed(2)}–${r.high.toFixed(2)})`;

/** The load average now, as printed beside a section's numbers. */
const loadNow = () => Deno.loadavg().map((l) => l.toFixed(1)).join(" ");

/**
 * Runs every case once per round, every other round in reverse order, so no case always runs
 * after the same one and a burst of load lands on every case of its round.
 *
 * @returns each case's results, in round order
 */
async function interleaved<T>(
  names: string[],
  count: number,
  run: (name: string) => Promise<T>,
): Promise<Map<string, T[]>> {
  const results = new Map<string, T[]>(names.map((name) => [name, []]));
  for (let i = 0; i < count; i++) {
    for (const name of i % 2 ? names.toReversed() : names) results.get(name)!.push(await run(name));
  }
  return results;
}

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

/**
 * Writes `mib` MiB to a scratch file, writes it back and removes it, so that much page cache is
 * free again, memory the VM has just used. Memory left free for more than ~2 s was handed back
 * to the host (virtio-balloon free page reporting) and costs up to ~1 s of system time per
 * 512 MiB when a writer first touches it (docs/benchmarks.md, session 11); which writer got such
 * memory was a lottery that decided the download's ratio.
 */
async function freePageCache(path: string, mib: number): Promise<void> {
  const dd = await new Deno.Command("dd", {
    args: ["if=/dev/zero", `of=${path}`, "bs=1M", `count=${mib}`, "status=none"],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  await syncDisk();
  await Deno.remove(path).catch(() => {});
  if (!dd.success) {
    throw new Error(
      `Cannot write ${mib} MiB to ${path} (section 8 needs ~3 GiB free on that disk): ${
        new TextDecoder().decode(dd.stderr).trim()
      }`,
    );
  }
}

/**
 * Writes 1,000 MiB files to `path` one after another until stopped (a busy disk). A `dd` that
 * fails (a full disk) ends the writing; `stop` then says why.
 */
function diskWriter(path: string): { stop(): Promise<string | undefined> } {
  let stopped = false;
  let failure: string | undefined;
  let child: Deno.ChildProcess | undefined;
  const loop = (async () => {
    while (!stopped && !failure) {
      child = new Deno.Command("dd", {
        args: ["if=/dev/zero", `of=${path}`, "bs=1M", "count=1000", "status=none"],
        stdin: "null",
        stdout: "null",
        stderr: "piped",
      }).spawn();
      const { success, stderr } = await child.output();
      if (!success && !stopped) failure = new TextDecoder().decode(stderr).trim();
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
      return failure;
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

/** A case of section 8 and how each of its runs starts. */
interface DownloadCase {
  name: string;
  command: string;
  /**
   * file: a new file (the one before removed); replace: over the file the run before left;
   * pipe: to `cat`; busy: a new file while `dd` writes to the same disk.
   */
  kind: "file" | "replace" | "pipe" | "busy";
}

/** The scripts section 8 runs beside dial (their `deno run` commands). */
interface DownloadScripts {
  fetchToFile: string[];
  fetchToStdout: string[];
  fetchAtomic: string[];
}

/** The download's size: 512 MiB, 64 MiB for `--quick`. */
const downloadSize = (context: HttpBenchContext) => (context.quick ? 64 : 512) * MiB;

/** Each kind's floor: the bare script's case its ratio is taken against. */
const FLOORS: Record<DownloadCase["kind"], string> = {
  file: "bare Deno fetch → file",
  pipe: "bare Deno fetch → pipe",
  replace: "bare Deno fetch → file it truncates",
  busy: "bare Deno fetch → file, disk busy",
};

/**
 * Section 8: a download of `size` bytes from Debian's lighttpd (a static file sent with
 * `sendfile`, in a process of its own), the same for the bare script, dial and curl. The
 * goal's rows (to a new file and to a pipe, with curl beside them) run in 11 interleaved
 * rounds, every other one in reverse; replacing a file and a busy disk in 5. Each ratio is the
 * median of the rounds' own ratios (the bare script's time over the case's in the same round:
 * a burst of load hits both), printed with their middle half, the load before and after, and
 * the verdicts.
 *
 * Each run to a file starts with the disk written back (`sync`), the output of the run before
 * removed (every writer creates a new file) and twice the body's size of page cache just freed
 * ({@link freePageCache}), the same for every writer. Replacing an existing file is shown apart:
 * the bare script and curl truncate it as they open it, dial writes a new file and renames it
 * over the old one at the end (the file never lies), beside the bare script doing the same.
 */
async function benchDownload(
  context: HttpBenchContext,
  dir: string,
  size: number,
  scripts: DownloadScripts,
): Promise<void> {
  const { out, shell } = context;
  const title = `\n### 8. Transport: a ${size / MiB} MiB download from lighttpd`;
  if (!hasLighttpd) {
    out(`${title}\n\nSkipped: lighttpd is not installed (apt-get install lighttpd).\n`);
    return;
  }
  await using server = await startFileServer({});
  {
    using f = await Deno.open(`${server.root}/big.bin`, { write: true, createNew: true });
    const chunk = new Uint8Array(MiB).map((_, i) => (i * 31) & 0xff);
    for (let n = 0; n < size; n += MiB) await writeAll(f, chunk);
  }
  const url = `${server.origin}/big.bin`;
  const file = `${dir}/download.bin`;
  const dial = (...args: string[]) => shell([...context.dial, "GET", url, ...args]);
  const curl = which("curl")
    ? (...args: string[]) => shell(["curl", "-s", ...args, url])
    : undefined;
  const toPipe = (command: string) => `${command} | cat > /dev/null`;
  const goal: DownloadCase[] = [
    { name: FLOORS.file, command: shell([...scripts.fetchToFile, url, file]), kind: "file" },
    { name: "dial -o file", command: dial("-o", file), kind: "file" },
    ...curl ? [{ name: "curl -s -o file", command: curl("-o", file), kind: "file" as const }] : [],
    { name: FLOORS.pipe, command: toPipe(shell([...scripts.fetchToStdout, url])), kind: "pipe" },
    { name: "dial → pipe", command: toPipe(dial()), kind: "pipe" },
    ...curl ? [{ name: "curl -s → pipe", command: toPipe(curl()), kind: "pipe" as const }] : [],
  ];
  const apart: DownloadCase[] = [
    { name: FLOORS.replace, command: shell([...scripts.fetchToFile, url, file]), kind: "replace" },
    {
      name: "bare Deno fetch → new file renamed over it",
      command: shell([...scripts.fetchAtomic, url, file]),
      kind: "replace",
    },
    { name: "dial -o over the file", command: dial("-o", file), kind: "replace" },
    ...curl
      ? [{ name: "curl -s -o over the file", command: curl("-o", file), kind: "replace" as const }]
      : [],
  ];
  const busyCases: DownloadCase[] = goal.filter((c) => c.kind === "file").slice(0, 2)
    .map((c) => ({ ...c, name: `${c.name}, disk busy`, kind: "busy" }));
  const rss = new Map<string, number>();
  const load = { goal: "", apart: "" };
  // One run of a case, after its kind's preparation: wall ms (peak RSS kept apart).
  const run = async (kase: DownloadCase) => {
    if (kase.kind !== "busy") await syncDisk();
    if (kase.kind === "replace") {
      // The file a download before left, written back and in the page cache.
      if (!await Deno.stat(file).then(() => true, () => false)) {
        await Deno.copyFile(`${server.root}/big.bin`, file);
        await syncDisk();
      }
    } else await Deno.remove(file).catch(() => {});
    if (kase.kind === "file" || kase.kind === "replace") {
      await freePageCache(`${dir}/scratch.bin`, (2 * size) / MiB);
    }
    const r = await context.timeShell(kase.command, { env: context.env });
    rss.set(kase.name, Math.max(rss.get(kase.name) ?? 0, r.rssMb ?? 0));
    return r.ms;
  };
  const timeAll = async (cases: DownloadCase[], rounds: number) => {
    const byName = new Map(cases.map((c) => [c.name, c]));
    return await interleaved(cases.map((c) => c.name), rounds, (name) => run(byName.get(name)!));
  };
  const goalRounds = context.quick ? 1 : 11;
  const apartRounds = context.quick ? 1 : 5;
  let busyFailed: string | undefined;
  let times: Map<string, number[]>;
  try {
    const before = loadNow();
    times = await timeAll(goal, goalRounds);
    load.goal = `${before} → ${loadNow()}`;
    const apartBefore = loadNow();
    for (const [name, ms] of await timeAll(apart, apartRounds)) times.set(name, ms);
    // To a file while another process writes to the disk (a test suite, a build): the kernel
    // throttles every writer of the disk, and a write that stalls the reads shows.
    const busy = diskWriter(`${dir}/busy.bin`);
    try {
      for (const [name, ms] of await timeAll(busyCases, apartRounds)) times.set(name, ms);
    } finally {
      busyFailed = await busy.stop();
    }
    load.apart = `${apartBefore} → ${loadNow()}`;
  } finally {
    await Deno.remove(file).catch(() => {});
  }
  const table = (cases: DownloadCase[], rounds: number, loads: string) => {
    out(
      `${title}: ${
        cases[0]!.kind === "file" ? "the goal's rows" : "a file replaced, a busy disk"
      }` +
        ` (${rounds} interleaved rounds, medians; load ${loads})\n\n`,
    );
    out("| case | median | best | MiB/s | peak RSS | throughput vs bare Deno, round by round |\n");
    out("| --- | --- | --- | --- | --- | --- |\n");
    for (const kase of cases) {
      const ms = times.get(kase.name)!;
      const floor = FLOORS[kase.kind];
      out(
        `| ${kase.name} | ${fmt(median(ms))} | ${fmt(Math.min(...ms))} | ${
          (size / MiB / (median(ms) / 1000)).toFixed(0)
        } | ${rss.get(kase.name)!.toFixed(0)} MB | ${
          kase.name === floor ? "" : showRatio(pairedRatio(times.get(floor)!, ms))
        } |\n`,
      );
    }
  };
  // The goal: ≥ 0.95× the bare script's throughput, peak RSS ≤ 64 MB.
  const verdict = (name: string, floor: string) => {
    const ratio = pairedRatio(times.get(floor)!, times.get(name)!);
    const met = ratio.median >= 0.95 && rss.get(name)! <= 64;
    const edge = met && ratio.low < 0.95 ? ", its middle half reaching below it" : "";
    return `${name} ${showRatio(ratio)}, ${rss.get(name)!.toFixed(0)} MB: ${
      met ? "met" : "NOT met"
    }${edge}`;
  };
  table(goal, goalRounds, load.goal);
  out(
    "\nGoal: ≥ 0.95× the bare script's throughput to a file and to a pipe, peak RSS ≤ 64 MB, by " +
      `the median of the rounds' ratios (${verdict("dial -o file", FLOORS.file)}; ${
        verdict("dial → pipe", FLOORS.pipe)
      }). Each run to a file starts after \`sync\` with the output before removed (every ` +
      "writer makes a new file) and twice the body's size of page cache just freed (on this " +
      "VM, memory free for longer was handed back to the host and costs system time when " +
      "first written: docs/benchmarks.md, session 11).\n",
  );
  table([...apart, ...busyCases], apartRounds, load.apart);
  out(
    "\nNot the goal's rows. Over the file: the bare script and curl truncate it as they open " +
      "it, dial (and the bare script's rename row) writes a new file and renames it over the " +
      "old one. Disk busy: `dd` writes 1,000 MiB files to the same disk meanwhile" +
      `${busyFailed ? ` (it failed: ${busyFailed}; those rows are no measure)` : ""}.\n`,
  );
}

/**
 * Section 8 alone (`deno task bench --only download`): the 512 MiB download and its verdicts.
 *
 * @param context the commands and printers of bench.ts
 */
export async function benchDownloadOnly(context: HttpBenchContext): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "dial-bench-http-" });
  try {
    await benchDownload(
      context,
      dir,
      downloadSize(context),
      await downloadScripts(dir),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The upload's size: 300 MB, 30 MB for `--quick`. */
const uploadSize = (context: HttpBenchContext) => (context.quick ? 30 : 300) * 1000 * 1000;

/** The upload sink's answer: how many body bytes arrived (read as they come, nothing kept). */
async function countBody(request: Request): Promise<Response> {
  let n = 0;
  for await (const part of request.body!) n += part.length;
  return new Response(`${n}\n`);
}

/**
 * Said after section 9's verdict when the load passed twice the number of CPUs: dial takes more
 * CPU than curl (Deno's start, the runtime's socket writes), so other jobs stretch its runs
 * more; two builds of the same code read 1.15× and 1.82× in one run at load 8–12, where at
 * load 3–5 the rows' middle halves were 1.04–1.20× (docs/benchmarks.md, session 14).
 */
const NOT_QUIET = ", but the load passed twice the number of CPUs: not a quiet run, no measure " +
  "of the goal (dial's runs stretch more than curl's when other jobs take the CPUs)";

/** A row of section 9: its command, and the curl row its ratio is taken against. */
interface UploadCase {
  name: string;
  command: string;
  versus?: string;
  /** A row of the other build (`--beside`): shown, not judged. */
  beside?: boolean;
}

/**
 * Section 9's rows: the goal's (`-T` and `-F`, each dial row right after its curl row, so a
 * round's burst of load hits both; with {@link HttpBenchContext.beside}, that build's rows
 * after this one's) and the rest (the bare script, `-d @file`).
 */
function uploadCases(
  context: HttpBenchContext,
  url: string,
  file: string,
  fetchUpload: string[],
): { goal: UploadCase[]; apart: UploadCase[] } {
  const { shell } = context;
  const dials: Array<[string, string[], boolean]> = [["dial", context.dial, false]];
  if (context.beside) dials.push([`dial (${context.beside.label})`, context.beside.dial, true]);
  const curl = (flags: string) => `curl -s -o /dev/null ${flags} ${shell([url])}`;
  const pair = (curlName: string, curlFlags: string, flag: string, args: string[]) => [
    { name: curlName, command: curl(curlFlags) },
    ...dials.map(([label, dial, beside]) => ({
      name: `${label} ${flag}`,
      command: shell([...dial, ...args]),
      versus: curlName,
      ...beside ? { beside } : {},
    })),
  ];
  return {
    goal: [
      ...pair("curl -T file", `-T ${shell([file])}`, "-T file", ["PUT", url, "-T", file]),
      ...pair("curl -F f=@file", `-F ${shell([`f=@${file}`])}`, "-F f=@file", [
        "POST",
        url,
        "-F",
        `f=@${file}`,
      ]),
    ],
    apart: [
      { name: "bare Deno fetch PUT (file stream)", command: shell([...fetchUpload, url, file]) },
      ...pair("curl --data-binary @file", `--data-binary @${shell([file])}`, "-d @file", [
        "POST",
        url,
        "-d",
        `@${file}`,
      ]),
    ],
  };
}

/**
 * Section 9: a `size`-byte upload from a file to a Deno server in the bench's process that
 * counts the body's bytes (the same sink for every client), by `-T`, `-F` and `-d @file`, beside
 * curl and the bare script. One run of every row first, untimed (the built CLI's code cache, the
 * file in the page cache); then the goal's rows in 21 interleaved rounds, every other one in
 * reverse, the rest in 5. Each ratio is the median of the rounds' own ratios (dial's time over
 * curl's of the same round), printed with their middle half, the load before and after, and
 * the verdict. An upload takes ~0.25 s on a quiet machine, so 21 rounds cost ~20 s; at load 10,
 * 11 rounds of two builds of the same code read 1.30× and 1.09× (docs/benchmarks.md, session 14).
 */
async function benchUpload(
  context: HttpBenchContext,
  dir: string,
  size: number,
  fetchUpload: string[],
): Promise<void> {
  const { out } = context;
  const title = `\n### 9. Transport: a ${size / 1e6} MB upload`;
  if (!which("curl")) {
    out(`${title}\n\nSkipped: curl is not installed (the goal's reference).\n`);
    return;
  }
  const file = `${dir}/upload.bin`;
  {
    using f = await Deno.open(file, { write: true, create: true, truncate: true });
    const chunk = new Uint8Array(MiB).fill(0x61);
    for (let n = 0; n < size; n += chunk.length) {
      await writeAll(f, chunk.subarray(0, Math.min(chunk.length, size - n)));
    }
  }
  await using sink = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, countBody);
  const url = `http://127.0.0.1:${sink.addr.port}/up`;
  const { goal, apart } = uploadCases(context, url, file, fetchUpload);
  const results = new Map<string, Array<{ ms: number; rssMb?: number }>>();
  const run = (kase: UploadCase) => context.timeShell(kase.command, { env: context.env });
  const timeAll = async (cases: UploadCase[], rounds: number) => {
    for (const kase of cases) await run(kase);
    const byName = new Map(cases.map((c) => [c.name, c]));
    const before = { text: loadNow(), load: Deno.loadavg()[0]! };
    const times = await interleaved([...byName.keys()], rounds, (name) => run(byName.get(name)!));
    for (const [name, list] of times) results.set(name, list);
    return {
      text: `${before.text} → ${loadNow()}`,
      quiet: Math.max(before.load, Deno.loadavg()[0]!) <= 2 * navigator.hardwareConcurrency,
    };
  };
  const goalRounds = context.quick ? 1 : 21;
  const apartRounds = context.quick ? 1 : 5;
  try {
    const goalLoad = await timeAll(goal, goalRounds);
    const apartLoad = await timeAll(apart, apartRounds);
    const ms = (name: string) => results.get(name)!.map((r) => r.ms);
    const rss = (name: string) => Math.max(...results.get(name)!.map((r) => r.rssMb ?? 0));
    const table = (cases: UploadCase[], heading: string) => {
      out(`${title}: ${heading}\n\n`);
      out("| case | median | best | vs curl, round by round | peak RSS |\n");
      out("| --- | --- | --- | --- | --- |\n");
      for (const { name, versus } of cases) {
        const ratio = versus ? showRatio(pairedRatio(ms(name), ms(versus))) : "";
        out(
          `| ${name} | ${fmt(median(ms(name)))} | ${fmt(Math.min(...ms(name)))} | ${ratio} | ${
            rss(name).toFixed(0)
          } MB |\n`,
        );
      }
    };
    table(
      goal,
      `the goal's rows (${goalRounds} interleaved rounds, medians; load ${goalLoad.text})`,
    );
    // The goal: ≤ 1.2× curl's time, peak RSS ≤ 64 MB.
    const verdicts = goal.filter((c) => c.versus && !c.beside).map(({ name, versus }) => {
      const ratio = pairedRatio(ms(name), ms(versus!));
      const met = ratio.median <= 1.2 && rss(name) <= 64;
      const edge = met && ratio.high > 1.2 ? ", its middle half reaching past it" : "";
      return {
        met,
        text: `${name} ${showRatio(ratio)}, ${rss(name).toFixed(0)} MB: ${
          met ? "met" : "NOT met"
        }${edge}`,
      };
    });
    out(
      "\nGoal: `-T`/`-F` ≤ 1.2× curl's time, peak RSS ≤ 64 MB, by the median of the rounds' " +
        `ratios (${verdicts.map((v) => v.text).join("; ")}). Verdict: ${
          verdicts.every((v) => v.met) ? "met" : "NOT met"
        }${goalLoad.quiet ? "" : NOT_QUIET}.\n`,
    );
    table(apart, `not the goal's rows (${apartRounds} interleaved rounds; load ${apartLoad.text})`);
    out(
      "\nThe bare script sends the file's stream chunked; curl `--data-binary` reads the whole " +
        "file into memory before sending it.\n",
    );
  } finally {
    await Deno.remove(file).catch(() => {});
  }
}

/**
 * Section 9 alone (`deno task bench --only upload`): the 300 MB upload and its verdict.
 *
 * @param context the commands and printers of bench.ts
 */
export async function benchUploadOnly(context: HttpBenchContext): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "dial-bench-http-" });
  try {
    const fetchUpload = await scriptWriter(dir)("fetch_upload.ts", FETCH_UPLOAD);
    await benchUpload(context, dir, uploadSize(context), fetchUpload);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * @param dir where the bare scripts go
 * @returns a writer of one bare script, giving the command that runs it
 */
function scriptWriter(dir: string): (name: string, text: string) => Promise<string[]> {
  return async (name, text) => {
    await Deno.writeTextFile(`${dir}/${name}`, text);
    return [DENO, "run", "-A", "--quiet", "--no-config", `${dir}/${name}`];
  };
}

/** Writes the bare scripts of section 8 into `dir`. */
async function downloadScripts(dir: string): Promise<DownloadScripts> {
  const script = scriptWriter(dir);
  return {
    fetchToFile: await script("fetch_file.ts", FETCH_TO_FILE),
    fetchToStdout: await script("fetch_stdout.ts", FETCH_TO_STDOUT),
    fetchAtomic: await script("fetch_atomic.ts", FETCH_TO_FILE_ATOMIC),
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
  const script = scriptWriter(dir);
  const downloads = await downloadScripts(dir);
  const fetchUpload = await script("fetch_upload.ts", FETCH_UPLOAD);
  const fetchLoop = await script("fetch_loop.ts", FETCH_LOOP);
  const fetchOnce = await script("fetch_once.ts", FETCH_TO_STDOUT);
  const curl = which("curl");
  const DOWNLOAD = downloadSize(context);
  const UPLOAD = uploadSize(context);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.body) return await countBody(req);
    if (url.pathname.startsWith("/step/")) {
      return Response.json({ next: Number(url.pathname.slice(6)) + 1 });
    }
    return new Response("hi\n");
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const python = which("python3") && which("openssl");
  let https: Deno.ChildProcess | undefined;
  try {
    // --- cold start ---
    const starts = context.quick ? 5 : 31;
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
    const coldLoad = loadNow();
    for (const [, args] of rows) await context.timeCpu(args, dir);
    const argsOf = new Map(rows);
    const times = await interleaved(
      rows.map(([name]) => name),
      starts,
      (name) => context.timeCpu(argsOf.get(name)!, dir),
    );
    const floorOf = (name: string) =>
      rows.find(([n]) => n.startsWith(name.startsWith("HTTPS") ? "HTTPS" : "HTTP:"))![0];
    const walls = (name: string) => times.get(name)!.map((t) => t.ms);
    const cpus = (name: string) => times.get(name)!.map((t) => t.cpu ?? NaN);
    out(
      `\n### 7. Transport: cold start of one GET (${starts} interleaved rounds, medians; load ` +
        `${coldLoad} → ${loadNow()})\n\n`,
    );
    out("| case | wall | CPU | vs bare Deno, wall | vs bare Deno, CPU |\n");
    out("| --- | --- | --- | --- | --- |\n");
    const startVerdicts: string[] = [];
    for (const [name] of rows) {
      const floor = floorOf(name);
      const wall = pairedRatio(walls(name), walls(floor));
      const cpu = pairedRatio(cpus(name), cpus(floor));
      out(
        `| ${name} | ${fmt(median(walls(name)))} | ${fmt(median(cpus(name)))} | ${
          showRatio(wall)
        } | ${showRatio(cpu)} |\n`,
      );
      if (!name.includes("dial")) continue;
      const goal = name.startsWith("HTTPS") ? 1.15 : 1.10;
      const met = wall.median <= goal && cpu.median <= goal;
      const edge = met && Math.max(wall.high, cpu.high) > goal
        ? ", its middle half reaching past it"
        : "";
      startVerdicts.push(
        `${name} ${wall.median.toFixed(2)}× wall / ${cpu.median.toFixed(2)}× CPU: ${
          met ? "met" : "NOT met"
        }${edge}`,
      );
    }
    out(
      "\nGoals: HTTPS ≤ 1.15× the bare script trusting the same CA, HTTP ≤ 1.10×, wall and " +
        `CPU, by the median of the rounds' ratios (${startVerdicts.join("; ")}).\n`,
    );

    // --- download ---
    await benchDownload(context, dir, DOWNLOAD, downloads);
    const runs = context.quick ? 1 : 3;

    // --- upload ---
    await benchUpload(context, dir, UPLOAD, fetchUpload);

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
    out(
      `\n### 10. Transport: ${n} chained requests to one origin, a JetBrains handler each (best of ${runs})\n\n`,
    );
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
    out(
      "\nGoals: 1 TCP connection (issue 35); ≤ 2× the bare loop's time with a handler each " +
        "(issue 37; issue 35's chain without scripts is `deno task bench --only files`).\n",
    );
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
