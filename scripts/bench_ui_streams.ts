/**
 * Measures the stream tabs' message log in Chromium (`deno task bench --only ui`; alone:
 * `deno run -A --config tests/deno.json scripts/bench_ui_streams.ts`): main-thread work (CDP
 * `TaskDuration`) for 10,000 WebSocket messages arriving at once, from the bridge frame to the
 * rendered rows, and the same once the log holds 100,000 messages; then three times 100,000 at
 * once onto the full log, and three SSE streams whose first 100,000 events come at once onto an
 * empty log: for each burst its wall time, the page's main-thread CPU and longest task from
 * Chrome's trace, and its long tasks in wall time from PerformanceObserver "longtask" (each told
 * from the trace); then the time to render a scroll to the middle of the full log. Prints a
 * Markdown table ending with the verdict of issue 36's goal (no long task over 50 ms while a
 * 100,000-message stream renders, for each kind) and the load average.
 * @module
 */
import { chromium } from "playwright-core";
import { CHROMIUM, CHROMIUM_ARGS } from "../tests/browser/_browser.ts";
import {
  type MainThreadTasks,
  mainThreadTasks,
  TRACE_CATEGORIES,
} from "../tests/browser/_trace.ts";
import { startUiServer } from "../src/ui/server.ts";

const BURST = 10_000;
/** In the page: entries held plus entries dropped, from the log's counter. */
const ARRIVED_IN_PAGE = `(() => {
  const text = document.querySelector('[data-testid="messages-count"]')?.textContent ?? "";
  const numbers = [...text.replaceAll(",", "").matchAll(/\\d+/g)].map((m) => Number(m[0]));
  return (numbers[0] ?? 0) + (text.includes("dropped") ? numbers[1] ?? 0 : 0);
})()`;
const RUNS = 5;
/** How many 100,000-message bursts of each kind (the goal's verdict is over all of them). */
const HUGE_RUNS = 3;

/** One traced burst. */
interface Burst {
  /** Main-thread work from CDP's `TaskDuration` (NaN when not read). */
  workMs: number;
  /** From the user's action to the last message in the page. */
  wallMs: number;
  /** The page's main-thread tasks from Chrome's trace. */
  tasks: MainThreadTasks;
  /** Long tasks from PerformanceObserver "longtask" (wall time, ms). */
  long: number[];
}

/** In order, joined: "0, 1, 3". */
const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(", ");

/** The table's rows of a kind's bursts. */
function burstRows(title: string, wall: string, bursts: Burst[]): string[] {
  const work = bursts.map((b) => b.workMs).filter((ms) => !Number.isNaN(ms));
  return [
    `| ${title}: wall time, ${wall} | ${list(bursts.map((b) => b.wallMs))} ms |`,
    ...(work.length
      ? [`| the same, main-thread work (CDP TaskDuration) | ${list(work)} ms |`]
      : []),
    `| the same, main-thread CPU time of all tasks (Chrome's trace) | ${
      list(bursts.map((b) => b.tasks.totalCpu))
    } ms |`,
    `| the same, longest main-thread task (CPU time, Chrome's trace) | ${
      list(bursts.map((b) => b.tasks.longestCpu))
    } ms |`,
    `| the same, long tasks (over 50 ms, wall time): count; longest | ${
      list(bursts.map((b) => b.long.length))
    }; ${list(bursts.map((b) => Math.max(0, ...b.long)))} ms |`,
    `| the same, long tasks under 5 ms of CPU (a short task that waited for a core) | ${
      list(bursts.map((b) => b.tasks.waitingLong))
    } |`,
  ];
}

/** A kind's part of the verdict: met when no burst had a long task. */
function verdict(kind: string, bursts: Burst[]): string {
  const clean = bursts.filter((b) => b.long.length === 0).length;
  const longest = Math.max(...bursts.map((b) => b.tasks.longestCpu));
  return `${kind} ${clean === bursts.length ? "met" : "not met"} (${clean} of ${bursts.length} ` +
    `bursts without a long task; longest task ${longest.toFixed(0)} ms of CPU)`;
}

/** A WebSocket server that answers `burst N` with N messages at once. */
function burstServer(): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const { socket, response } = Deno.upgradeWebSocket(request);
    socket.onmessage = (event) => {
      const n = Number(String(event.data).split(" ")[1]);
      for (let i = 0; i < n; i++) socket.send(`{"seq":${i},"price":${(i * 1.37).toFixed(2)}}`);
    };
    return response;
  });
}

/** An SSE server whose stream starts with 100,000 events at once, then stays open. */
function sseServer(): { server: Deno.HttpServer<Deno.NetAddr>; close: () => void } {
  const open: ReadableStreamDefaultController<Uint8Array>[] = [];
  const encoder = new TextEncoder();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        open.push(controller);
        for (let at = 0; at < SSE_EVENTS; at += 1_000) {
          let chunk = "";
          for (let i = at; i < at + 1_000; i++) {
            chunk += `id: ${i}\ndata: {"seq":${i},"price":${(i * 1.37).toFixed(2)}}\n\n`;
          }
          controller.enqueue(encoder.encode(chunk));
        }
      },
    });
    return new Response(body, { headers: { "Content-Type": "text/event-stream" } });
  });
  const closeOne = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    try {
      controller.close();
    } catch {
      // a stream the page disconnected is closed already
    }
  };
  return { server, close: () => open.forEach(closeOne) };
}
const SSE_EVENTS = 100_000;

const target = burstServer();
const sse = sseServer();
const ui = await startUiServer();
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: CHROMIUM_ARGS,
});
try {
  // bypassCSP: the page code below is passed as strings, which the app's CSP would refuse.
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  await page.goto(ui.url.href);
  await page.getByRole("tab", { name: "WebSocket" }).click();
  await page.getByLabel("WebSocket endpoint").fill(`ws://127.0.0.1:${target.addr.port}/`);
  await page.getByRole("button", { name: "Connect" }).click();
  await page.getByTestId("ws-state").filter({ hasText: "Connected" }).waitFor();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const taskSeconds = async () => {
    const { metrics } = await cdp.send("Performance.getMetrics");
    return metrics.find((m) => m.name === "TaskDuration")?.value ?? NaN;
  };
  /** The log's counter: entries held and entries dropped so far. */
  const counter = async () => {
    const text = await page.getByTestId("messages-count").textContent() ?? "";
    const numbers = [...text.replaceAll(",", "").matchAll(/\d+/g)].map((m) => Number(m[0]));
    return { held: numbers[0] ?? 0, dropped: text.includes("dropped") ? numbers[1] ?? 0 : 0 };
  };
  const editor = page.getByLabel("Message", { exact: true });
  const clear = page.getByRole("region", { name: "Messages log" }).getByRole("button", {
    name: "Clear",
    exact: true,
  });
  /** Wall time of the last burst: from Ctrl+Enter to its last message counted in the page. */
  let wallMs = 0;
  /** Sends `burst N`, waits until the rows are shown, returns main-thread ms. */
  const burst = async (n: number): Promise<number> => {
    const before = await counter();
    await editor.click();
    await page.keyboard.press("Control+a");
    await page.keyboard.insertText(`burst ${n}`);
    // Settle: the keystrokes' own work is not the log's.
    await page.waitForTimeout(300);
    const start = await taskSeconds();
    const sent = performance.now();
    await page.keyboard.press("Control+Enter");
    // n replies plus the sent message itself.
    const goal = before.held + before.dropped + n + 1;
    // Page code as strings: this script is type-checked without the DOM library.
    await page.waitForFunction(`${ARRIVED_IN_PAGE} >= ${goal}`, undefined, {
      polling: "raf",
      timeout: 60_000,
    });
    // Let the last frame paint before reading the counter.
    await page.evaluate("new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))");
    wallMs = performance.now() - sent;
    return (await taskSeconds() - start) * 1000;
  };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

  const small: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    await clear.click();
    small.push(await burst(BURST));
  }
  await clear.click();
  for (let total = 0; total < 100_000; total += BURST) await burst(BURST);
  const full: number[] = [];
  for (let i = 0; i < RUNS; i++) full.push(await burst(BURST));
  /** Starts counting the page's long tasks (over 50 ms of wall time) anew. */
  const observeLongTasks = () =>
    page.evaluate(`(() => {
    window.longTasks = [];
    window.longTaskObserver?.disconnect();
    window.longTaskObserver = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.longTasks.push(e.duration);
    });
    window.longTaskObserver.observe({ type: "longtask" });
  })()`);
  /** Runs `render` traced and with long tasks observed; its work, wall time and tasks. */
  const traced = async (render: () => Promise<number>): Promise<Burst> => {
    await observeLongTasks();
    await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    const workMs = await render();
    const tasks = mainThreadTasks(await browser.stopTracing());
    const long = await page.evaluate("window.longTasks") as number[];
    return { workMs, wallMs, tasks, long };
  };
  // 100,000 at once onto the full log, HUGE_RUNS times.
  const loadBefore = Deno.loadavg();
  const wsBursts: Burst[] = [];
  for (let i = 0; i < HUGE_RUNS; i++) wsBursts.push(await traced(() => burst(100_000)));
  const { held } = await counter();
  const scrollMs = Number(
    await page.evaluate(`(async () => {
    const list = document.querySelector(".log-list");
    const start = performance.now();
    list.scrollTop = list.scrollHeight / 2;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return performance.now() - start;
  })()`),
  );
  const rows = await page.locator(".log-row").count();
  // SSE: 100,000 events at once, from Connect to the last one drawn in the SSE tab's log, on a
  // cleared log each time.
  await page.getByRole("tab", { name: "SSE" }).click();
  await page.getByLabel("SSE endpoint").fill(`http://127.0.0.1:${sse.server.addr.port}/events`);
  const sseLog = page.getByRole("region", { name: "Events log" });
  const sseBursts: Burst[] = [];
  for (let i = 0; i < HUGE_RUNS; i++) {
    if (i > 0) {
      await page.getByRole("button", { name: "Disconnect" }).click();
      await page.getByTestId("sse-state").filter({ hasText: "Disconnected" }).waitFor();
      await sseLog.getByRole("button", { name: "Clear", exact: true }).click();
      await page.getByTestId("events-count").filter({ hasText: /^0 shown$/ }).waitFor();
      await page.waitForTimeout(300);
    }
    sseBursts.push(
      await traced(async () => {
        const start = performance.now();
        await page.getByRole("button", { name: "Connect" }).click();
        // The log follows its end: the last event is drawn once every event is in.
        await page.waitForFunction(
          `document.querySelector('.log-list[aria-label="Events"]')?.textContent.includes('"seq":${
            SSE_EVENTS - 1
          },')`,
          undefined,
          { polling: "raf", timeout: 120_000 },
        );
        wallMs = performance.now() - start;
        return NaN;
      }),
    );
  }
  const loadAfter = Deno.loadavg();
  const out = [
    "| measure | value |",
    "|---|---|",
    `| append ${
      BURST.toLocaleString("en")
    } messages to an empty log, main-thread work (median of ${RUNS}) | ${
      median(small).toFixed(0)
    } ms |`,
    `| append ${
      BURST.toLocaleString("en")
    } messages to a full log of 100,000, main-thread work (median of ${RUNS}) | ${
      median(full).toFixed(0)
    } ms |`,
    ...burstRows(
      `WebSocket: 100,000 messages at once onto a full log of 100,000 (${HUGE_RUNS} bursts)`,
      "Ctrl+Enter to the last message counted in the page",
      wsBursts,
    ),
    `| messages held | ${held.toLocaleString("en")} |`,
    `| rows in the DOM | ${rows} |`,
    `| scroll to the middle of the full log, to the second frame | ${scrollMs.toFixed(0)} ms |`,
    ...burstRows(
      `SSE: 100,000 events at once onto an empty log (${HUGE_RUNS} streams)`,
      "Connect to the last event drawn",
      sseBursts,
    ),
    `| verdict (issue 36 item 7: no long task over 50 ms while a 100,000-message stream renders) | ${
      verdict("WebSocket", wsBursts)
    }; ${verdict("SSE", sseBursts)} |`,
    `| load average (1, 5, 15 min) before the 100,000 bursts / at the end | ${
      loadBefore.map((n) => n.toFixed(2)).join(" ")
    } / ${loadAfter.map((n) => n.toFixed(2)).join(" ")} |`,
  ];
  // Each long task, told from the trace (what it ran, the other threads meanwhile).
  const told = (title: string, bursts: Burst[]) => {
    const lines = bursts.flatMap((b, i) => b.tasks.long.map((task) => `- ${i + 1}: ${task}`));
    return lines.length
      ? `\n${title} (Chrome's trace; burst: wall / CPU time):\n${lines.join("\n")}\n`
      : "";
  };
  await Deno.stdout.write(
    new TextEncoder().encode(
      `${out.join("\n")}\n${told("The WebSocket bursts' long tasks", wsBursts)}${
        told("The SSE bursts' long tasks", sseBursts)
      }`,
    ),
  );
} finally {
  sse.close();
  await browser.close();
  await ui.shutdown();
  await target.shutdown();
  await sse.server.shutdown();
}
