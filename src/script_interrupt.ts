/**
 * Stopping a running script when the process is told to end.
 *
 * A script runs synchronously on the main thread (QuickJS in WebAssembly), so while it runs the
 * event loop cannot deliver SIGINT or SIGTERM to dial's own listeners. A small Worker, started
 * when the first script of a run is about to run and only when a face asked for it, listens for
 * those signals and sets a shared flag; the sandbox's interrupt handler reads the flag and stops
 * the script, and the face's own listener then ends the run. Without the request (a library
 * user, a test running the CLI in its process) nothing listens: a Worker that listened would
 * swallow the signals and keep the process alive.
 * @module
 */

/** Nonzero once the process was told to end: every running and later script stops. */
const flag = new Int32Array(new SharedArrayBuffer(4));
/** The signals the face listens for, when it asked. */
let wanted: Deno.Signal[] | undefined;
let watcher: { worker: Worker; ready: Promise<void>; listening: boolean } | undefined;

const WATCHER = `self.onmessage = (event) => {
  const { flag, signals } = event.data;
  for (const signal of signals) Deno.addSignalListener(signal, () => Atomics.store(flag, 0, 1));
  self.postMessage("ready");
};`;

/**
 * From now on, the given signals stop a running script at once (the caller's own listeners end
 * the run). Called by a face that handles those signals itself (the CLI).
 *
 * @param signals the signals the caller listens for
 * @returns stops watching (call it before the process exits or the caller stops listening)
 */
export function stopScriptsOnSignals(signals: Deno.Signal[]): () => void {
  wanted = signals;
  return () => {
    wanted = undefined;
    watcher?.worker.terminate();
    watcher = undefined;
  };
}

/** Starts the signal watcher when a face asked for one; resolves when it listens. */
export async function watchSignals(): Promise<void> {
  if (!wanted || wanted.length === 0) return;
  if (!watcher) {
    const url = URL.createObjectURL(new Blob([WATCHER], { type: "text/javascript" }));
    const worker = new Worker(url, { type: "module" });
    const ready = new Promise<void>((resolve) => {
      worker.onmessage = () => resolve();
    });
    worker.postMessage({ flag, signals: wanted });
    const started = { worker, ready, listening: false };
    watcher = started;
    ready.then(() => {
      started.listening = true;
      URL.revokeObjectURL(url);
    });
  }
  await watcher.ready;
}

/** @returns whether nothing is left to wait for: no watcher was asked for, or it listens */
export function signalsWatched(): boolean {
  return !wanted || wanted.length === 0 || watcher?.listening === true;
}

/** @returns whether a watched signal arrived: scripts must stop */
export function signalled(): boolean {
  return Atomics.load(flag, 0) !== 0;
}
