/**
 * Chrome's trace for the UI benchmarks: the page's main-thread tasks. On a loaded machine a
 * task's wall time (what PerformanceObserver "longtask" reports) is mostly its wait for a core;
 * the trace's thread time is its own work. A long task is told by what it ran (its largest
 * parts) and by what the browser's other threads ran meanwhile.
 * @module
 */
/** The trace categories with every thread's tasks and their CPU time, and the main thread's work. */
export const TRACE_CATEGORIES = [
  "toplevel",
  "disabled-by-default-devtools.timeline",
  "devtools.timeline",
];

/** Events that only wrap a task's work (a task's own parts are inside them). */
const WRAPPERS = new Set([
  "RunTask",
  "ThreadControllerImpl::RunTask",
  "Receive mojo message",
  "SimpleWatcher::OnHandleReady",
  "BlinkScheduler_PerformMicrotaskCheckpoint",
]);

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: {
    name?: string;
    data?: { functionName?: string; url?: string; type?: string; frame?: string };
  };
}

/** What a trace says about the page's main thread. */
export interface MainThreadTasks {
  /** The longest task in CPU time (the trace's `tdur`), in milliseconds. */
  longestCpu: number;
  /** Every task's CPU time added up, in milliseconds: the page's own work, whatever the load. */
  totalCpu: number;
  /**
   * Tasks over 50 ms of wall time with under 5 ms of CPU time: on a loaded machine, short tasks
   * that waited for a core.
   */
  waitingLong: number;
  /**
   * Each task over 50 ms of wall time, told: its wall and CPU time, its largest parts, and the
   * CPU time of the other threads that ran most while it lasted.
   */
  long: string[];
}

/** The longest wall time of a task that is not a long task, microseconds. */
const LONG = 50_000;

/**
 * @param trace Chrome's JSON trace, traced with {@link TRACE_CATEGORIES}
 * @returns the page's longest task and all its tasks in CPU time, the long tasks that were
 *   mostly a wait for a core, and each long task told
 */
export function mainThreadTasks(trace: Uint8Array | string): MainThreadTasks {
  const { traceEvents } = JSON.parse(
    typeof trace === "string" ? trace : new TextDecoder().decode(trace),
  ) as { traceEvents: TraceEvent[] };
  const threadNames = new Map<string, string>();
  const processNames = new Map<number, string>();
  for (const e of traceEvents) {
    if (e.name === "thread_name") threadNames.set(`${e.pid}:${e.tid}`, e.args?.name ?? "");
    if (e.name === "process_name") processNames.set(e.pid, e.args?.name ?? "");
  }
  const main = new Set(
    [...threadNames].filter(([, name]) => name === "CrRendererMain").map(([key]) => key),
  );
  const onMain = traceEvents.filter((e) => main.has(`${e.pid}:${e.tid}`));
  const tasks = onMain.filter((e) => e.name === "RunTask" && e.ph === "X");
  const waitingLong = tasks.filter((task) => (task.dur ?? 0) > LONG && (task.tdur ?? 0) < 5_000)
    .length;
  const cpu = tasks.map((e) => (e.tdur ?? 0) / 1000);
  const long = tasks.filter((task) => (task.dur ?? 0) > LONG).map((task) =>
    [
      `${ms(task.dur)} wall, ${ms(task.tdur)} CPU`,
      `ran ${parts(task, onMain).join(", ") || "nothing traced"}`,
      `meanwhile ${others(task, traceEvents, threadNames, processNames).join(", ") || "nothing"}`,
    ].join("; ")
  );
  return {
    longestCpu: Math.max(0, ...cpu),
    totalCpu: cpu.reduce((sum, ms) => sum + ms, 0),
    waitingLong,
    long,
  };
}

const ms = (us = 0) => `${(us / 1000).toFixed(0)} ms`;

/** @returns the task's direct parts, largest first (wall / CPU time), up to four */
function parts(task: TraceEvent, onMain: TraceEvent[]): string[] {
  const end = task.ts + (task.dur ?? 0);
  const inside = onMain.filter((e) =>
    e.ph === "X" && !WRAPPERS.has(e.name) && e.tid === task.tid && e.pid === task.pid &&
    e.ts >= task.ts &&
    e.ts + (e.dur ?? 0) <= end
  ).sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const direct: TraceEvent[] = [];
  let until = -Infinity;
  for (const e of inside) {
    if (e.ts >= until) {
      direct.push(e);
      until = e.ts + (e.dur ?? 0);
    }
  }
  const label = (e: TraceEvent) => {
    const data = e.args?.data;
    return data?.functionName || data?.url?.split("/").at(-1) || data?.type;
  };
  return direct.sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0)).slice(0, 4).map((e) => {
    // A part's script: the longest function call in it, named by its function or file.
    const call = inside.filter((c) =>
      c.name === "FunctionCall" && c.ts >= e.ts && c.ts + (c.dur ?? 0) <= e.ts + (e.dur ?? 0)
    ).sort((a, b) =>
      (b.dur ?? 0) - (a.dur ?? 0)
    )[0];
    const what = [label(e), call && call !== e ? label(call) : undefined].filter(Boolean);
    return `${e.name}${what.length ? ` (${what.join(": ")})` : ""} ${ms(e.dur)}/${ms(e.tdur)}`;
  });
}

/**
 * @returns the other threads' CPU time within the task's time (their top-level tasks' CPU
 *   time, in proportion to the overlap), most first, up to five
 */
function others(
  task: TraceEvent,
  events: TraceEvent[],
  threadNames: Map<string, string>,
  processNames: Map<number, string>,
): string[] {
  const start = task.ts;
  const end = task.ts + (task.dur ?? 0);
  const byThread = new Map<string, number>();
  for (const e of events) {
    if (e.ph !== "X" || e.name !== "ThreadControllerImpl::RunTask" || !e.tdur || !e.dur) continue;
    if (e.pid === task.pid && e.tid === task.tid) continue;
    const overlap = Math.min(end, e.ts + e.dur) - Math.max(start, e.ts);
    if (overlap <= 0) continue;
    const thread = threadNames.get(`${e.pid}:${e.tid}`) ?? `thread ${e.tid}`;
    const name = `${processNames.get(e.pid) ?? `process ${e.pid}`} ${thread}`;
    byThread.set(name, (byThread.get(name) ?? 0) + e.tdur * overlap / e.dur);
  }
  return [...byThread].filter(([, us]) => us >= 1000).sort((a, b) => b[1] - a[1]).slice(0, 5)
    .map(([name, us]) => `${name} ${ms(us)}`);
}
