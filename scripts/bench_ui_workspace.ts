/**
 * Measures the workspace UI on a 1,000-request workspace (100 files of 10) against a
 * 64-request one (8 files of 8) in headless Chromium: launch URL → file list shown, a
 * quick-open keystroke → results painted, a request-tab switch → the other tab's URL painted.
 * Figures go to docs/benchmarks.md ("Desktop UI"); nothing here is asserted by a test.
 *
 * Run: `deno task bench --only ui` (all the UI benchmarks), or alone:
 * `deno run -A --config tests/deno.json scripts/bench_ui_workspace.ts`
 * @module
 */
import { launchBrowser, openApp } from "../tests/browser/_browser.ts";

const RUNS = 5;
const QUERY = ["i", "it", "ite", "item", "item-", "item-9", "item-93", "item-937"];

async function workspace(files: number, perFile: number): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "dial-bench-ws-" });
  for (let f = 0; f < files; f++) {
    const requests = [];
    for (let r = 0; r < perFile; r++) {
      const n = f * perFile + r;
      requests.push(`### item-${n}\n# @name item-${n}\nGET http://127.0.0.1:9/items/${n}\n`);
    }
    await Deno.writeTextFile(`${dir}/api-${String(f).padStart(3, "0")}.http`, requests.join("\n"));
  }
  return dir;
}

/** Page code: types into quick-open's box; ms until a frame shows the first result for it. */
function keystroke(text: string): string {
  return `(async (text) => {
    const box = document.querySelector('[role="combobox"][aria-controls="quick-open-results"]');
    const start = performance.now();
    box.value = text;
    box.dispatchEvent(new Event("input", { bubbles: true }));
    for (let frames = 0; frames < 120; frames++) {
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
      const first = document.querySelector('[role="option"][aria-selected="true"]');
      if (first && first.textContent.includes(text)) return performance.now() - start;
    }
    throw new Error("no result for " + text);
  })(${JSON.stringify(text)})`;
}

/** Page code: clicks a request tab; ms until a frame shows its URL. */
function tabSwitch(title: string, url: string): string {
  return `(async () => {
    const tab = [...document.querySelectorAll('[role="tab"]')].find((t) =>
      t.querySelector(".request-tab-title")?.textContent === ${JSON.stringify(title)});
    const start = performance.now();
    tab.click();
    for (let frames = 0; frames < 120; frames++) {
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
      if (document.getElementById("http-url").value === ${JSON.stringify(url)}) {
        return performance.now() - start;
      }
    }
    throw new Error("the tab did not show");
  })()`;
}

function stats(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `median ${median.toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms (n=${values.length})`;
}

await using browser = await launchBrowser();
const SIZES = [[8, 8], [100, 10]] as const;
const dirs = await Promise.all(SIZES.map(([files, perFile]) => workspace(files, perFile)));
const measured = SIZES.map(() => ({
  launch: [] as number[],
  keys: [] as number[],
  switches: [] as number[],
}));
try {
  // The two workspaces take turns, run after run: a drift of the machine's load falls on both.
  for (let run = 0; run < RUNS; run++) {
    for (const [i, [files, perFile]] of SIZES.entries()) {
      await measure(dirs[i]!, files, perFile, measured[i]!);
    }
  }
} finally {
  for (const dir of dirs) await Deno.remove(dir, { recursive: true });
}
const results: string[][] = [];
for (const [i, [files, perFile]] of SIZES.entries()) {
  const n = files * perFile;
  const { launch, keys, switches } = measured[i]!;
  results.push([`${n} requests: launch URL → file list`, stats(launch)]);
  results.push([`${n} requests: quick-open keystroke → results painted`, stats(keys)]);
  results.push([`${n} requests: request-tab switch → painted`, stats(switches)]);
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
results.push([
  "launch ratio, 1,000 requests to 64 (medians)",
  (median(measured[1]!.launch) / median(measured[0]!.launch)).toFixed(2),
]);

/** One launch of a workspace, its quick-open keystrokes and its tab switches. */
async function measure(
  dir: string,
  files: number,
  perFile: number,
  into: { launch: number[]; keys: number[]; switches: number[] },
): Promise<void> {
  const started = performance.now();
  await using app = await openApp(browser, { workspace: dir });
  const { page } = app;
  const last = `api-${String(files - 1).padStart(3, "0")}.http`;
  await page.getByRole("button", { name: last, exact: true }).waitFor();
  into.launch.push(performance.now() - started);
  await page.keyboard.press("Control+p");
  await page.getByRole("combobox", { name: "Find a request by name, URL or file" }).waitFor();
  // The index is loaded when quick-open opens: wait for it before timing keystrokes.
  await page.getByRole("listbox", { name: "Requests" }).getByRole("option").first().waitFor();
  const query = files * perFile > 900 ? QUERY : QUERY.slice(0, 6).concat(["item-3"]);
  for (const text of query) into.keys.push(Number(await page.evaluate(keystroke(text))));
  await page.keyboard.press("Enter");
  await page.keyboard.press("Control+p");
  await page.getByRole("combobox", { name: "Find a request by name, URL or file" }).fill(
    "item-1",
  );
  await page.getByRole("listbox", { name: "Requests" }).getByRole("option", { selected: true })
    .waitFor();
  await page.keyboard.press("Enter");
  await page.getByRole("tab", { name: "item-1", exact: true, selected: true }).waitFor();
  const target = query.at(-1)!;
  for (let i = 0; i < 4; i++) {
    into.switches.push(
      Number(
        await page.evaluate(tabSwitch(target, `http://127.0.0.1:9/items/${target.slice(5)}`)),
      ),
    );
    into.switches.push(
      Number(await page.evaluate(tabSwitch("item-1", "http://127.0.0.1:9/items/1"))),
    );
  }
}
const table = [
  "| measure | result |",
  "| --- | --- |",
  ...results.map(([name, value]) => `| ${name} | ${value} |`),
].join("\n");
await Deno.stdout.write(new TextEncoder().encode(`${table}\n`));
