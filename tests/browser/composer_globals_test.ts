/**
 * The composers' messages take the same variables as Send and `dial run`: a global a response
 * handler set in the workspace session fills a gRPC stream message and a WebSocket message,
 * of a file's request (the scope its evaluation built) and of a tab in no file, checked on the
 * grpc-js greeter's and a WebSocket server's side.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { serve } from "../_helpers.ts";
import { fileBrowser, openApp, openRequest } from "./_browser.ts";
import { startGreeter } from "../e2e/_grpc.ts";

const browser = fileBrowser();
const GREETER = "greet.v1.Greeter";

/** A WebSocket server that keeps each text message and answers `echo: TEXT`. */
function echoServer() {
  const received: string[] = [];
  const server = serve((request) => {
    const { socket, response } = Deno.upgradeWebSocket(request);
    socket.onmessage = (event) => {
      received.push(String(event.data));
      socket.send(`echo: ${event.data}`);
    };
    return response;
  });
  return Object.assign(server, { received });
}

/** Replaces the text of a composer's editor. */
async function write(page: Page, label: string, text: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.insertText(text);
}

/** Sends one message on the gRPC tab's open Chat and waits for the greeter's answer. */
async function chat(page: Page, text: string, answer: string): Promise<void> {
  await page.getByRole("button", { name: "Open stream" }).click();
  const log = page.getByRole("list", { name: "Replies" });
  await log.getByText("Stream open").waitFor();
  await write(page, "Stream message", text);
  await page.getByRole("button", { name: "Send message" }).click();
  await log.getByText(answer).waitFor();
  await page.getByRole("button", { name: "End sending" }).click();
  await page.getByTestId("grpc-status").filter({ hasText: /· 1 sent · 1 reply$/ }).waitFor();
}

/** Connects the WebSocket tab, sends one message and waits for the server's echo. */
async function echo(page: Page, text: string, answer: string): Promise<void> {
  await page.getByRole("button", { name: "Connect" }).click();
  await page.getByTestId("ws-state").filter({ hasText: "Connected" }).waitFor();
  await write(page, "Message", text);
  await page.getByRole("button", { name: "Send message" }).click();
  await page.getByRole("list", { name: "Messages" }).getByText(answer).waitFor();
  await page.getByRole("button", { name: "Disconnect" }).click();
  await page.getByRole("button", { name: "Connect" }).waitFor();
}

Deno.test("browser: a global set by a handler fills the gRPC stream composer's and the WebSocket composer's messages, of a file's request and of a new tab", async () => {
  await using greeter = await startGreeter();
  await using ws = echoServer();
  const dir = await Deno.makeTempDir({ prefix: "dial-composer-globals-" });
  try {
    await Deno.writeTextFile(
      `${dir}/calls.http`,
      `@addr = ${greeter.address}

### hello
GRPC {{addr}}/${GREETER}/SayHello

{"name": "ann"}

> {%
  client.global.set("greeting", response.body.message);
%}

### chat
GRPC {{addr}}/${GREETER}/Chat

{"name": "from the file"}

### socket
WEBSOCKET ws://127.0.0.1:${ws.port}/socket
`,
    );
    await using app = await openApp(browser(), { workspace: dir });
    const { page } = app;
    const sidebar = await openRequest(page, "calls.http", "GRPC hello");
    await page.getByRole("button", { name: "Call", exact: true }).click();
    await page.getByTestId("grpc-status").filter({ hasText: /^OK \(0\)/ }).waitFor();

    // A file's bidi request: the greeter answers the name the global filled in.
    await sidebar.getByRole("button", { name: "GRPC chat" }).click();
    await chat(page, '{"name": "{{greeting}} from the file"}', "Hello Hello ann from the file");
    // A new gRPC tab (in no file) sees the same session.
    await page.getByRole("button", { name: "New gRPC request tab" }).click();
    await page.getByLabel("Server").fill(greeter.address);
    await page.getByRole("button", { name: "Load methods" }).click();
    await page.getByLabel("RPCs").selectOption(`${GREETER}/Chat`);
    await chat(page, '{"name": "{{greeting}} from a tab"}', "Hello Hello ann from a tab");

    // The WebSocket server receives the global in the file's request's message and a tab's.
    await sidebar.getByRole("button", { name: "WEBSOCKET socket" }).click();
    await page.getByRole("tab", { name: "WebSocket", selected: true }).waitFor();
    await echo(page, "{{greeting}} to the file's socket", "echo: Hello ann to the file's socket");
    await page.getByRole("button", { name: "New WebSocket request tab" }).click();
    await page.getByLabel("WebSocket endpoint").fill(
      `ws://127.0.0.1:${ws.port}/tab?g={{greeting}}`,
    );
    // The tab's variables line knows the session's global, as its Connect does.
    await page.locator("p.variables-line:visible")
      .getByText("{{greeting}} = (set by a script) (a global of this session)").waitFor();
    await echo(page, "{{greeting}} to a tab's socket", "echo: Hello ann to a tab's socket");
    assert.deepEqual(ws.received, [
      "Hello ann to the file's socket",
      "Hello ann to a tab's socket",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
