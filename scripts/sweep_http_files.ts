/**
 * Side-by-side sweep of request files nobody here wrote: each `.http`/`.rest` file (and the
 * files beside it) is copied with every absolute `http(s)://host` rewritten to a loopback
 * relay in front of Debian's python3-httpbin, then run by httpyac 6.16.7 (npm) and by dial
 * (`dial test --reporter json`). The relay keeps the bytes each tool put on the wire; the table
 * compares the requests (line, headers other than each tool's defaults, body) and, request by
 * request, the outcome of every test both tools report (httpyac's `??` lines, `client.test`).
 *
 *   deno run -A --config tests/deno.json scripts/sweep_http_files.ts DIR_OR_FILE… [--json FILE]
 *     [--reuse FILE] [--dial PATH/main.ts] [--setenv NAME=VALUE]…
 *
 * `--json` keeps every row (both runs); `--reuse` takes httpyac's runs from such a file (its side
 * does not change between two dial versions); `--dial` runs another checkout's main.ts;
 * `--setenv` gives both tools a process environment variable the files read (`ORIGIN` in VALUE
 * is the relay's origin). Each file runs from the top folder below DIR (a repository's root).
 *
 * Every origin is rewritten: absolute URLs, loopback authorities without a scheme
 * (`@host = localhost:5000`), and `https://{{var}}` becomes `http://{{var}}`. A file whose
 * host is a variable naming another machine would still reach for it: run the sweep in a
 * network namespace with only loopback (`unshare -n sh -c 'ip link set lo up && deno run …'`),
 * where it reaches nothing but 127.0.0.1. JetBrains' environments: a file below an
 * `http-client.env.json` runs in that file's first environment (`--env` / httpyac `-e`), as a
 * JetBrains user picks one. A development tool, not part of the test suite (the files it reads
 * are not in the repository).
 * @module
 */
import { startHttpbin } from "../tests/e2e/_httpbin.ts";
import { dialEnv } from "../tests/_helpers.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
/** Headers each tool adds by itself: not compared. */
const DEFAULTS = new Set([
  "user-agent",
  "accept-encoding",
  "accept",
  "accept-language",
  "connection",
  "host",
  "content-length",
  "transfer-encoding",
  "keep-alive",
]);
const TIMEOUT_MS = 90_000;

function out(text: string): void {
  Deno.stdout.writeSync(new TextEncoder().encode(`${text}\n`));
}

/** One request as it went on the wire. */
interface Wire {
  line: string;
  headers: string[];
  body: string;
}

/** One tool's run of a file. */
interface Run {
  code: number | "timeout";
  wire: Wire[];
  /** The requests it ran, in order. */
  requestNames: string[];
  /** Per request (in order), its tests: name and passed. */
  tests: { request: string; name: string; passed: boolean; skipped?: boolean }[];
  error?: string;
}

/** The relay: every connection's client bytes, kept with their order of arrival. */
function relay(target: number) {
  let seq = 0;
  let streams: { chunks: { seq: number; bytes: Uint8Array }[] }[] = [];
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open = new Set<Deno.Conn>();
  const loop = (async () => {
    for await (const client of listener) {
      open.add(client);
      const stream = { chunks: [] as { seq: number; bytes: Uint8Array }[] };
      streams.push(stream);
      (async () => {
        const server = await Deno.connect({ hostname: "127.0.0.1", port: target });
        open.add(server);
        const up = (async () => {
          const buffer = new Uint8Array(65536);
          for (;;) {
            const n = await client.read(buffer).catch(() => null);
            if (n === null) break;
            stream.chunks.push({ seq: seq++, bytes: buffer.slice(0, n) });
            await server.write(buffer.subarray(0, n)).catch(() => {});
          }
          await server.closeWrite().catch(() => {});
        })();
        const down = client.writable && server.readable.pipeTo(client.writable).catch(() => {});
        await Promise.allSettled([up, down]);
      })().catch(() => {}).finally(() => {
        for (const conn of [client]) {
          open.delete(conn);
          try {
            conn.close();
          } catch { /* closed */ }
        }
      });
    }
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    /** The requests seen since the last call, in order of their first byte (the relay's origin as `ORIGIN`). */
    take(origin = ""): Wire[] {
      const seen = streams.flatMap((s) => parseStream(s.chunks));
      streams = [];
      const named = (text: string) => origin ? text.replaceAll(origin, "ORIGIN") : text;
      return seen.sort((a, b) => a.seq - b.seq).map(({ wire }) => ({
        line: named(wire.line),
        headers: wire.headers.map(named),
        body: named(wire.body),
      }));
    },
    async close() {
      listener.close();
      for (const conn of open) {
        try {
          conn.close();
        } catch { /* closed */ }
      }
      await loop;
    },
  };
}

/** Splits one connection's bytes into HTTP/1.1 requests. */
function parseStream(chunks: { seq: number; bytes: Uint8Array }[]) {
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.bytes.byteLength, 0));
  const seqAt: number[] = [];
  let at = 0;
  for (const c of chunks) {
    all.set(c.bytes, at);
    for (let i = 0; i < c.bytes.byteLength; i++) seqAt.push(c.seq);
    at += c.bytes.byteLength;
  }
  const text = Array.from(all, (b) => String.fromCharCode(b)).join("");
  const out: { seq: number; wire: Wire }[] = [];
  let pos = 0;
  while (pos < text.length) {
    const end = text.indexOf("\r\n\r\n", pos);
    if (end < 0) break;
    const [line = "", ...lines] = text.slice(pos, end).split("\r\n");
    const headers = lines.map((l) => {
      const i = l.indexOf(":");
      return [l.slice(0, i).toLowerCase(), l.slice(i + 1).trim()] as const;
    });
    const get = (name: string) => headers.find(([n]) => n === name)?.[1];
    let body = "";
    let next = end + 4;
    if (get("transfer-encoding")?.toLowerCase() === "chunked") {
      for (;;) {
        const eol = text.indexOf("\r\n", next);
        if (eol < 0) break;
        const size = parseInt(text.slice(next, eol), 16);
        next = eol + 2;
        if (!size) {
          next += 2;
          break;
        }
        body += text.slice(next, next + size);
        next += size + 2;
      }
    } else {
      const length = Number(get("content-length") ?? 0);
      body = text.slice(next, next + length);
      next += length;
    }
    out.push({
      seq: seqAt[pos] ?? 0,
      wire: {
        line,
        headers: headers.filter(([n]) => !DEFAULTS.has(n)).map(([n, v]) => `${n}: ${v}`).sort(),
        body: utf8(body),
      },
    });
    pos = next;
  }
  return out;
}

function utf8(latin: string): string {
  const bytes = Uint8Array.from(latin, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

const TEXT = /\.(http|rest|json|env|js|txt|xml|graphql|gql)$/i;
const URL_ORIGIN = /\b(https?):\/\/(?!\{\{)([A-Za-z0-9.-]+|\[[0-9a-fA-F:]+\])(:\d+)?/g;
/**
 * A loopback authority with a port but without a scheme (`@host = localhost:5000`,
 * `"host": "127.0.0.1:8080"`); without a port (`"localhost": {…}` names an environment, and
 * `http://{{host}}:8080` adds its own) it is left alone.
 */
const BARE_LOOPBACK = /(?<![\w/.@-])(localhost|127\.0\.0\.1|0\.0\.0\.0):\d+(?![\w.-])/g;
/** `https://{{host}}`: the host comes from a variable, rewritten above to the plain relay. */
const TLS_VARIABLE = /\bhttps:\/\/\{\{/g;

/** A file's text with every origin (literal or loopback authority) pointing at the relay. */
export function rewrite(text: string, origin: string): string {
  return text.replace(URL_ORIGIN, origin).replace(BARE_LOOPBACK, origin.slice("http://".length))
    .replace(TLS_VARIABLE, "http://{{");
}

/** Copies a folder, every absolute origin in its text files rewritten to the relay. */
async function copyRewritten(from: string, to: string, origin: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    const source = `${from}/${entry.name}`;
    const target = `${to}/${entry.name}`;
    if (entry.isDirectory) {
      if (entry.name !== "node_modules" && !entry.name.startsWith(".")) {
        await copyRewritten(source, target, origin);
      }
    } else if (entry.isFile) {
      if (TEXT.test(entry.name)) {
        const text = await Deno.readTextFile(source);
        await Deno.writeTextFile(target, rewrite(text, origin));
      } else {
        await Deno.copyFile(source, target);
      }
    }
  }
}

async function runChild(program: string, args: string[], cwd: string, env: Record<string, string>) {
  const child = new Deno.Command(program, {
    args,
    cwd,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      child.kill("SIGKILL");
    } catch { /* ended */ }
  }, TIMEOUT_MS);
  try {
    const output = await child.output();
    const decode = (b: Uint8Array) => new TextDecoder().decode(b);
    return {
      code: timedOut ? "timeout" as const : output.code,
      stdout: decode(output.stdout),
      stderr: decode(output.stderr),
    };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The environment a JetBrains user would pick: the first one named in the nearest
 * `http-client.env.json` (the file's folder or one above it, up to the copied tree's root).
 */
async function environmentOf(dir: string, root: string): Promise<string | undefined> {
  for (let at = dir; at.startsWith(root); at = at.replace(/\/[^/]*$/, "")) {
    try {
      const env = JSON.parse(await Deno.readTextFile(`${at}/http-client.env.json`));
      return Object.keys(env).find((name) => !name.startsWith("$"));
    } catch { /* none here, or not JSON */ }
    if (at === root) break;
  }
  return undefined;
}

/** Process environment variables the files expect (`--setenv NAME=VALUE`, `ORIGIN`: the relay). */
const processVariables: Record<string, string> = {};

async function runHttpyac(file: string, cwd: string, env?: string): Promise<Omit<Run, "wire">> {
  const result = await runChild(
    Deno.execPath(),
    [
      ...["run", "-A", "--quiet", "--no-config", "--no-lock", "npm:httpyac@6.16.7", "send"],
      ...[file, "--all", "-o", "none", "--json", ...(env ? ["-e", env] : [])],
    ],
    cwd,
    dialEnv(processVariables),
  );
  try {
    const report = JSON.parse(result.stdout.slice(result.stdout.indexOf("{"))) as {
      requests: { name: string; testResults?: { message: string; status: string }[] }[];
    };
    return {
      code: result.code,
      requestNames: report.requests.map((r) => r.name),
      tests: report.requests.flatMap((r) =>
        (r.testResults ?? []).map((t) => ({
          request: r.name,
          name: t.message,
          passed: t.status === "SUCCESS",
          ...(t.status === "SKIPPED" ? { skipped: true } : {}),
        }))
      ),
    };
  } catch {
    return {
      code: result.code,
      requestNames: [],
      tests: [],
      error: firstLine(result.stdout + result.stderr),
    };
  }
}

async function runDial(
  main: string,
  file: string,
  cwd: string,
  root: string,
  env?: string,
): Promise<Omit<Run, "wire">> {
  const result = await runChild(
    Deno.execPath(),
    [
      ...["run", "-A", "--quiet", main, "test", file, "--reporter", "json", "--allow-path", root],
      ...(env ? ["--env", env] : []),
    ],
    cwd,
    dialEnv(processVariables),
  );
  try {
    const report = JSON.parse(result.stdout) as {
      cases: { request: string; name: string; outcome: string; message?: string }[];
    };
    const errors = report.cases.filter((c) => c.outcome === "error").map((c) => c.message);
    return {
      code: result.code,
      requestNames: [...new Set(report.cases.map((c) => c.request))],
      tests: report.cases.filter((c) => !/^HTTP \d+$/.test(c.name)).map((c) => ({
        request: c.request,
        name: c.name,
        passed: c.outcome === "passed",
        // dial reports a skipped request (`# @disabled`, `$cancel`) as a passed case so named.
        ...(c.name === "skipped" ? { skipped: true } : {}),
      })),
      ...(errors.length ? { error: firstLine(errors[0] ?? "") } : {}),
    };
  } catch {
    return { code: result.code, requestNames: [], tests: [], error: firstLine(result.stderr) };
  }
}

function firstLine(text: string): string {
  return (text.trim().split("\n").find((l) => l.trim()) ?? "").slice(0, 160);
}

/** A test's outcome: passed (true), failed (false) or skipped (a request not sent on purpose). */
const outcome = (t: Run["tests"][number]) => t.skipped ? "skipped" : t.passed;

/** Compares the two runs: wire (same/different), tests (same outcomes?). */
function compare(theirs: Run, ours: Run) {
  const sameWire = theirs.wire.length === ours.wire.length &&
    theirs.wire.every((w, i) => JSON.stringify(w) === JSON.stringify(ours.wire[i]));
  let firstWireDiff = "";
  if (!sameWire) {
    const i = theirs.wire.findIndex((w, i) => JSON.stringify(w) !== JSON.stringify(ours.wire[i]));
    const at = i < 0 ? Math.min(theirs.wire.length, ours.wire.length) : i;
    firstWireDiff = `#${at + 1}: httpyac ${JSON.stringify(theirs.wire[at] ?? null)} dial ${
      JSON.stringify(ours.wire[at] ?? null)
    }`;
  }
  // Tests: httpyac's, matched to dial's request by request (in the order they ran; by name when
  // the two ran a different number of requests), then by position among the request's tests.
  const diffs: string[] = [];
  const byRequest = (run: Run) => {
    const map = new Map<string, Run["tests"]>();
    for (const t of run.tests) map.set(t.request, [...(map.get(t.request) ?? []), t]);
    return map;
  };
  const ourTests = byRequest(ours);
  const theirTests = byRequest(theirs);
  const ourOrder = [...ourTests.keys()];
  const sameCount = theirs.requestNames.length === ours.requestNames.length;
  let compared = 0;
  // As many requests on the wire and as many tests: test by test in the order they ran
  // (requests of the same label, `GET /json` twice, would otherwise share one name).
  // The same tests with the same outcomes in another order (httpyac reports a request an
  // imported file's runs after the one that named it) are the same outcomes.
  const key = (t: Run["tests"][number]) => `${t.request}\u0000${t.name}\u0000${outcome(t)}`;
  const sorted = (run: Run) => run.tests.map(key).sort().join("\n");
  if (theirs.tests.length === ours.tests.length && sorted(theirs) === sorted(ours)) {
    return { sameWire, firstWireDiff, compared: theirs.tests.length, diffs };
  }
  if (theirs.wire.length === ours.wire.length && theirs.tests.length === ours.tests.length) {
    theirs.tests.forEach((t, i) => {
      compared++;
      const m = ours.tests[i]!;
      if (outcome(m) !== outcome(t)) {
        diffs.push(
          `${t.request} › ${t.name}: httpyac ${outcome(t)}, dial ${outcome(m)} (${m.name})`,
        );
      }
    });
    return { sameWire, firstWireDiff, compared, diffs };
  }
  for (const [request, tests] of theirTests) {
    const at = theirs.requestNames.indexOf(request);
    const mine = ourTests.get(request) ??
      (sameCount ? ourTests.get(ours.requestNames[at] ?? "") : undefined) ??
      ourTests.get(ourOrder[[...theirTests.keys()].indexOf(request)] ?? "") ?? [];
    tests.forEach((t, i) => {
      compared++;
      const m = mine[i];
      if (!m) diffs.push(`${request} › ${t.name}: httpyac ${t.passed}, dial: missing`);
      else if (outcome(m) !== outcome(t)) {
        diffs.push(`${request} › ${t.name}: httpyac ${outcome(t)}, dial ${outcome(m)} (${m.name})`);
      }
    });
  }
  return { sameWire, firstWireDiff, compared, diffs };
}

async function files(paths: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const path of paths) {
    const info = await Deno.stat(path);
    if (info.isFile) out.push(path);
    else {
      for await (const entry of Deno.readDir(path)) {
        if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
        out.push(...await files([`${path}/${entry.name}`]).catch(() => []));
      }
    }
  }
  return out.filter((f) => /\.(http|rest)$/.test(f)).sort();
}

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : undefined;
}

async function main(args: string[]) {
  const jsonFile = option(args, "--json");
  const dialMain = option(args, "--dial") ?? MAIN;
  // httpyac's runs of an earlier sweep (its --json file): its side does not change.
  const reuse = option(args, "--reuse");
  const earlier = new Map<string, Run>(
    reuse
      ? (JSON.parse(await Deno.readTextFile(reuse)) as { file: string; theirs: Run }[]).map((
        r,
      ) => [r.file, r.theirs])
      : [],
  );
  // Files written before skips were kept: httpyac's skipped test is "request is skipped".
  for (const run of earlier.values()) {
    for (const t of run.tests) if (t.name === "request is skipped") t.skipped = true;
  }
  const setenv: string[] = [];
  for (let value = option(args, "--setenv"); value; value = option(args, "--setenv")) {
    setenv.push(value);
  }
  await using httpbin = await startHttpbin();
  const proxy = relay(Number(new URL(httpbin.origin).port));
  const origin = `http://127.0.0.1:${proxy.port}`;
  for (const pair of setenv) {
    const at = pair.indexOf("=");
    processVariables[pair.slice(0, at)] = pair.slice(at + 1).replaceAll("ORIGIN", origin);
  }
  const rows: Record<string, unknown>[] = [];
  out("| file | httpyac | dial | wire | ?? / tests |");
  out("|---|---|---|---|---|");
  try {
    for (const root of args) {
      // The whole tree is copied, so that files reach their neighbours as in the repository.
      const work = await Deno.makeTempDir({ prefix: "sweep-" });
      const info = await Deno.stat(root);
      const base = info.isFile ? root.replace(/\/[^/]*$/, "") : root.replace(/\/$/, "");
      await copyRewritten(base, work, origin);
      for (const file of await files([root])) {
        const relative = file.slice(base.length + 1);
        // Both tools run from the top folder below the root (a repository's checkout), the file
        // named relative to it, as a user runs the files of a project from its root.
        const top = relative.includes("/") ? relative.slice(0, relative.indexOf("/")) : "";
        const dir = top ? `${work}/${top}` : work;
        const name = top ? relative.slice(top.length + 1) : relative;
        const env = await environmentOf(`${work}/${relative}`.replace(/\/[^/]*$/, ""), dir);
        proxy.take();
        const theirs: Run = earlier.get(file) ??
          { ...await runHttpyac(name, dir, env), wire: proxy.take(origin) };
        const ours: Run = {
          ...await runDial(dialMain, name, dir, work, env),
          wire: proxy.take(origin),
        };
        rows.push(report(file, theirs, ours));
      }
      await Deno.remove(work, { recursive: true });
    }
  } finally {
    await proxy.close();
  }
  if (jsonFile) await Deno.writeTextFile(jsonFile, JSON.stringify(rows, null, 2));
}

/** One row of the table (and its lines of differences), printed; the row for --json. */
function report(file: string, theirs: Run, ours: Run): Record<string, unknown> {
  const c = compare(theirs, ours);
  const describe = (r: Run) =>
    `exit ${r.code}, ${r.wire.length} req, ${
      r.tests.filter((t) => t.passed).length
    }/${r.tests.length} passed${r.error ? ` (${r.error.replaceAll("|", "\\|")})` : ""}`;
  const row = {
    file,
    httpyac: describe(theirs),
    dial: describe(ours),
    wire: c.sameWire ? "same" : "DIFFERENT",
    tests: c.diffs.length ? `${c.diffs.length} of ${c.compared} differ` : `${c.compared} same`,
    wireDiff: c.firstWireDiff,
    testDiffs: c.diffs,
    theirs,
    ours,
  };
  out(`| ${file} | ${row.httpyac} | ${row.dial} | ${row.wire} | ${row.tests} |`);
  if (!c.sameWire) {
    out(`|  | wire ${c.firstWireDiff.slice(0, 400).replaceAll("|", "\\|")} | | | |`);
  }
  for (const d of c.diffs) out(`|  | test ${d.replaceAll("|", "\\|")} | | | |`);
  return row;
}

if (import.meta.main) await main([...Deno.args]);
