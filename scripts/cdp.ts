/**
 * A bare Chrome DevTools Protocol client for benchmarks: Debian's Chromium started headless with
 * `--remote-debugging-port=0`, spoken to over its WebSocket, with nothing between the page and
 * the measure (Playwright, which the browser tests use, enables its own network, page and
 * runtime agents in every page and runs its client in the benchmark's process; a launch measured
 * through it carries that work). Used by `scripts/bench_ui_workspace.ts` for its launches.
 * @module
 */
import { CHROMIUM, CHROMIUM_ARGS } from "../tests/browser/_browser.ts";

/** A page's session: its commands and events. */
export interface CdpPage {
  /** Sends a command to the page. */
  send(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Resolves with the next event of this name from the page. */
  next(event: string): Promise<Record<string, unknown>>;
  /** Evaluates an expression, awaiting a promise; its value (JSON). */
  evaluate(expression: string): Promise<unknown>;
}

/** A browser started for CDP. */
export interface CdpBrowser extends AsyncDisposable {
  /**
   * Opens a page in a fresh browser context (its own storage and cache), runs `use`, and
   * disposes the context.
   */
  withPage<T>(
    options: { width: number; height: number },
    use: (page: CdpPage) => Promise<T>,
  ): Promise<T>;
}

type Pending = { resolve: (v: Record<string, unknown>) => void; reject: (e: Error) => void };

/**
 * Starts Chromium headless with a temporary profile and connects to it.
 *
 * @returns the browser, closed (and its profile removed) when disposed
 */
export async function launchCdp(): Promise<CdpBrowser> {
  const profile = await Deno.makeTempDir({ prefix: "dial-bench-chromium-" });
  const child = new Deno.Command(CHROMIUM, {
    args: [
      ...CHROMIUM_ARGS,
      "--headless",
      "--remote-debugging-port=0",
      `--user-data-dir=${profile}`,
      // As Playwright starts it: no throttling of pages it does not consider in front.
      "--disable-background-timer-throttling",
      "--disable-backgrounding-occluded-windows",
      "--disable-renderer-backgrounding",
      "--disable-extensions",
      "--mute-audio",
      "about:blank",
    ],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const lines = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let address: string | undefined;
  let buffered = "";
  while (address === undefined) {
    const { value, done } = await lines.read();
    if (done) throw new Error(`Chromium exited before it listened:\n${buffered}`);
    buffered += value;
    address = /DevTools listening on (ws:\/\/\S+)/.exec(buffered)?.[1];
  }
  // The rest of its stderr is read and dropped (a full pipe would stop the browser).
  const drained = (async () => {
    while (!(await lines.read()).done) { /* dropped */ }
  })();
  const socket = new WebSocket(address);
  await new Promise<void>((resolve, reject) => {
    socket.onopen = () => resolve();
    socket.onerror = () => reject(new Error(`Cannot connect to Chromium at ${address}`));
  });
  let nextId = 1;
  const pending = new Map<number, Pending>();
  const waiting = new Map<string, Array<(params: Record<string, unknown>) => void>>();
  socket.onmessage = (message) => {
    const data = JSON.parse(String(message.data));
    if (typeof data.id === "number") {
      const call = pending.get(data.id);
      pending.delete(data.id);
      if (data.error) call?.reject(new Error(`CDP: ${data.error.message}`));
      else call?.resolve(data.result ?? {});
      return;
    }
    const key = `${data.sessionId ?? ""} ${data.method}`;
    const handlers = waiting.get(key);
    if (handlers) {
      waiting.delete(key);
      for (const handler of handlers) handler(data.params ?? {});
    }
  };
  socket.onclose = () => {
    for (const call of pending.values()) call.reject(new Error("Chromium closed the connection"));
    pending.clear();
  };
  const send = (method: string, params: Record<string, unknown> = {}, sessionId?: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  return {
    async withPage(options, use) {
      const { browserContextId } = await send("Target.createBrowserContext", {
        disposeOnDetach: true,
      });
      try {
        const { targetId } = await send("Target.createTarget", {
          url: "about:blank",
          browserContextId,
          ...options,
        });
        const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
        const session = String(sessionId);
        const page: CdpPage = {
          send: (method, params) => send(method, params, session),
          next: (event) =>
            new Promise((resolve) => {
              const key = `${session} ${event}`;
              waiting.set(key, [...(waiting.get(key) ?? []), resolve]);
            }),
          async evaluate(expression) {
            const answer = await send("Runtime.evaluate", {
              expression,
              awaitPromise: true,
              returnByValue: true,
            }, session);
            const thrown = answer.exceptionDetails as { exception?: { description?: string } };
            if (thrown) throw new Error(`Page: ${thrown.exception?.description ?? "exception"}`);
            return (answer.result as { value?: unknown }).value;
          },
        };
        return await use(page);
      } finally {
        await send("Target.disposeBrowserContext", { browserContextId });
      }
    },
    async [Symbol.asyncDispose]() {
      await send("Browser.close").catch(() => {});
      socket.close();
      await child.status;
      await drained.catch(() => {});
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    },
  };
}
