/**
 * Rules for the tests themselves: no Chromium but the harness's one per browser test file, and no sleeping or
 * endless polling where a test waits for something (`waitFor` in tests/_helpers.ts, Playwright's
 * locators in the browser).
 */
import assert from "node:assert/strict";

const TESTS = new URL("../", import.meta.url);

/** The test files (`*_test.ts`) and helpers (`_*.ts`) under a folder of tests/. */
async function files(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(new URL(dir, TESTS))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory && entry.name !== "fixtures") found.push(...await files(path));
    if (entry.isFile && entry.name.endsWith(".ts")) found.push(path);
  }
  return found.sort();
}

/** The text of a file without its comments, so that prose about sleeping does not count. */
async function code(path: string): Promise<string> {
  const text = await Deno.readTextFile(new URL(path, TESTS));
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}

Deno.test("test rules: a browser test file launches no Chromium of its own (the harness gives it one per file)", async () => {
  const tests = (await files("browser")).filter((f) => f.endsWith("_test.ts"));
  assert.ok(tests.includes("browser/http_tab_test.ts"), tests.join(" "));
  const wrong: string[] = [];
  for (const file of tests) {
    if (/\bchromium\.launch(Persistent\w*)?\(/.test(await code(file))) wrong.push(file);
  }
  assert.deepEqual(wrong, [], "use fileBrowser() from tests/browser/_browser.ts");
});

Deno.test("test rules: no sleep before acting and no endless poll (waitFor or an event instead)", async () => {
  const all = [...await files("browser"), ...await files("e2e"), ...await files("ui")];
  const wrong: string[] = [];
  for (const file of all) {
    const text = await code(file);
    // A loop whose only body is a timer: an unbounded poll.
    if (/while \([^)]*\)\s*await new Promise\(\(\w+\) => setTimeout\(/.test(text)) {
      wrong.push(`${file}: polls without a bound`);
    }
    // Reading until a line arrives, ignoring the end of the stream: endless when the child dies.
    if (/while \(![^)]*\)\s*\w+ \+= \(await \w+\.read\(\)\)\.value \?\? ""/.test(text)) {
      wrong.push(`${file}: reads past the end of a stream`);
    }
    if (/\bwaitForTimeout\(/.test(text)) wrong.push(`${file}: page.waitForTimeout`);
  }
  assert.deepEqual(wrong, []);
});
