/**
 * Chrome's trace for the UI benchmarks: the page's main-thread tasks. On a loaded machine a
 * task's wall time (what PerformanceObserver "longtask" reports) is mostly its wait for a core;
 * the trace's thread time is its own work. And Playwright turns on DevTools' network agent,
 * which decodes its own copy of an answer when the answer ends, in a task of the page's main
 * thread that a user's browser does not run: the trace tells that task apart.
 * @module
 */
/** The trace categories with the main thread's tasks, their CPU time and DevTools' network events. */
export const TRACE_CATEGORIES = ["disabled-by-default-devtools.timeline", "devtools.timeline"];

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/** What a trace says about the page's main thread. */
export interface MainThreadTasks {
  /** The longest task in CPU time (the trace's `tdur`), in milliseconds. */
  longestCpu: number;
  /** Every task's CPU time added up, in milliseconds: the page's own work, whatever the load. */
  totalCpu: number;
  /**
   * Tasks over 50 ms of wall time that are DevTools' network agent ending an answer (a
   * `ResourceFinish` and no script): they count as long tasks in the page, but only because a
   * DevTools client (Playwright) listens.
   */
  devtoolsLong: number;
  /**
   * Tasks over 50 ms of wall time with under 5 ms of CPU time: on a loaded machine, short tasks
   * that waited for a core.
   */
  waitingLong: number;
}

/**
 * @param trace what `browser.stopTracing()` gave, traced with {@link TRACE_CATEGORIES}
 * @returns the page's longest task and all its tasks in CPU time, DevTools' own long tasks, and
 *   the long tasks that were mostly a wait for a core
 */
export function mainThreadTasks(trace: Uint8Array): MainThreadTasks {
  const { traceEvents } = JSON.parse(new TextDecoder().decode(trace)) as {
    traceEvents: TraceEvent[];
  };
  const main = new Set(
    traceEvents.filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain")
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const onMain = traceEvents.filter((e) => main.has(`${e.pid}:${e.tid}`));
  const tasks = onMain.filter((e) => e.name === "RunTask" && e.ph === "X");
  const within = (task: TraceEvent, names: string[]) =>
    onMain.some((e) =>
      names.includes(e.name) && e.ts >= task.ts && e.ts <= task.ts + (task.dur ?? 0) &&
      e.tid === task.tid && e.pid === task.pid
    );
  const devtoolsLong =
    tasks.filter((task) =>
      (task.dur ?? 0) > 50_000 && within(task, ["ResourceFinish"]) &&
      !within(task, ["FunctionCall", "v8.callFunction"])
    ).length;
  const waitingLong = tasks.filter((task) => (task.dur ?? 0) > 50_000 && (task.tdur ?? 0) < 5_000)
    .length;
  const cpu = tasks.map((e) => (e.tdur ?? 0) / 1000);
  return {
    longestCpu: Math.max(0, ...cpu),
    totalCpu: cpu.reduce((sum, ms) => sum + ms, 0),
    devtoolsLong,
    waitingLong,
  };
}
