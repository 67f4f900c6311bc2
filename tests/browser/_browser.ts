/**
 * Browser test helpers: Debian's Chromium driven by playwright-core, and the UI server
 * started in-process on 127.0.0.1 port 0.
 * @module
 */
import { type Browser, type BrowserContextOptions, chromium, type Page } from "playwright-core";
import { startUiServer, type UiServer, type UiServerOptions } from "../../src/ui/server.ts";

/** The Chromium Debian installs (`apt-get install chromium`); never a downloaded one. */
export const CHROMIUM = Deno.env.get("DIAL_CHROMIUM") ?? "/usr/bin/chromium";

/** Flags that keep Chromium quiet, offline and sandbox-free in containers. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/**
 * Launches headless Chromium with a fresh temporary profile.
 *
 * @returns the browser, closed when disposed
 */
export async function launchBrowser(): Promise<Browser & AsyncDisposable> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  return Object.assign(browser, { [Symbol.asyncDispose]: () => browser.close() });
}

/** A UI server and a page logged in to it. */
export interface AppSession {
  server: UiServer;
  page: Page;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts the UI server and opens its printed URL (secret included) in a new page.
 *
 * @param browser the browser
 * @param options server options
 * @param contextOptions the browser context's (viewport, colour scheme)
 * @returns the server and the page, disposed together
 */
export async function openApp(
  browser: Browser,
  options: UiServerOptions = {},
  contextOptions: BrowserContextOptions = {},
): Promise<AppSession> {
  // Introspection results are cached per endpoint: keep them out of the real cache.
  const graphqlCacheDir = await Deno.makeTempDir({ prefix: "dial-ui-graphql-" });
  const server = await startUiServer({ graphqlCacheDir, ...options });
  const context = await browser.newContext({
    viewport: { width: 1280, height: 860 },
    ...contextOptions,
  });
  context.setDefaultTimeout(30_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(server.url.href);
  await page.getByRole("tablist").waitFor();
  return {
    server,
    page,
    async [Symbol.asyncDispose]() {
      await context.close();
      await server.shutdown();
      await Deno.remove(graphqlCacheDir, { recursive: true });
      if (errors.length > 0) throw new Error(`Page errors: ${errors.join("; ")}`);
    },
  };
}
