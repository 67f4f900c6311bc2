/**
 * The WebSocket tab in Chromium against a local WebSocket server that checks the handshake's
 * credentials: connect, send text, JSON and binary, receive, disconnect with a code.
 */
import assert from "node:assert/strict";
import { serve, waitFor } from "../_helpers.ts";
import { fileBrowser, openApp } from "./_browser.ts";

const browser = fileBrowser();

function echoServer() {
  const handshakes: Array<{ authorization: string | null; protocol: string | null }> = [];
  const server = serve((request) => {
    handshakes.push({
      authorization: request.headers.get("authorization"),
      protocol: request.headers.get("sec-websocket-protocol"),
    });
    if (request.headers.get("authorization") !== "Bearer s3cret") {
      return new Response("unauthorized", { status: 401 });
    }
    const { socket, response } = Deno.upgradeWebSocket(request, { protocol: "chat" });
    socket.onmessage = (event) => {
      if (typeof event.data === "string") socket.send(`echo: ${event.data}`);
      else socket.send(event.data);
    };
    return response;
  });
  return Object.assign(server, { handshakes });
}

Deno.test("browser: the WebSocket tab connects with the auth panel's Bearer token, sends text, JSON and binary, and disconnects with a code", async () => {
  await using target = echoServer();
  await using app = await openApp(browser());
  const { page } = app;
  await page.getByLabel("Auth", { exact: true }).selectOption("bearer");
  await page.getByLabel("Token").fill("s3cret");
  await page.getByRole("tab", { name: "WebSocket" }).click();
  await page.getByLabel("WebSocket endpoint").fill(`ws://127.0.0.1:${target.port}/chat`);
  await page.getByLabel("Subprotocols").fill("chat");
  await page.getByRole("button", { name: "Connect" }).click();
  await page.getByTestId("ws-state").filter({ hasText: "Connected (chat)" }).waitFor();
  assert.deepEqual(target.handshakes, [{ authorization: "Bearer s3cret", protocol: "chat" }]);

  const log = page.getByRole("list", { name: "Messages" });
  const editor = page.getByLabel("Message", { exact: true });
  await editor.click();
  await page.keyboard.type("hello");
  await page.keyboard.press("Control+Enter");
  await log.getByText("echo: hello").waitFor();

  await page.getByLabel("Message type").selectOption("json");
  await editor.click();
  await page.keyboard.press("Control+a");
  await page.keyboard.insertText('{"a":[1,');
  await page.getByText("Invalid JSON").waitFor();
  assert.equal(await page.getByRole("button", { name: "Send message" }).isDisabled(), true);
  await page.keyboard.press("Control+a");
  await page.keyboard.insertText('{"a":[1,2],"b":true}');
  await page.getByRole("button", { name: "Format" }).click();
  await page.getByRole("button", { name: "Send message" }).click();
  const echoedJson = log.getByText("echo: {", { exact: false }).last();
  await echoedJson.waitFor();
  await log.locator(".log-row.out").last().click();
  assert.equal(
    await page.getByTestId("entry-detail").textContent(),
    '{\n  "a": [\n    1,\n    2\n  ],\n  "b": true\n}',
  );

  await page.getByLabel("Message type").selectOption("hex");
  await editor.click();
  await page.keyboard.press("Control+a");
  await page.keyboard.insertText("00 01 ff");
  await page.keyboard.press("Control+Enter");
  const binaryIn = log.locator(".log-row.in").filter({ hasText: "00 01 ff" });
  await binaryIn.waitFor();
  assert.match(await binaryIn.textContent() ?? "", /3 B/);

  await page.getByText("Connection options").click();
  await page.getByLabel("Close code").fill("1001");
  await page.getByRole("button", { name: "Disconnect" }).click();
  assert.equal(
    await page.getByRole("alert").textContent(),
    `Invalid close code "1001": use 1000 or 3000–4999`,
  );
  assert.equal(await page.getByTestId("ws-state").textContent(), "Connected (chat)");
  await page.getByLabel("Close code").fill("4000");
  await page.getByLabel("Close reason").fill("bye now");
  await page.getByRole("button", { name: "Disconnect" }).click();
  await page.getByTestId("ws-close").filter({ hasText: "Closed by the client: 4000 bye now" })
    .waitFor();
  await page.getByTestId("ws-state").filter({ hasText: "Disconnected" }).waitFor();
  await page.getByRole("button", { name: "Connect" }).waitFor();
  const count = await page.getByTestId("messages-count").textContent();
  assert.match(count ?? "", /^\d+ shown$/);
});

Deno.test("browser: the WebSocket tab shows a refused handshake in words", async () => {
  await using target = echoServer();
  await using app = await openApp(browser());
  const { page } = app;
  await page.getByRole("tab", { name: "WebSocket" }).click();
  await page.getByLabel("WebSocket endpoint").fill(`ws://127.0.0.1:${target.port}/chat`);
  await page.getByRole("button", { name: "Connect" }).click();
  const alert = page.getByRole("alert");
  await alert.waitFor();
  assert.equal(
    await alert.textContent(),
    `WebSocket handshake refused by 127.0.0.1:${target.port}: HTTP 401: check the auth panel and the headers you added`,
  );
  await page.getByRole("button", { name: "Connect" }).waitFor();
});

Deno.test("browser: the WebSocket tab reconnects after an abnormal close, sends keep-alive messages and resends a saved message", async () => {
  const received: string[] = [];
  let connections = 0;
  await using target = serve((request) => {
    const { socket, response } = Deno.upgradeWebSocket(request);
    const connection = ++connections;
    socket.onmessage = (event) => {
      received.push(`${connection}:${event.data}`);
      // The first connection fails the way a restarting server does.
      if (connection === 1 && event.data === "first") socket.close(1011, "restarting");
      else if (event.data !== "ping") socket.send(`echo: ${event.data}`);
    };
    return response;
  });
  await using app = await openApp(browser());
  const { page } = app;
  await page.getByRole("tab", { name: "WebSocket" }).click();
  await page.getByLabel("WebSocket endpoint").fill(`http://127.0.0.1:${target.port}/live`);
  await page.getByText("Connection options").click();
  await page.getByLabel("Keep-alive message").check();
  await page.getByLabel("Every (seconds)").fill("0.2");
  await page.getByLabel("Keep-alive text").fill("ping");
  await page.getByLabel("Auto-reconnect").check();
  await page.getByLabel("Attempts").fill("2");
  await page.getByLabel("Delay (seconds)").fill("0.1");
  await page.getByRole("button", { name: "Connect" }).click();
  await page.getByTestId("ws-state").filter({ hasText: "Connected" }).waitFor();

  const editor = page.getByLabel("Message", { exact: true });
  await editor.click();
  await page.keyboard.insertText("first");
  await page.getByRole("button", { name: "Save message" }).click();
  await editor.click();
  await page.keyboard.press("Control+Enter");
  await page.getByTestId("ws-close").filter({ hasText: "Closed by the server: 1011 restarting" })
    .waitFor();
  await page.getByTestId("ws-state").filter({ hasText: "Connected · attempt 2" }).waitFor();
  await page.getByRole("button", { name: "Send saved message 1" }).click();
  const log = page.getByRole("list", { name: "Messages" });
  await log.getByText("echo: first").waitFor();
  // Keep-alive messages go out on the new connection too, marked in the log.
  await log.locator(".log-row.out").filter({ hasText: "♥" }).first().waitFor();
  await waitFor(() => received.includes("2:ping"), {
    message: () => `a keep-alive on the new connection (the server has ${received})`,
  });
  await page.getByRole("button", { name: "Disconnect" }).click();
  await page.getByTestId("ws-state").filter({ hasText: "Disconnected" }).waitFor();
  assert.deepEqual(received.filter((m) => !m.endsWith(":ping")), ["1:first", "2:first"]);
  assert.ok(received.includes("2:ping"), `keep-alive on the new connection: ${received}`);
});
