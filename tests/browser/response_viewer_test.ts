import assert from "node:assert/strict";
import { serve } from "../_helpers.ts";
import { fileBrowser, openApp } from "./_browser.ts";
import { setEditorText } from "./_gql_app.ts";

const browser = fileBrowser();

/** A JSON array of about 6 MiB, one object per line. */
function bigJson(): string {
  const items: string[] = [];
  for (let i = 0; i < 190_000; i++) items.push(`  {"id": ${i}, "name": "item-${i}"}`);
  items[4242] = '  {"id": 4242, "name": "needle-4242"}';
  return `[\n${items.join(",\n")}\n]\n`;
}

Deno.test("browser: a large response: a labelled preview, Ctrl+F finds a value, Save writes the whole body", async () => {
  const body = bigJson();
  await using target = serve(() =>
    new Response(body, { headers: { "Content-Type": "application/json" } })
  );
  await using app = await openApp(browser());
  const { page } = app;
  await page.getByLabel("URL", { exact: true }).fill(`${target.origin}/big.json`);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await page.getByTestId("status").filter({ hasText: "200" }).waitFor();
  const label = page.getByRole("note").filter({ hasText: "Preview" });
  assert.match(await label.textContent() ?? "", /^Preview: the first 5\.0 MB of \d\.\d MB$/);
  // The body is formatted by a worker in pieces: searched once all of it is in the viewer.
  await page.locator(".response-viewer:not([data-formatting]) .cm-line").filter({ hasText: '"' })
    .first().waitFor();
  // The viewer takes focus like any control, and Ctrl+F searches it.
  const viewer = page.getByLabel("Response body");
  await viewer.focus();
  await page.keyboard.press("Control+f");
  const find = page.getByRole("textbox", { name: "Find" });
  await find.pressSequentially("needle-4242");
  await find.press("Enter");
  await page.locator(".cm-searchMatch-selected").filter({ hasText: "needle-4242" }).waitFor();
  // Save streams the whole body from the server, not the preview.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Save", exact: true }).click(),
  ]);
  assert.equal(await Deno.readTextFile(await download.path()), body);
  assert.equal(download.suggestedFilename(), "big.json");
});

Deno.test("browser: Raw shows the body as sent, Copy copies it, an image is shown", async () => {
  const png = Uint8Array.from(
    atob(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
    ),
    (c) => c.charCodeAt(0),
  );
  await using target = serve((request) =>
    new URL(request.url).pathname === "/dot.png"
      ? new Response(png, { headers: { "Content-Type": "image/png" } })
      : new Response('{"a":1}', { headers: { "Content-Type": "application/json" } })
  );
  await using app = await openApp(browser());
  const { page } = app;
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByLabel("URL", { exact: true }).fill(`${target.origin}/a`);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  const viewer = page.getByLabel("Response body");
  await viewer.getByText('"a": 1').waitFor();
  await page.getByRole("button", { name: "Raw" }).click();
  await viewer.getByText('{"a":1}').waitFor();
  await page.getByRole("button", { name: "Copy", exact: true }).click();
  assert.equal(await page.evaluate("navigator.clipboard.readText()"), '{"a":1}');
  await page.getByLabel("URL", { exact: true }).fill(`${target.origin}/dot.png`);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  const image = page.getByRole("img", { name: "Response image" });
  await image.waitFor();
  await page.waitForFunction('document.querySelector("img.body-image")?.naturalWidth === 1');
});

Deno.test("browser: a large JSON body is formatted off the page's thread, whole, in order; Copy and a new response follow", async () => {
  // 1.2 MB on one line: formatted by the viewer's worker, appended in pieces.
  const items = Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `item-${i}`, ok: true }));
  const body = JSON.stringify(items);
  await using target = serve((request) =>
    new Response(new URL(request.url).pathname === "/small" ? '{"small":1}' : body, {
      headers: { "Content-Type": "application/json" },
    })
  );
  await using app = await openApp(browser());
  const { page } = app;
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByLabel("URL", { exact: true }).fill(`${target.origin}/big`);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  const done = page.locator(".http-response .response-viewer:not([data-formatting])");
  await page.getByLabel("Response body").getByText('"name": "item-0"').waitFor();
  await done.waitFor();
  await page.getByRole("button", { name: "Copy", exact: true }).click();
  // (The whole text is asked of the viewer's worker at the first copy: written when it comes.)
  await page.getByRole("status").filter({ hasText: "Copied" }).waitFor();
  const copied = await page.evaluate("navigator.clipboard.readText()") as string;
  // Every piece, in order: the whole body, indented as the CLI prints it.
  assert.equal(copied.trimEnd(), JSON.stringify(items, null, 2));
  // Its keys are coloured by the marks of the lines in view (no parse of the whole document).
  await page.locator(".http-response .cm-json-key").first().waitFor();
  // The next response replaces it whole.
  await page.getByLabel("URL", { exact: true }).fill(`${target.origin}/small`);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await page.getByLabel("Response body").getByText('"small": 1').waitFor();
  await page.getByRole("button", { name: "Copy", exact: true }).click();
  assert.equal(await page.evaluate("navigator.clipboard.readText()"), '{\n  "small": 1\n}');
});

Deno.test("browser: a large GraphQL answer (left to the viewer to format) is shown whole, formatted, in order", async () => {
  const items = Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `item-${i}` }));
  const answer = { data: { items } };
  await using target = serve(() => Response.json(answer));
  await using app = await openApp(browser());
  const { page } = app;
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByRole("tab", { name: "GraphQL" }).click();
  await page.getByLabel("Endpoint URL", { exact: true }).fill(`${target.origin}/graphql`);
  await setEditorText(page, "Query", "{ items { id name } }");
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const pane = page.getByRole("region", { name: "GraphQL response" });
  await pane.getByLabel("GraphQL response").getByText('"name": "item-0"').waitFor();
  await pane.locator(".response-viewer:not([data-formatting])").waitFor();
  await pane.getByRole("button", { name: "Copy", exact: true }).click();
  await pane.getByRole("status").filter({ hasText: "Copied" }).waitFor();
  const copied = await page.evaluate("navigator.clipboard.readText()") as string;
  assert.equal(copied.trimEnd(), JSON.stringify(answer, null, 2));
});

/**
 * Page code: holds `POST /api/http`'s answer after its first three lines (the response, the
 * body's first part's line and its text, which has no newline of its own: compact JSON) until
 * `releaseAnswer()` is called.
 */
const HOLD_ANSWER = `(() => {
  const realFetch = window.fetch.bind(window);
  let release;
  const released = new Promise((resolve) => release = resolve);
  window.releaseAnswer = () => release();
  window.fetch = async (input, init) => {
    const response = await realFetch(input, init);
    if (String(input) !== "/api/http") return response;
    const reader = response.body.getReader();
    let lines = 0;
    const body = new ReadableStream({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        if (lines >= 3) await released;
        let cut = -1;
        for (let i = 0; i < value.length && lines < 3; i++) {
          if (value[i] === 10 && ++lines === 3) cut = i + 1;
        }
        if (cut < 0) return controller.enqueue(value);
        controller.enqueue(value.subarray(0, cut));
        await released;
        controller.enqueue(value.subarray(cut));
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
})()`;

Deno.test("browser: a large JSON body is shown from its first part, before the rest arrives; a surrogate pair cut between parts survives", async () => {
  const item = (i: number) => JSON.stringify({ id: i, name: `item-${i}` });
  const head = `[${Array.from({ length: 2_000 }, (_, i) => item(i)).join(",")},{"s":"`;
  // The server cuts the body every 64 Ki characters: the emoji's two halves fall on either side.
  const pad = "a".repeat(2 * 65_536 - 1 - head.length);
  const tail = Array.from({ length: 20_000 }, (_, i) => item(2_000 + i)).join(",");
  const body = `${head}${pad}😀"},${tail}]`;
  assert.equal(body.charCodeAt(2 * 65_536 - 1), "😀".charCodeAt(0));
  await using target = serve(() =>
    new Response(body, { headers: { "Content-Type": "application/json" } })
  );
  await using app = await openApp(browser());
  const { page } = app;
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.evaluate(HOLD_ANSWER);
  await page.getByLabel("URL", { exact: true }).fill(`${target.origin}/big`);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  // Only the first part has come: its lines are formatted and shown, the rest is not there.
  const viewer = page.locator(".http-response .response-viewer");
  await viewer.getByText('"name": "item-0"').waitFor();
  assert.equal(await viewer.getAttribute("data-formatting"), "true");
  assert.equal(await page.getByRole("button", { name: "Copy", exact: true }).isDisabled(), true);
  assert.equal(await page.getByRole("button", { name: "Raw" }).isDisabled(), true);
  await page.getByLabel("Filter (JSONPath)").fill("$[0].id");
  await page.getByRole("alert").filter({ hasText: "The response body is still arriving" })
    .waitFor();
  await page.getByLabel("Filter (JSONPath)").fill("");
  await page.evaluate("releaseAnswer()");
  await page.locator(".http-response .response-viewer:not([data-formatting])").waitFor();
  await page.getByRole("button", { name: "Copy", exact: true }).click();
  await page.getByRole("status").filter({ hasText: "Copied" }).waitFor();
  const copied = await page.evaluate("navigator.clipboard.readText()") as string;
  assert.equal(copied.trimEnd(), JSON.stringify(JSON.parse(body), null, 2));
  // The whole body is the filter's once it is in.
  await page.getByLabel("Filter (JSONPath)").fill("$[22000].name");
  await page.getByLabel("Filter result").getByText('"item-21999"').waitFor();
});

/** Page code: each line the large viewer draws, with the line number beside it. */
const DRAWN_LINES = `(() => {
  const viewer = document.querySelector(".http-response .body-window");
  const numbers = [...viewer.querySelectorAll(".cm-lineNumbers .cm-gutterElement")]
    .filter((n) => n.offsetHeight > 0)
    .map((n) => ({ top: Math.round(n.getBoundingClientRect().top), n: Number(n.textContent) }));
  return [...viewer.querySelectorAll(".cm-line")].map((line) => {
    const top = Math.round(line.getBoundingClientRect().top);
    return { n: numbers.find((g) => Math.abs(g.top - top) <= 1)?.n, text: line.textContent };
  });
})()`;

Deno.test("browser: a large JSON body is viewed through a window of its lines: scrolled, its own line numbers; Ctrl+End, a previous match and Ctrl+A then copy reach the whole body", async () => {
  const items = Array.from({ length: 40_000 }, (_, i) => ({ id: i, name: `item-${i}` }));
  const pretty = JSON.stringify(items, null, 2);
  const lines = pretty.split("\n");
  await using target = serve(() =>
    new Response(JSON.stringify(items), { headers: { "Content-Type": "application/json" } })
  );
  await using app = await openApp(browser());
  const { page } = app;
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByLabel("URL", { exact: true }).fill(`${target.origin}/big`);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await page.locator(".http-response .response-viewer:not([data-formatting]) .cm-line").first()
    .waitFor();
  const drawn = async () => (await page.evaluate(DRAWN_LINES)) as { n?: number; text: string }[];
  // Scrolled to the middle (far past the first window): the lines drawn are the body's there.
  await page.evaluate(`(() => {
    const viewer = document.querySelector(".http-response .body-window");
    viewer.scrollTop = viewer.scrollHeight / 2;
  })()`);
  // (The line numbers drawn: the gutter's hidden element holds the widest number.)
  const gutter = page.locator(
    ".http-response .body-window .cm-lineNumbers .cm-gutterElement:visible",
  );
  await gutter.filter({ hasText: /^7\d{4}$/ }).first().waitFor();
  const middle = (await drawn()).filter((l) => l.n !== undefined);
  assert.ok(middle.length > 5, `${middle.length} lines drawn`);
  for (const line of middle) assert.equal(line.text, lines[line.n! - 1], `line ${line.n}`);
  // Ctrl+End: the body's last line, not the window's.
  await page.getByLabel("Response body").focus();
  await page.keyboard.press("Control+End");
  await gutter.getByText(String(lines.length), { exact: true }).waitFor();
  await page.locator(".http-response .body-window .cm-line").getByText("]", { exact: true })
    .waitFor();
  assert.deepEqual((await drawn()).at(-1), { n: lines.length, text: "]" });
  // The previous match from the end is at the body's start (outside the window the view was on).
  await page.keyboard.press("Control+f");
  const find = page.getByRole("textbox", { name: "Find" });
  // (Typed: the search panel takes its query at each key's release.)
  await find.pressSequentially('"item-7"');
  await find.press("Shift+Enter");
  await page.locator(".cm-searchMatch-selected").filter({ hasText: '"item-7"' }).waitFor();
  const found = (await drawn()).find((l) => l.text.includes('"item-7"'));
  assert.deepEqual(found, { n: lines.indexOf('    "name": "item-7"') + 1, text: lines[31] });
  // Ctrl+A, then copy: the whole body, not the window.
  await page.keyboard.press("Escape");
  await page.getByLabel("Response body").focus();
  await page.keyboard.press("Control+a");
  await page.keyboard.press("Control+c");
  await page.getByRole("status").filter({ hasText: "Copied" }).waitFor();
  const copied = await page.evaluate("navigator.clipboard.readText()") as string;
  assert.equal(copied.trimEnd(), pretty);
});

/**
 * Page code: walks the large viewer by half screens (down or up) until its window of lines has
 * moved and five steps more, waiting at each step until lines are drawn at the view's top.
 * @returns the body's line number at the view's top after each step, and the view's height
 */
const walk = (down: boolean) =>
  `(async () => {
  const scroller = document.querySelector(".http-response .body-window");
  const host = scroller.querySelector(".body-window-lines");
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const topLine = () => {
    const top = scroller.getBoundingClientRect().top;
    const numbers = [...scroller.querySelectorAll(".cm-lineNumbers .cm-gutterElement")]
      .filter((n) => n.offsetHeight > 0 && n.getBoundingClientRect().bottom > top + 1)
      .map((n) => ({ top: n.getBoundingClientRect().top, n: Number(n.textContent) }))
      .sort((a, b) => a.top - b.top);
    return numbers[0]?.n;
  };
  const drawn = async () => {
    for (let frames = 0; frames < 5000; frames++) {
      await frame();
      const line = topLine();
      if (line !== undefined) return line;
    }
    throw new Error("no line drawn at the view's top");
  };
  const start = host.style.top;
  const tops = [await drawn()];
  for (let after = 0; after < 5 && tops.length < 2000;) {
    scroller.scrollBy(0, (${down} ? 1 : -1) * Math.floor(scroller.clientHeight / 2));
    await frame();
    tops.push(await drawn());
    if (host.style.top !== start) after++;
  }
  return { tops, height: scroller.clientHeight };
})()`;

Deno.test("browser: a large JSON body's long lines wrap in its window of lines; walking past the window's edge down, then up with the viewer focused, keeps the view's place; the lines drawn are the body's", async () => {
  const items = Array.from({ length: 6_000 }, (_, i) => ({
    id: i,
    name: `item-${i}`,
    note: i % 3 === 0 ? `${"word ".repeat(120)}${i}` : "short",
  }));
  const lines = JSON.stringify(items, null, 2).split("\n");
  await using target = serve(() =>
    new Response(JSON.stringify(items), { headers: { "Content-Type": "application/json" } })
  );
  await using app = await openApp(browser());
  const { page } = app;
  await page.getByLabel("URL", { exact: true }).fill(`${target.origin}/long`);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await page.locator(".http-response .response-viewer:not([data-formatting]) .cm-line").first()
    .waitFor();
  await page.evaluate(`(() => {
    const viewer = document.querySelector(".http-response .body-window");
    viewer.scrollTop = viewer.scrollHeight / 2;
  })()`);
  const gutter = page.locator(
    ".http-response .body-window .cm-lineNumbers .cm-gutterElement:visible",
  );
  await gutter.filter({ hasText: /^1\d{4}$/ }).first().waitFor();
  const drawn = async () => (await page.evaluate(DRAWN_LINES)) as { n?: number; text: string }[];
  const check = async () => {
    const shown = (await drawn()).filter((l) => l.n !== undefined);
    assert.ok(shown.length > 5, `${shown.length} lines drawn`);
    for (const line of shown) assert.equal(line.text, lines[line.n! - 1], `line ${line.n}`);
  };
  await check();
  // A long line is drawn whole on several rows, and nothing scrolls sideways.
  const wrapped = await page.evaluate(`(() => {
    const viewer = document.querySelector(".http-response .body-window");
    const long = [...viewer.querySelectorAll(".cm-line")].find((l) => l.textContent.length > 500);
    return { rows: long.getClientRects().length && long.offsetHeight / 20, sideways: viewer.scrollWidth > viewer.clientWidth };
  })()`) as { rows: number; sideways: boolean };
  assert.ok(wrapped.rows >= 3, `a long line on ${wrapped.rows} rows`);
  assert.equal(wrapped.sideways, false);
  // Down past the window's edge (another window comes), then up past it with the viewer focused
  // (CodeMirror then keeps the view's place itself as it measures): at each half screen the
  // view's top line moves on by at most half a screen of rows, never back, never far.
  for (const down of [true, false]) {
    if (!down) await page.getByLabel("Response body").focus();
    const { tops, height } = await page.evaluate(walk(down)) as { tops: number[]; height: number };
    const most = Math.ceil(height / 2 / 20) + 1;
    for (let i = 1; i < tops.length; i++) {
      const step = down ? tops[i]! - tops[i - 1]! : tops[i - 1]! - tops[i]!;
      assert.ok(step >= 0 && step <= most, `step ${i}: line ${tops[i - 1]} to ${tops[i]}`);
    }
    assert.ok(Math.abs(tops.at(-1)! - tops[0]!) > 100, `walked ${tops[0]} to ${tops.at(-1)}`);
    await check();
  }
});

Deno.test("browser: a response that follows a cancelled large JSON body (still being formatted) is shown, and Copy copies it", async () => {
  const items = Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `item-${i}` }));
  await using target = serve((request) =>
    new Response(
      new URL(request.url).pathname === "/small" ? '{"small":1}' : JSON.stringify(items),
      {
        headers: { "Content-Type": "application/json" },
      },
    )
  );
  await using app = await openApp(browser());
  const { page } = app;
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  // Only the first answer is held after its first part (the next one comes whole).
  await page.evaluate(HOLD_ANSWER.replace(
    'if (String(input) !== "/api/http") return response;',
    'if (String(input) !== "/api/http" || window.held) return response; window.held = true;',
  ));
  await page.getByLabel("URL", { exact: true }).fill(`${target.origin}/big`);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  const viewer = page.locator(".http-response .response-viewer");
  await viewer.getByText('"name": "item-0"').waitFor();
  assert.equal(await viewer.getAttribute("data-formatting"), "true");
  await page.getByRole("button", { name: "Cancel", exact: true }).click();
  // (The held answer's reader waits for this, not for the abort.)
  await page.evaluate("releaseAnswer()");
  await page.getByLabel("URL", { exact: true }).fill(`${target.origin}/small`);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await page.getByLabel("Response body").getByText('"small": 1').waitFor();
  await page.locator(".http-response .response-viewer:not([data-formatting])").waitFor();
  await page.getByRole("button", { name: "Copy", exact: true }).click();
  assert.equal(await page.evaluate("navigator.clipboard.readText()"), '{\n  "small": 1\n}');
});
