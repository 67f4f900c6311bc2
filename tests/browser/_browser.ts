/**
 * Browser test helpers: Debian's Chromium driven by playwright-core, and the UI server
 * started in-process on 127.0.0.1 port 0.
 *
 * A browser test file launches Chromium once and gives each test a fresh browser context
 * (its own cookies, storage and pages):
 *
 * ```ts
 * const browser = fileBrowser();
 *
 * Deno.test("browser: …", async () => {
 *   await using app = await openApp(browser());
 *   …
 * });
 * ```
 *
 * Wait for the page with Playwright's locators (`locator.waitFor()`, `filter({ hasText })`), and
 * for anything else (requests a test server saw, a file) with `waitFor` from `tests/_helpers.ts`;
 * never sleep.
 * @module
 */
import { Buffer } from "node:buffer";
import {
  type Browser,
  type BrowserContextOptions,
  chromium,
  type Locator,
  type Page,
} from "playwright-core";
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
 * Under `deno test`, each test file that imports this module gets one Chromium, launched before
 * the file's first test and closed after its last: `Deno.test.beforeAll`/`afterAll` are per test
 * file, and they run outside every test's op and resource sanitizers, so each test keeps them (a
 * test that leaves a server or a timer open still fails) while the browser's process and pipe
 * live for the whole file. Under `deno run` (scripts) the hooks do nothing.
 */
let shared: Browser | undefined;
Deno.test.beforeAll(async () => {
  shared = await launch();
});
Deno.test.afterAll(async () => {
  await shared?.close();
  shared = undefined;
});

function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/**
 * The test file's one Chromium (see above): `const browser = fileBrowser();` at the top of a
 * browser test file, then `openApp(browser())` or `browser().newContext()` in each test, which
 * closes what it opens (a fresh context per test).
 *
 * @returns a function giving the running browser (inside a test)
 */
export function fileBrowser(): () => Browser {
  return () => {
    if (!shared) throw new Error("fileBrowser(): the browser runs inside tests only");
    return shared;
  };
}

/**
 * Headless Chromium for scripts (screenshots, benchmarks): a fresh one with a temporary
 * profile, closed when disposed. Inside a test it is the file's one Chromium (tests use
 * {@link fileBrowser}); disposing it then closes the contexts opened since, not the browser.
 *
 * @returns the browser
 */
export async function launchBrowser(): Promise<Browser & AsyncDisposable> {
  if (shared) {
    const browser = shared;
    const before = new Set(browser.contexts());
    return Object.assign(browser, {
      async [Symbol.asyncDispose]() {
        for (const context of browser.contexts()) if (!before.has(context)) await context.close();
      },
    });
  }
  const browser = await launch();
  return Object.assign(browser, { [Symbol.asyncDispose]: () => browser.close() });
}

/** A UI server and a page logged in to it. */
export interface AppSession {
  server: UiServer;
  page: Page;
  [Symbol.asyncDispose](): Promise<void>;
}

let configDir: string | undefined;

/**
 * dial's config directory for this test process's UI servers (a workspace's TLS and proxy
 * settings are kept there, by the workspace's path): one per process, so a restart finds them.
 *
 * @returns the folder
 */
export function uiConfigDir(): string {
  return configDir ??= Deno.makeTempDirSync({ prefix: "dial-ui-config-" });
}

/**
 * Starts the UI server and opens its printed URL (secret included) in a new page.
 *
 * @param browser the browser
 * @param options server options
 * @param contextOptions the browser context's (viewport, colour scheme)
 * @param initScript page code run before the page's own (a benchmark's probe)
 * @returns the server and the page, disposed together
 */
export async function openApp(
  browser: Browser,
  options: UiServerOptions = {},
  contextOptions: BrowserContextOptions = {},
  initScript?: string,
): Promise<AppSession> {
  // Introspection results are cached per endpoint: keep them out of the real cache.
  const graphqlCacheDir = await Deno.makeTempDir({ prefix: "dial-ui-graphql-" });
  const server = await startUiServer({ graphqlCacheDir, configDir: uiConfigDir(), ...options });
  const context = await browser.newContext({
    viewport: { width: 1280, height: 860 },
    ...contextOptions,
  });
  context.setDefaultTimeout(30_000);
  if (initScript !== undefined) await context.addInitScript(initScript);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(server.url.href);
  await page.getByRole("tablist", { name: "Request kind" }).waitFor();
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

/**
 * Opens a request of the workspace from the sidebar: picks the environment when one is given,
 * opens the file, then the request.
 *
 * @param page the app page
 * @param file the file's button (its path in the workspace)
 * @param request the request's button, e.g. `GET users`
 * @param environment the environment to pick first
 * @returns the sidebar
 */
export async function openRequest(
  page: Page,
  file: string,
  request: string | RegExp,
  environment?: string,
): Promise<Locator> {
  const sidebar = page.getByRole("navigation", { name: "Workspace" });
  if (environment !== undefined) await sidebar.getByLabel("Environment").selectOption(environment);
  await sidebar.getByRole("button", { name: file, exact: true }).click();
  await sidebar.getByRole("button", { name: request }).click();
  return sidebar;
}

/**
 * Opens a request of the workspace from the sidebar, opening its file first only when the
 * request is not in view (a second click on the file would close it).
 *
 * @param page the app page
 * @param file the file's button (its path in the workspace)
 * @param request the request's button, e.g. `GRAPHQL gql`
 */
export async function openFromSidebar(page: Page, file: string, request: string): Promise<void> {
  const sidebar = page.getByRole("navigation", { name: "Workspace" });
  const button = sidebar.getByRole("button", { name: request, exact: true });
  if (!(await button.isVisible())) {
    await sidebar.getByRole("button", { name: file, exact: true }).click();
  }
  await button.click();
}

/**
 * Saves the open request to a new file with "Save as…" and waits for "Saved to FILE".
 *
 * @param page the app page
 * @param file the new file's path in the workspace
 * @param name the request's name in it
 */
export async function saveAs(page: Page, file: string, name: string): Promise<void> {
  await page.getByRole("button", { name: "Save as…" }).click();
  await page.getByLabel("File", { exact: true }).fill(file);
  await page.getByLabel("Request name").fill(name);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByRole("status").filter({ hasText: `Saved to ${file}` }).waitFor();
}

/**
 * Opens the Body section of the HTTP tab and picks its kind.
 *
 * @param page the app page
 * @param kind the "Body type" option: `json`, `form`, `text`, …
 */
export async function pickBodyType(page: Page, kind: string): Promise<void> {
  await page.locator("summary", { hasText: "Body" }).click();
  await page.getByRole("combobox", { name: "Body type" }).selectOption(kind);
}

/**
 * Replaces a code editor's whole text, as selecting all and pasting would. Not `locator.fill`:
 * fill selects the editor's contents through the DOM and CodeMirror, on gaining focus, may put
 * its own cursor back before the text arrives, so the text was inserted beside the old one
 * (`{"owner": "octocat"}{}` in a CI run). Ctrl+A is CodeMirror's own select-all.
 *
 * @param editor the editor's editing area (its accessible name is the editor's label)
 * @param text the new text
 */
export async function replaceEditorText(editor: Locator, text: string): Promise<void> {
  await editor.click();
  await editor.page().keyboard.press("ControlOrMeta+a");
  if (text === "") await editor.page().keyboard.press("Delete");
  else await editor.page().keyboard.insertText(text);
}

/**
 * Writes a new request's method and URL in the HTTP tab, and its body kind when given.
 *
 * @param page the app page
 * @param method the method, e.g. `POST`
 * @param url the URL
 * @param bodyKind the "Body type" to pick (see {@link pickBodyType})
 */
export async function writeRequest(
  page: Page,
  method: string,
  url: string,
  bodyKind?: string,
): Promise<void> {
  await page.getByLabel("Method").fill(method);
  await page.getByLabel("URL", { exact: true }).fill(url);
  if (bodyKind !== undefined) await pickBodyType(page, bodyKind);
}

/**
 * Attaches a text file to a row of the HTTP tab's form table and waits until the page has read
 * it (the row's value becomes the file's name).
 *
 * @param page the app page
 * @param row the form row, from 1
 * @param name the file's name
 * @param text its content (sent as text/plain)
 */
export async function attachFile(
  page: Page,
  row: number,
  name: string,
  text: string,
): Promise<void> {
  await page.getByLabel(`Attach file ${row}`).setInputFiles({
    name,
    mimeType: "text/plain",
    buffer: Buffer.from(text),
  });
  await page.waitForFunction(
    `document.querySelector('[aria-label="Form fields value ${row}"]')?.value === ${
      JSON.stringify(name)
    }`,
  );
}
