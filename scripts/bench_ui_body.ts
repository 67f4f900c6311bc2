/**
 * Measures how the HTTP tab renders a 5 MB JSON response in headless Chromium, driven through a
 * bare CDP client (`scripts/cdp.ts`: no DevTools agent of Playwright's in the page, no Playwright
 * client in this process; the page is as a user's). From Send (and from the response's last byte
 * read by the page, the mark `dial:response-received`; and, at most, from the last byte the server
 * read: Send plus the exchange's time shown) to the first formatted screen in the viewer (which
 * may come before the page's last byte), to the whole formatted text, and the page's long tasks
 * (PerformanceObserver "longtask") meanwhile. Figures go to docs/benchmarks.md ("Desktop UI");
 * nothing here is asserted by a test. The goal (issue 36) is per render: the first screen at most
 * 300 ms after the server's last byte, and no long task over 50 ms; the last rows count the
 * renders that meet each (the verdict), and the load average is read before and after
 * (`DIAL_BENCH_RUNS` renders, 15 by default).
 *
 * Each long task is then told from Chrome's trace: its wall and CPU time, what it ran, and the
 * CPU time of the browser's other threads while it lasted; a long task that took under 5 ms of
 * CPU time (it waited for a core) is counted apart. What competes with the page's thread for the
 * cores during a render is read from Linux's /proc: the CPU time of each thread of this process's
 * children (Chromium's processes, lighttpd), of this process (the dial ui server, the CDP client)
 * and of the rest of the machine, from Send to the whole text; and the page's JS heap once the
 * whole text is formatted (after a full collection). `DIAL_BENCH_TRACES=DIR` keeps the traces.
 *
 * Run: `deno task bench --only ui` (all the UI benchmarks), or alone:
 * `deno run -A --config tests/deno.json scripts/bench_ui_body.ts`
 * @module
 */
import { uiConfigDir } from "../tests/browser/_browser.ts";
import { mainThreadTasks, TRACE_CATEGORIES } from "../tests/browser/_trace.ts";
import { hasLighttpd, startFileServer } from "../tests/e2e/_lighttpd.ts";
import { startUiServer } from "../src/ui/server.ts";
import { type CdpPage, launchCdp } from "./cdp.ts";

const RUNS = Number(Deno.env.get("DIAL_BENCH_RUNS") ?? 15);
/** The page's size (as the browser tests' `openApp`). */
const VIEWPORT = { width: 1280, height: 860 };
const items = Array.from({ length: 47_000 }, (_, i) => ({
  id: i,
  name: `item number ${i}`,
  tags: ["a", "b", "c"],
  nested: { ok: i % 2 === 0, score: i / 7 },
}));
const body = JSON.stringify(items);
// Served by Debian's lighttpd (a static file, in a process of its own: the UI server's thread does
// not also serve it), or by Deno where lighttpd is not installed.
const lighttpd = hasLighttpd ? await startFileServer({ "big.json": body }) : undefined;
const deno = lighttpd ? undefined : Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen() {} },
  () => new Response(body, { headers: { "Content-Type": "application/json" } }),
);
const url = lighttpd ? `${lighttpd.origin}/big.json` : `http://127.0.0.1:${deno!.addr.port}/big`;

/**
 * Page code: waits for the app and for the viewer to be ready for a body (the tab readies it once
 * the page is idle: a user's Send comes seconds after the page opens), then focuses the URL field.
 */
const READY = `(async () => {
  for (let frames = 0; frames < 5000; frames++) {
    const field = document.getElementById("http-url");
    const ready = performance.getEntriesByName("dial:viewer-ready").length > 0;
    if (ready && field && document.querySelector('[role="tablist"][aria-label="Request kind"]')) {
      field.focus();
      return;
    }
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
  }
  throw new Error("the app never showed its URL field");
})()`;

/** What {@link PROBE} measures, ms from Send. */
interface Probe {
  first: number;
  last: number;
  long: number[];
  firstPart: number;
  received: number;
  exchange: number;
}

/** Page code: observes long tasks, clicks Send, and times the first and last formatted text. */
const PROBE = `(async () => {
  const long = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) long.push(e.duration);
  }).observe({ type: "longtask", buffered: false });
  const send = [...document.querySelectorAll("button")].find((b) => b.textContent === "Send");
  const start = performance.now();
  send.click();
  let first;
  for (let frames = 0; frames < 5000; frames++) {
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
    const viewer = document.querySelector(".http-response .response-viewer");
    const lines = viewer ? [...viewer.querySelectorAll(".cm-line")] : [];
    if (first === undefined && lines.some((l) => l.textContent === "  {")) {
      first = performance.now() - start;
    }
    if (first !== undefined && viewer.dataset.formatting === undefined) {
      const mark = (name) => (performance.getEntriesByName(name).at(-1)?.startTime ?? NaN) - start;
      const exchange = parseFloat(document.querySelector('.http-response [data-testid="time"]').textContent);
      return {
        first,
        last: performance.now() - start,
        long,
        firstPart: mark("dial:first-part"),
        received: mark("dial:response-received"),
        exchange,
      };
    }
  }
  throw new Error("never formatted");
})()`;

/**
 * Starts Chrome's trace of the browser (every process) from the page's session.
 *
 * @param page the page
 * @param categories the trace's categories
 * @returns what ends the trace and gives it (Chrome's JSON trace)
 */
async function startTrace(
  page: CdpPage,
  categories: string[],
): Promise<{ end: () => Promise<string> }> {
  await page.send("Tracing.start", {
    transferMode: "ReturnAsStream",
    traceConfig: { includedCategories: categories, excludedCategories: ["*"] },
  });
  return {
    async end() {
      const complete = page.next("Tracing.tracingComplete");
      await page.send("Tracing.end");
      const handle = String((await complete).stream);
      const parts: string[] = [];
      const decoder = new TextDecoder();
      for (let eof = false; !eof;) {
        const read = await page.send("IO.read", { handle, size: 1 << 20 });
        const data = String(read.data);
        parts.push(
          read.base64Encoded
            ? decoder.decode(Uint8Array.from(atob(data), (c) => c.charCodeAt(0)), { stream: true })
            : data,
        );
        eof = read.eof === true;
      }
      await page.send("IO.close", { handle });
      if (Deno.env.get("DIAL_BENCH_TRACES")) {
        await Deno.writeTextFile(
          `${Deno.env.get("DIAL_BENCH_TRACES")}/${Date.now()}.json`,
          parts.join(""),
        );
      }
      return parts.join("");
    },
  };
}

const load = (l: number[]) => l.map((n) => n.toFixed(2)).join(" ");

/** The threads a render's CPU time is grouped by, in the table's order. */
const ROLES = [
  "the page's main thread",
  "the page's other threads: the viewer's worker",
  "the page's other threads: V8's helpers (GC, compiling) and others",
  "Chromium's other processes (browser, GPU, network)",
  "this process: the dial ui server, and the bench's CDP client",
  "lighttpd",
  "the rest of the machine (every other process: the load this bench does not make)",
];

/**
 * @returns the CPU time (ms) so far of this process's threads and its descendants', by role
 *   (Linux; empty elsewhere)
 */
function cpuByRole(): Map<string, number> {
  const cpu = new Map<string, number>();
  if (Deno.build.os !== "linux") return cpu;
  // The machine's busy time (all cores, in 10 ms ticks: user, nice, system, irq, softirq, steal),
  // less this bench's, below.
  const all = Deno.readTextFileSync("/proc/stat").split("\n")[0]!.split(/\s+/).slice(1).map(Number);
  let machine = (all[0]! + all[1]! + all[2]! + all[5]! + all[6]! + all[7]!) * 10;
  const parents = new Map<number, number>();
  const names = new Map<number, string>();
  for (const entry of Deno.readDirSync("/proc")) {
    const pid = Number(entry.name);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
      parents.set(pid, Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
      names.set(pid, Deno.readTextFileSync(`/proc/${pid}/cmdline`));
    } catch { /* gone */ }
  }
  const mine = (pid: number): boolean =>
    pid === Deno.pid || (pid > 1 && parents.has(pid) && mine(parents.get(pid)!));
  for (const [pid, command] of names) {
    if (!mine(pid)) continue;
    const renderer = command.includes("--type=renderer");
    const role = pid === Deno.pid
      ? ROLES[4]!
      : command.includes("lighttpd")
      ? ROLES[5]!
      : renderer
      ? undefined
      : ROLES[3]!;
    try {
      for (const task of Deno.readDirSync(`/proc/${pid}/task`)) {
        const stat = Deno.readTextFileSync(`/proc/${pid}/task/${task.name}/stat`);
        const thread = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        // utime and stime, in clock ticks of 10 ms.
        const ms = (Number(fields[11]) + Number(fields[12])) * 10;
        const as = role ??
          (task.name === String(pid)
            ? ROLES[0]!
            : thread.startsWith("DedicatedWorker")
            ? ROLES[1]!
            : ROLES[2]!);
        cpu.set(as, (cpu.get(as) ?? 0) + ms);
        machine -= ms;
      }
    } catch { /* gone */ }
  }
  cpu.set(ROLES[6]!, machine);
  return cpu;
}

function stats(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `median ${median.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms (n=${values.length})`;
}

const loadBefore = Deno.loadavg();
const first: number[] = [];
const afterLastByte: number[] = [];
const afterExchange: number[] = [];
const partAfterExchange: number[] = [];
const screenAfterPart: number[] = [];
const last: number[] = [];
const longest: number[] = [];
const longCount: number[] = [];
const longestCpu: number[] = [];
const waitingLong: number[] = [];
const pageCpu: number[] = [];
const heapMb: number[] = [];
const byRole = new Map<string, number[]>(ROLES.map((role) => [role, []]));
/** Each long task of the trace, told: its render, its time, what it ran, the other threads. */
const anatomy: string[] = [];

{
  await using cdp = await launchCdp();
  const graphqlCacheDir = await Deno.makeTempDir({ prefix: "dial-ui-graphql-" });
  try {
    for (let run = 0; run < RUNS; run++) {
      await using server = await startUiServer({ graphqlCacheDir, configDir: uiConfigDir() });
      await cdp.withPage(VIEWPORT, async (page) => {
        await page.send("Emulation.setDeviceMetricsOverride", {
          ...VIEWPORT,
          deviceScaleFactor: 1,
          mobile: false,
        });
        await page.send("Page.enable");
        const loaded = page.next("Page.loadEventFired");
        await page.send("Page.navigate", { url: server.url.href });
        await loaded;
        // The URL typed in as a user types it (the field is an input).
        await page.evaluate(READY);
        await page.send("Input.insertText", { text: url });
        const trace = await startTrace(page, TRACE_CATEGORIES);
        const cpuBefore = cpuByRole();
        const result = await page.evaluate(PROBE) as Probe;
        const cpuAfter = cpuByRole();
        for (const [role, times] of byRole) {
          times.push((cpuAfter.get(role) ?? 0) - (cpuBefore.get(role) ?? 0));
        }
        const tasks = mainThreadTasks(await trace.end());
        // What the page holds once the body is shown: its JS heap after a full collection.
        await page.send("HeapProfiler.collectGarbage");
        heapMb.push(Number((await page.send("Runtime.getHeapUsage")).usedSize) / 1e6);
        first.push(result.first);
        afterLastByte.push(result.first - result.received);
        afterExchange.push(result.first - result.exchange);
        partAfterExchange.push(result.firstPart - result.exchange);
        screenAfterPart.push(result.first - result.firstPart);
        last.push(result.last);
        longest.push(Math.max(0, ...result.long));
        longCount.push(result.long.length);
        longestCpu.push(tasks.longestCpu);
        pageCpu.push(tasks.totalCpu);
        waitingLong.push(Math.min(tasks.waitingLong, result.long.length));
        for (const task of tasks.long) anatomy.push(`render ${run + 1}: ${task}`);
      });
    }
  } finally {
    await Deno.remove(graphqlCacheDir, { recursive: true });
  }
}
await lighttpd?.[Symbol.asyncDispose]();
await deno?.shutdown();
const both = afterExchange.filter((t, i) => t <= 300 && longCount[i] === 0).length;
const table = [
  `| 5 MB JSON (${(body.length / 1e6).toFixed(1)} MB, from ${
    lighttpd ? "lighttpd" : "Deno.serve"
  }), headless Chromium | result |`,
  "| --- | --- |",
  `| Send → first formatted screen | ${stats(first)} |`,
  `| last byte read by the page → first formatted screen (negative: before it) | ${
    stats(afterLastByte)
  } |`,
  `| server's last byte → first formatted screen, at most (Send → first screen − the exchange's time) | ${
    stats(afterExchange)
  } |`,
  `| of which: server's last byte → the body's first part read by the page, at most | ${
    stats(partAfterExchange)
  } |`,
  `| of which: first part read by the page → first formatted screen | ${stats(screenAfterPart)} |`,
  `| Send → whole text formatted | ${stats(last)} |`,
  `| longest long task (wall time) | ${stats(longest)} |`,
  `| longest main-thread task (CPU time) | ${stats(longestCpu)} |`,
  `| the page's main thread: CPU time of all its tasks per render (Chrome's trace) | ${
    stats(pageCpu)
  } |`,
  `| the page's JS heap once the whole text is formatted, after a full GC (MB) | ${
    stats(heapMb).replaceAll(" ms", "")
  } |`,
  ...(Deno.build.os === "linux"
    ? [...byRole].map(([role, times]) =>
      `| CPU time per render, Send → whole text (/proc, 10 ms ticks): ${role} | ${stats(times)} |`
    )
    : []),
  `| long tasks (over 50 ms) per render | ${stats(longCount).replaceAll(" ms", "")} |`,
  `| of which under 5 ms of CPU time (a short task that waited for a core; Chrome's trace) | ${
    stats(waitingLong).replaceAll(" ms", "")
  } |`,
  `| renders with the first screen ≤ 300 ms after the server's last byte (goal: all) | ${
    afterExchange.filter((t) => t <= 300).length
  } of ${RUNS} |`,
  `| renders with no long task over 50 ms (goal: all) | ${
    longCount.filter((n) => n === 0).length
  } of ${RUNS} |`,
  `| verdict (issue 36: every render has its first screen ≤ 300 ms and no long task) | ${
    both === RUNS ? "met" : "not met"
  } (${both} of ${RUNS} renders meet both) |`,
  `| load average (1, 5, 15 min), before / after | ${load(loadBefore)} / ${load(Deno.loadavg())} |`,
].join("\n");
const told = anatomy.length > 0
  ? `\nThe long tasks (Chrome's trace; wall / CPU time):\n${
    anatomy.map((t) => `- ${t}`).join("\n")
  }\n`
  : "";
await Deno.stdout.write(new TextEncoder().encode(`${table}\n${told}`));
