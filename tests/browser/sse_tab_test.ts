/**
 * The SSE tab in Chromium against local event-stream servers that check credentials on every
 * connection: a dropped stream is resumed with Last-Event-ID, POST carries a body, and a
 * given Last-Event-ID starts the stream.
 */
import assert from "node:assert/strict";
import { serve } from "../_helpers.ts";
import { fileBrowser, openApp } from "./_browser.ts";

const browser = fileBrowser();

const EVENT_STREAM = { "Content-Type": "text/event-stream" };

Deno.test("browser: the SSE tab resumes a dropped stream with Last-Event-ID and Basic auth, and shows the policy", async () => {
  const seen: Array<{ authorization: string | null; lastEventId: string | null }> = [];
  await using target = serve((request) => {
    seen.push({
      authorization: request.headers.get("authorization"),
      lastEventId: request.headers.get("last-event-id"),
    });
    if (request.headers.get("authorization") !== `Basic ${btoa("ann:pw")}`) {
      return new Response("no", { status: 401 });
    }
    // The first connection sends two events and drops; the next resumes after the last id;
    // the third is told there is nothing more (204).
    const lastEventId = request.headers.get("last-event-id");
    if (seen.length > 2) return new Response(null, { status: 204 });
    const body = seen.length === 1
      ? 'retry: 50\nid: 1\nevent: price\ndata: {"usd":10}\n\nid: 2\nevent: note\ndata: hello\n\n'
      : lastEventId === "2"
      ? 'id: 3\nevent: price\ndata: {"usd":12}\n\n'
      : "event: wrong\ndata: resumed without the id\n\n";
    return new Response(body, { headers: EVENT_STREAM });
  });
  await using app = await openApp(browser());
  const { page } = app;
  await page.getByLabel("Auth", { exact: true }).selectOption("basic");
  await page.getByLabel("Username").fill("ann");
  await page.getByLabel("Password").fill("pw");
  await page.getByRole("tab", { name: "SSE" }).click();
  await page.getByLabel("SSE endpoint").fill(`${target.origin}/events`);
  await page.getByRole("button", { name: "Connect" }).click();
  const log = page.getByRole("list", { name: "Events" });
  await log.getByText("Closed: the server answered 204 No Content: no more events").waitFor();
  const authorization = `Basic ${btoa("ann:pw")}`;
  assert.deepEqual(seen, [
    { authorization, lastEventId: null },
    { authorization, lastEventId: "2" },
    { authorization, lastEventId: "3" },
  ]);
  assert.equal(await page.getByTestId("sse-retry").textContent(), "50 ms (set by the server)");
  assert.equal(await page.getByTestId("sse-last-id").textContent(), "3");
  assert.equal(await page.getByTestId("sse-attempt").textContent(), "3");
  await log.getByText("Connecting (attempt 2, Last-Event-ID: 2)").waitFor();

  await page.getByLabel("Event type").selectOption("price");
  await page.getByTestId("events-count").filter({ hasText: /^2 of \d+ shown$/ }).waitFor();
  await log.getByText('{"usd":12}').click();
  assert.equal(await page.getByTestId("entry-detail").textContent(), '{\n  "usd": 12\n}');
  await page.keyboard.press("ArrowUp");
  await page.getByTestId("entry-detail").filter({ hasText: '"usd": 10' }).waitFor();
  await page.getByLabel("Filter events").fill('usd":10');
  await page.getByTestId("events-count").filter({ hasText: /^1 of \d+ shown$/ }).waitFor();

  await page.getByTestId("sse-state").filter({ hasText: "Disconnected" }).waitFor();
});

Deno.test("browser: the SSE tab POSTs a JSON body and starts from a given Last-Event-ID", async () => {
  await using target = serve(async (request) => {
    const body = await request.text();
    const data = JSON.stringify({
      method: request.method,
      body,
      lastEventId: request.headers.get("last-event-id"),
    });
    return new Response(`data: ${data}\n\n`, { headers: EVENT_STREAM });
  });
  await using app = await openApp(browser());
  const { page } = app;
  await page.getByRole("tab", { name: "SSE" }).click();
  await page.getByLabel("Send as").selectOption("POST");
  await page.getByLabel("SSE endpoint").fill(`${target.origin}/stream`);
  await page.getByLabel("Start from Last-Event-ID").fill("41");
  await page.getByText("Reconnect when the stream ends").click();
  await page.getByLabel("SSE body", { exact: true }).click();
  await page.keyboard.insertText('{"topic":"a"}');
  await page.getByRole("button", { name: "Connect" }).click();
  const log = page.getByRole("list", { name: "Events" });
  await log.getByText("Closed: the stream ended").waitFor();
  await log.locator(".log-row.event").click();
  assert.equal(
    await page.getByTestId("entry-detail").textContent(),
    '{\n  "method": "POST",\n  "body": "{\\"topic\\":\\"a\\"}",\n  "lastEventId": "41"\n}',
  );
  assert.equal(await page.getByTestId("sse-sent-id").textContent(), "41");
  assert.equal(target.requests.length, 1);
});

Deno.test("browser: the SSE tab's Disconnect ends an open stream", async () => {
  const cancelled = Promise.withResolvers<void>();
  await using target = serve(() => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("event: tick\ndata: 1\n\n"));
      },
      cancel() {
        cancelled.resolve();
      },
    });
    return new Response(body, { headers: EVENT_STREAM });
  });
  await using app = await openApp(browser());
  const { page } = app;
  await page.getByRole("tab", { name: "SSE" }).click();
  await page.getByLabel("SSE endpoint").fill(`${target.origin}/live`);
  await page.getByRole("button", { name: "Connect" }).click();
  const log = page.getByRole("list", { name: "Events" });
  await log.locator(".log-row.event").filter({ hasText: "tick" }).waitFor();
  assert.equal(await page.getByTestId("sse-state").textContent(), "Connected");
  await page.getByRole("button", { name: "Disconnect" }).click();
  await log.getByText("Closed: closed by the client").waitFor();
  await page.getByTestId("sse-state").filter({ hasText: "Disconnected" }).waitFor();
  await cancelled.promise;
});
