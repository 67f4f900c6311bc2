/**
 * A stream log under a burst, in Chromium: 30,000 SSE events that lighttpd (a server nobody
 * here wrote) sends as fast as it reads them from a file arrive at once, in bridge frames the
 * log draws once per animation frame. Every event is counted, the live tail is followed, and
 * every event is reachable by scrolling, in order.
 */
import assert from "node:assert/strict";
import { hasLighttpd, startFileServer } from "../e2e/_lighttpd.ts";
import { fileBrowser, openApp } from "./_browser.ts";

const browser = fileBrowser();
const EVENTS = 30_000;

Deno.test({
  name:
    "browser: a burst of 30,000 SSE events from lighttpd is counted whole, follows the tail and scrolls to any event in order",
  ignore: !hasLighttpd,
  async fn() {
    let text = "";
    for (let i = 0; i < EVENTS; i++) text += `id: ${i}\ndata: {"seq":${i}}\n\n`;
    await using lighttpd = await startFileServer({ "events.sse": text }, [
      `mimetype.assign += ( ".sse" => "text/event-stream" )`,
    ]);
    await using app = await openApp(browser());
    const { page } = app;
    await page.getByRole("tab", { name: "SSE" }).click();
    // The file ends the stream: no reconnection (lighttpd would send it all again).
    await page.getByLabel("Reconnect when the stream ends").uncheck();
    await page.getByLabel("SSE endpoint").fill(`${lighttpd.origin}/events.sse`);
    await page.getByRole("button", { name: "Connect" }).click();
    const log = page.getByRole("list", { name: "Events" });
    await page.getByTestId("sse-state").filter({ hasText: "Disconnected" }).waitFor();
    // The stream's end is the last row: the tail was followed to it, past every event.
    const end = log.locator(".log-row").filter({ hasText: "Closed:" });
    await end.waitFor();
    const last = log.locator(".log-row").filter({ hasText: `{"seq":${EVENTS - 1}}` });
    const [listBox, lastBox] = [await log.boundingBox(), await last.boundingBox()];
    assert.ok(listBox && lastBox && lastBox.y >= listBox.y, "the last event is in view");
    assert.ok(
      lastBox.y + lastBox.height <= listBox.y + listBox.height,
      "the last event is in view",
    );
    const counted = await page.getByTestId("events-count").textContent() ?? "";
    const total = Number(counted.match(/^([\d,]+) shown$/)?.[1]?.replaceAll(",", ""));
    assert.equal(
      Number(await end.getAttribute("aria-posinset")),
      total,
      "the end is the last row counted",
    );

    /** Scrolls the list to a row and reads the rows drawn: [position, text]. */
    const rowsAt = async (position: number) => {
      await log.evaluate((list, top) => list.scrollTop = top, (position - 1) * 24);
      await log.locator(`[aria-posinset="${position}"]`).waitFor();
      return await log.locator(".log-row").evaluateAll((rows) =>
        rows.map((row) =>
          [Number(row.getAttribute("aria-posinset")), row.textContent ?? ""] as const
        )
      );
    };
    // Where the first event sits (after the connection's rows).
    const top = await rowsAt(1);
    const first = top.find(([, text]) => text.includes('{"seq":0}'))?.[0];
    assert.ok(first !== undefined, "the first event is at the top");
    // After the events, only the stream's end (its drop and close rows).
    const tail = (await rowsAt(total)).filter(([at]) => at >= first + EVENTS);
    assert.deepEqual(
      tail.map(([, text]) => text.replace(/^[\d:.]+/, "")),
      ["dropDisconnected: the server ended the stream", "closedClosed: the stream ended"],
    );
    assert.equal(total, first - 1 + EVENTS + tail.length, "every event is counted");
    for (const position of [first, first + 1, first + 7_777, first + 15_000, first + EVENTS - 1]) {
      const rows = await rowsAt(position);
      const seqs = rows.map(([at, text]) => [at, Number(text.match(/\{"seq":(\d+)\}/)?.[1])]);
      for (const [at, seq] of seqs) {
        if (at! >= first && at! < first + EVENTS) {
          assert.equal(seq, at! - first, `row ${at} holds event ${at! - first}`);
        }
      }
      assert.ok(seqs.some(([at]) => at === position), `row ${position} is drawn`);
    }
    // A row reached by scrolling opens in the detail pane.
    await log.locator(`[aria-posinset="${first + EVENTS - 1}"]`).click();
    assert.equal(
      await page.getByTestId("entry-detail").textContent(),
      `{\n  "seq": ${EVENTS - 1}\n}`,
    );
  },
});
