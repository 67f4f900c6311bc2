/**
 * Helpers for GraphQL-tab browser tests: open the tab, configure auth, load the schema, read
 * the editors' text (mirrored in localStorage).
 * @module
 */
import type { Page } from "playwright-core";

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
  await page.getByLabel(label, { exact: true }).fill(text);
}
