/**
 * Measures the stream tabs' message log in Chromium (`deno task bench --only ui`):
 * main-thread work (CDP `TaskDuration`) for 10,000 WebSocket messages arriving at once, from
 * the bridge frame to the rendered rows, and the same once the log holds 100,000 messages;
 * 100,000 at once onto the full log (its work, its longest task in CPU time from Chrome's
 * trace, and its long tasks in wall time from PerformanceObserver "longtask", and its wall time to
 * the last message counted in the page); then the time to render a scroll to the middle of the
 * full log; then an SSE stream whose first 100,000 events come at once (from Connect to the last
 * one counted, and its long tasks). Prints a Markdown table.
 * @module
 */
import { chromium } from "playwright-core";
import { CHROMIUM, CHROMIUM_ARGS } from "../tests/browser/_browser.ts";
import { mainThreadTasks, TRACE_CATEGORIES } from "../tests/browser/_trace.ts";
import { startUiServer } from "../src/ui/server.ts";

const BURST = 10_000;
/** In the page: entries held plus entries dropped, from the log's counter. */
const ARRIVED_IN_PAGE = `(() => {
  const text = document.querySelector('[data-testid="messages-count"]')?.textContent ?? "";
  const numbers = [...text.replaceAll(",", "").matchAll(/\\d+/g)].map((m) => Number(m[0]));
  return (numbers[0] ?? 0) + (text.includes("dropped") ? numbers[1] ?? 0 : 0);
})()`;
const RUNS = 5;

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
  return { server, close: () => open.forEach((c) => c.close()) };
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
  // 100,000 at once onto the full log: the main thread's work and its longest task (CPU time).
  await page.evaluate(`(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.longTasks.push(e.duration);
    }).observe({ type: "longtask" });
  })()`);
  await browser.startTracing(page, { categories: TRACE_CATEGORIES });
  const loadBefore = Deno.loadavg();
  const hugeMs = await burst(100_000);
  const hugeWall = wallMs;
  const hugeLongest = mainThreadTasks(await browser.stopTracing()).longestCpu;
  const longTasks = await page.evaluate("window.longTasks") as number[];
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
  // SSE: 100,000 events at once, from Connect to the last one counted in the SSE tab's log.
  const ssePage = page;
  await ssePage.getByRole("tab", { name: "SSE" }).click();
  await ssePage.getByLabel("SSE endpoint").fill(`http://127.0.0.1:${sse.server.addr.port}/events`);
  await ssePage.evaluate(`(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.longTasks.push(e.duration);
    }).observe({ type: "longtask" });
  })()`);
  await browser.startTracing(ssePage, { categories: TRACE_CATEGORIES });
  const sseStart = performance.now();
  await ssePage.getByRole("button", { name: "Connect" }).click();
  const sseArrived = ARRIVED_IN_PAGE.replace("messages-count", "events-count");
  await ssePage.waitForFunction(`${sseArrived} >= ${SSE_EVENTS}`, undefined, {
    polling: "raf",
    timeout: 120_000,
  });
  const sseWall = performance.now() - sseStart;
  const sseTasks = mainThreadTasks(await browser.stopTracing());
  const sseLong = await ssePage.evaluate("window.longTasks") as number[];
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
    `| append 100,000 messages to a full log of 100,000, main-thread work | ${
      hugeMs.toFixed(0)
    } ms |`,
    `| the same, wall time from Ctrl+Enter to the last message counted in the page | ${
      hugeWall.toFixed(0)
    } ms |`,
    `| the same, longest main-thread task (CPU time, Chrome's trace) | ${
      hugeLongest.toFixed(0)
    } ms |`,
    `| the same, long tasks (over 50 ms, wall time): count, longest | ${longTasks.length}, ${
      Math.max(0, ...longTasks).toFixed(0)
    } ms |`,
    `| messages held | ${held.toLocaleString("en")} |`,
    `| rows in the DOM | ${rows} |`,
    `| scroll to the middle of the full log, to the second frame | ${scrollMs.toFixed(0)} ms |`,
    `| SSE: 100,000 events at once, wall time from Connect to the last one counted in the page | ${
      sseWall.toFixed(0)
    } ms |`,
    `| the same, long tasks (over 50 ms, wall time): count, longest | ${sseLong.length}, ${
      Math.max(0, ...sseLong).toFixed(0)
    } ms |`,
    `| the same, longest main-thread task (CPU time); long tasks under 5 ms of CPU (waiting for a core) | ${
      sseTasks.longestCpu.toFixed(0)
    } ms; ${sseTasks.waitingLong} |`,
    `| the same, main-thread CPU time of all tasks | ${sseTasks.totalCpu.toFixed(0)} ms |`,
    `| load average (1, 5, 15 min) before the 100,000 burst / at the end | ${
      loadBefore.map((n) => n.toFixed(2)).join(" ")
    } / ${Deno.loadavg().map((n) => n.toFixed(2)).join(" ")} |`,
  ];
  // Each long task of the SSE burst, told from the trace (what it ran, the other threads meanwhile).
  const told = sseTasks.long.map((task) => `- ${task}`).join("\n");
  const tasks = told
    ? `\nThe SSE burst's long tasks (Chrome's trace; wall / CPU time):\n${told}\n`
    : "";
  await Deno.stdout.write(new TextEncoder().encode(`${out.join("\n")}\n${tasks}`));
} finally {
  sse.close();
  await browser.close();
  await ui.shutdown();
  await target.shutdown();
  await sse.server.shutdown();
}
