import assert from "node:assert/strict";
import { fileBrowser, openApp, replaceEditorText } from "./_browser.ts";

const browser = fileBrowser();

/** A WebSocket server (Deno's) that answers `burst N` with N messages at once. */
function burstServer(): Deno.HttpServer<Deno.NetAddr> & AsyncDisposable {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const { socket, response } = Deno.upgradeWebSocket(request);
    socket.onmessage = (event) => {
      const n = Number(String(event.data).split(" ")[1]);
      for (let i = 0; i < n; i++) socket.send(`{"seq":${i},"price":${(i * 1.37).toFixed(2)}}`);
    };
    return response;
  });
}

Deno.test("browser: a 100,000-message WebSocket burst reaches the log whole", async () => {
  await using target = burstServer();
  await using app = await openApp(browser());
  const { page } = app;
  await page.getByRole("tab", { name: "WebSocket" }).click();
  await page.getByLabel("WebSocket endpoint").fill(`ws://127.0.0.1:${target.addr.port}/`);
  await page.getByRole("button", { name: "Connect" }).click();
  await page.getByTestId("ws-state").filter({ hasText: "Connected" }).waitFor();
  // The log draws its rows at the next animation frame: its "Connected" row is counted then.
  await page.getByRole("list", { name: "Messages" }).getByText("Connected", { exact: true })
    .waitFor();
  const before = Number((await page.getByTestId("messages-count").textContent())?.split(" ")[0]);
  await replaceEditorText(page.getByLabel("Message", { exact: true }), "burst 100000");
  await page.getByLabel("Message", { exact: true }).press("Control+Enter");
  // The log follows the newest row: the burst's last message shows when all has arrived.
  await page.locator(".log-row", { hasText: '"seq":99999' }).waitFor({ timeout: 120_000 });
  const counter = await page.getByTestId("messages-count").textContent() ?? "";
  // The earlier rows, the sent message and the burst, in a log that keeps 100,000: nothing lost
  // on the way (a loss would also add a "dropped" row), only the log's own oldest entries.
  assert.equal(counter, `100,000 shown (oldest ${before + 1} dropped: the log keeps 100,000)`);
});
