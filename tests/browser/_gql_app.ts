/**
 * Helpers for GraphQL-tab browser tests: open the tab, configure auth, load the schema, read
 * the editors' text (mirrored in localStorage).
 * @module
 */
import type { Browser, Locator, Page } from "playwright-core";
import { type AppSession, openApp, replaceEditorText } from "./_browser.ts";
import { type GraphqlServer, startGraphqlServer } from "./_graphql_server.ts";

/** Auth panel settings, by the panel's own labels. */
export type PanelAuth =
  | { kind: "none" }
  | { kind: "basic"; username: string; password: string }
  | { kind: "bearer"; token: string }
  | { kind: "apikey"; in: "header" | "query"; name: string; value: string }
  | {
    kind: "oauth2";
    flow: "client_credentials" | "authorization_code" | "password";
    tokenUrl: string;
    clientId: string;
    clientSecret?: string;
    authUrl?: string;
    port?: string;
  };

/**
 * The auth panel set for oauth2-mock-server: `client_credentials` as client `app` with the
 * secret `s3cret`, `password` as the public client `app` (the user's fields are filled apart),
 * `authorization_code` as the public client `cli-app` with its callback on `port`.
 *
 * @param flow the grant
 * @param mock the server's token and authorization URLs
 * @param port the loopback callback's port (the authorization-code flow)
 * @returns the panel's settings
 */
export function mockOAuth(
  flow: "client_credentials" | "authorization_code" | "password",
  mock: { tokenUrl: string; authUrl: string },
  port?: number,
): PanelAuth {
  const { tokenUrl, authUrl } = mock;
  if (flow === "client_credentials") {
    return { kind: "oauth2", flow, tokenUrl, clientId: "app", clientSecret: "s3cret" };
  }
  if (flow === "password") return { kind: "oauth2", flow, tokenUrl, clientId: "app" };
  return { kind: "oauth2", flow, tokenUrl, authUrl, clientId: "cli-app", port: String(port) };
}

/** An app with a token cache directory of its own. */
export interface OAuthApp extends AppSession {
  /** The UI server's OAuth 2.0 token cache (removed with the app). */
  cacheDir: string;
}

/**
 * Opens the app with an empty OAuth 2.0 token cache of its own and fills the auth panel.
 *
 * @param browser the browser
 * @param auth the auth panel's settings
 * @returns the server and the page, disposed together with the cache
 */
export async function openOAuthApp(browser: Browser, auth: PanelAuth): Promise<OAuthApp> {
  const cacheDir = await Deno.makeTempDir();
  const app = await openApp(browser, { oauthCacheDir: cacheDir });
  await setAuth(app.page, auth);
  return {
    server: app.server,
    page: app.page,
    cacheDir,
    async [Symbol.asyncDispose]() {
      await app[Symbol.asyncDispose]();
      await Deno.remove(cacheDir, { recursive: true });
    },
  };
}

/**
 * Fills the auth panel.
 *
 * @param page the app page
 * @param auth the settings
 */
export async function setAuth(page: Page, auth: PanelAuth): Promise<void> {
  await page.getByLabel("Auth", { exact: true }).selectOption(auth.kind);
  switch (auth.kind) {
    case "none":
      return;
    case "basic":
      await page.getByLabel("Username", { exact: true }).fill(auth.username);
      await page.getByLabel("Password", { exact: true }).fill(auth.password);
      return;
    case "bearer":
      await page.getByLabel("Token", { exact: true }).fill(auth.token);
      return;
    case "apikey":
      await page.getByLabel("Add to").selectOption(auth.in);
      await page.getByLabel("Key name").fill(auth.name);
      await page.getByLabel("Key value").fill(auth.value);
      return;
    case "oauth2":
      await page.getByLabel("Flow").selectOption(auth.flow);
      await page.getByLabel("Token URL").fill(auth.tokenUrl);
      await page.getByLabel("Client ID").fill(auth.clientId);
      if (auth.clientSecret) await page.getByLabel("Client secret").fill(auth.clientSecret);
      if (auth.authUrl) await page.getByLabel("Authorization URL").fill(auth.authUrl);
      if (auth.port) await page.getByLabel("Callback port").fill(auth.port);
      return;
  }
}

/**
 * Opens the GraphQL tab and loads the schema of an endpoint.
 *
 * @param page the app page
 * @param endpoint the GraphQL endpoint
 * @param options `expectError` to wait for the error instead of the tree
 */
export async function loadSchema(
  page: Page,
  endpoint: string,
  options: { expectError?: boolean } = {},
): Promise<void> {
  await page.getByRole("tab", { name: "GraphQL" }).click();
  await page.getByLabel("Endpoint URL").fill(endpoint);
  await page.getByRole("button", { name: "Load schema" }).click();
  if (options.expectError) await page.getByText("Cannot load the schema").waitFor();
  else await page.getByRole("tree", { name: "Schema" }).waitFor();
}

/** The app with a GraphQL server's schema loaded in its GraphQL tab. */
export interface GraphqlApp extends AppSession {
  /** The graphql-yoga server (GitHub's schema, mocked), stopped with the app. */
  graphql: GraphqlServer;
}

/**
 * Starts graphql-yoga with GitHub's schema (every request accepted), opens the app and loads
 * the schema in the GraphQL tab.
 *
 * @param browser the browser
 * @returns the server, the app's server and page, disposed together
 */
export async function openWithSchema(browser: Browser): Promise<GraphqlApp> {
  const graphql = await startGraphqlServer();
  const app = await openApp(browser);
  await loadSchema(app.page, graphql.endpoint);
  return {
    graphql,
    server: app.server,
    page: app.page,
    async [Symbol.asyncDispose]() {
      await app[Symbol.asyncDispose]();
      await graphql[Symbol.asyncDispose]();
    },
  };
}

/**
 * Opens the app as {@link openWithSchema} does, then writes the query (and variables) in the
 * GraphQL tab's editors.
 *
 * @param browser the browser
 * @param query the query editor's text
 * @param variables the variables editor's text, if any
 * @returns the server, the app's server and page, disposed together
 */
export async function openWithQuery(
  browser: Browser,
  query: string,
  variables?: string,
): Promise<GraphqlApp> {
  const app = await openWithSchema(browser);
  await setEditorText(app.page, "Query", query);
  if (variables !== undefined) await setEditorText(app.page, "Variables JSON", variables);
  return app;
}

/**
 * @param page the app page
 * @param path a schema tree item's path, e.g. `Query.repository.stargazerCount`
 * @returns the checkbox of the field at that path (named after its last segment)
 */
export function fieldBox(page: Page, path: string): Locator {
  return page.locator(`[data-path="${path}"]`).getByRole("checkbox", {
    name: path.split(".").at(-1)!,
    exact: true,
  });
}

/**
 * Searches the schema for a field's name, steps to it (see {@link searchAndStep}) and ticks or
 * unticks its checkbox.
 *
 * @param page the app page
 * @param path the field's tree path, e.g. `Query.repository.stargazerCount`
 * @param ticked whether to tick it (else untick)
 * @returns its checkbox
 */
export async function tickField(page: Page, path: string, ticked: boolean): Promise<Locator> {
  await searchAndStep(page, path.split(".").at(-1)!, path);
  const box = fieldBox(page, path);
  if (ticked) await box.check();
  else await box.uncheck();
  return box;
}

/**
 * @param page the app page
 * @returns the query editor's text
 */
export async function queryText(page: Page): Promise<string> {
  return await page.evaluate(() => JSON.parse(localStorage.getItem("dial.graphql.query") ?? '""'));
}

/**
 * @param page the app page
 * @returns the variables editor's text
 */
export async function variablesText(page: Page): Promise<string> {
  return await page.evaluate(() =>
    JSON.parse(localStorage.getItem("dial.graphql.variables") ?? '""')
  );
}

/**
 * Replaces an editor's whole text, as pasting would.
 *
 * @param page the app page
 * @param label the editor's accessible name
 * @param text the new text
 */
export async function setEditorText(page: Page, label: string, text: string): Promise<void> {
  await replaceEditorText(page.getByLabel(label, { exact: true }), text);
}

/**
 * Searches the schema, then presses Enter until the match at `path` is the current one.
 *
 * @param page the app page
 * @param text what to search for
 * @param path the tree path of the match wanted
 */
export async function searchAndStep(page: Page, text: string, path: string): Promise<void> {
  const search = page.getByRole("searchbox", { name: "Search schema" });
  await search.fill(text);
  const current = page.locator('[role="treeitem"][aria-current="true"]');
  for (let i = 0; i < 30; i++) {
    if (await current.getAttribute("data-path") === path) return;
    await search.press("Enter");
  }
  throw new Error(`no match at ${path}`);
}
