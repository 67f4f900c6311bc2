/**
 * Chrome's trace for the UI benchmarks: the CPU time of the page's longest main-thread task.
 * On a loaded machine a task's wall time (what PerformanceObserver "longtask" reports) is
 * mostly its wait for a core; the trace's thread time is its own work.
 * @module
 */
/** The trace category with the main thread's tasks and their CPU time (for benchmarks). */
export const TRACE_CATEGORY = "disabled-by-default-devtools.timeline";

/**
 * The page's longest main-thread task in CPU time (the trace's `tdur`): on a loaded machine a
 * task's wall time (what "longtask" reports) includes the time the thread waited for a core.
 *
 * @param trace what `browser.stopTracing()` gave, traced with {@link TRACE_CATEGORY}
 * @returns milliseconds
 */
export function longestTaskCpu(trace: Uint8Array): number {
  const { traceEvents } = JSON.parse(new TextDecoder().decode(trace)) as {
    traceEvents: Array<
      {
        name: string;
        ph: string;
        pid: number;
        tid: number;
        tdur?: number;
        args?: { name?: string };
      }
    >;
  };
  const main = new Set(
    traceEvents.filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain")
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const tasks = traceEvents.filter((e) =>
    e.name === "RunTask" && e.ph === "X" && main.has(`${e.pid}:${e.tid}`)
  );
  return Math.max(0, ...tasks.map((e) => (e.tdur ?? 0) / 1000));
}
