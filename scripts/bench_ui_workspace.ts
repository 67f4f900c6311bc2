/**
 * Measures the workspace UI on a 1,000-request workspace (100 files of 10) against a
 * 64-request one (8 files of 8) in headless Chromium: launch URL → file list painted (in the
 * page's clock, from the navigation's start to the first frame after the tree's first file is
 * drawn saying how many files the tree holds; also, in wall time, from `dial ui`'s start with
 * the browser's new page, whose process start is the same for both and noisy), a quick-open keystroke → results
 * painted, the same keystrokes in the sidebar's filter → tree painted, a request-tab switch →
 * the other tab's URL painted, and on the long tree a scroll of the sidebar → the rows it
 * brings painted. The launch is also cut into its phases (the page up, the session,
 * `/api/workspace/files` and the drafts asked and answered, the app's first render with the
 * list, painted), and the page's main-thread CPU at launch is traced apart, so what scales with
 * the workspace, if anything, shows. The sizes take turns launch by launch, in the order ABBA…,
 * so drift of the machine's load and the order of the two fall on both alike; the load average
 * is read before and after. The last lines are the goal's ratio (issue 36: ≤ 1.0×) and its
 * verdict. Figures go to docs/benchmarks.md ("Desktop UI"); nothing here is asserted by a test.
 *
 * Run: `deno task bench --only ui` (all the UI benchmarks), or alone:
 * `deno run -A --config tests/deno.json scripts/bench_ui_workspace.ts`
 * @module
 */
import { launchBrowser, openApp } from "../tests/browser/_browser.ts";
import { mainThreadTasks, TRACE_CATEGORIES } from "../tests/browser/_trace.ts";

const RUNS = Number(Deno.env.get("DIAL_BENCH_RUNS") ?? 10);
/** Launches of each size traced apart (Chrome's trace costs time of its own). */
const TRACED = Math.max(2, Math.round(RUNS / 2));
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

/** Quick-open's box, and the result it selects. */
const QUICK_OPEN = [
  '[role="combobox"][aria-controls="quick-open-results"]',
  '[role="option"][aria-selected="true"]',
] as const;
/** The sidebar's filter, and the tree's first request. */
const FILTER = [
  'input[aria-label="Filter requests"]',
  '[role="tree"][aria-label="Request files"] button.request',
] as const;

/**
 * Page code: types into a box (quick-open's or the sidebar's filter); ms until a frame shows the
 * first result for it.
 */
function keystroke([box, result]: readonly [string, string], text: string): string {
  return `(async (text) => {
    const box = document.querySelector(${JSON.stringify(box)});
    const start = performance.now();
    box.value = text;
    box.dispatchEvent(new Event("input", { bubbles: true }));
    for (let frames = 0; frames < 120; frames++) {
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
      const first = document.querySelector(${JSON.stringify(result)});
      if (first && first.textContent.includes(text)) return performance.now() - start;
    }
    throw new Error("no result for " + text);
  })(${JSON.stringify(text)})`;
}

/**
 * Page code: clears the sidebar's filter; ms until a frame shows the tree's files again (its
 * first screen: what a launch draws of the tree).
 */
function clearFilter(files: number): string {
  return `(async () => {
    const box = document.querySelector(${JSON.stringify(FILTER[0])});
    const start = performance.now();
    box.value = "";
    box.dispatchEvent(new Event("input", { bubbles: true }));
    for (let frames = 0; frames < 120; frames++) {
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
      if (document.querySelector(${JSON.stringify(listShown(files))})) {
        return performance.now() - start;
      }
    }
    throw new Error("the files were not drawn");
  })()`;
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

function stats(values: number[], unit = " ms", digits = 1): string {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `median ${median.toFixed(digits)}${unit}, ${sorted[0]!.toFixed(digits)}-${
    sorted.at(-1)!.toFixed(digits)
  } (n=${values.length})`;
}

/**
 * The file list shown: the tree's first file drawn, saying the list holds all `files` (the tree
 * draws only the rows in view, so "shown" is its first screen, for either size).
 */
function listShown(files: number): string {
  return `[role="tree"][aria-label="Request files"] [role="treeitem"][aria-posinset="1"][aria-setsize="${files}"]`;
}

/**
 * Page code, before the page's own: notes when the file list is painted (the first frame
 * after it is in the DOM), in the page's clock.
 */
function watchList(files: number): string {
  return `(() => {
    const seen = () => document.querySelector(${JSON.stringify(listShown(files))});
    const observer = new MutationObserver(() => {
      if (!seen()) return;
      observer.disconnect();
      globalThis.__listInDom = performance.now();
      requestAnimationFrame(() => {
        globalThis.__listFrame = performance.now();
        setTimeout(() => { globalThis.__listPainted = performance.now(); });
      });
    });
    observer.observe(document, { childList: true, subtree: true });
  })()`;
}

/** Page code: the launch's phases, in ms from the navigation's start. */
const PHASES = `(() => {
  const resource = (path) => performance.getEntriesByType("resource")
    .find((e) => e.name.endsWith(path));
  const files = resource("/api/workspace/files");
  const nav = performance.getEntriesByType("navigation")[0];
  return {
    domContentLoaded: nav.domContentLoadedEventEnd,
    sessionEnd: resource("/api/session").responseEnd,
    filesAsked: files.startTime,
    filesAnswered: files.responseEnd - files.startTime,
    filesBytes: files.encodedBodySize,
    bothEnd: Math.max(files.responseEnd, resource("/api/state/load").responseEnd),
    listInDom: globalThis.__listInDom,
    listFrame: globalThis.__listFrame,
    listPainted: globalThis.__listPainted,
    treeRows: document.querySelectorAll('nav [role="treeitem"]').length,
  };
})()`;

/**
 * Page code: scrolls the sidebar down by its height, or back to its top; ms until a frame shows
 * the file row at the view's bottom, or the first (the files are folded: row n is file n + 1).
 */
function scroll(down: boolean): string {
  return `(async () => {
    const nav = document.querySelector('nav[aria-label="Workspace"]');
    const tree = nav.querySelector('[role="tree"]');
    const start = performance.now();
    nav.scrollTop = ${down} ? nav.scrollTop + nav.clientHeight : 0;
    const bottom = nav.getBoundingClientRect().bottom - tree.getBoundingClientRect().top;
    const position = ${down} ? Math.floor(bottom / 24) : 1;
    for (let frames = 0; frames < 120; frames++) {
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
      if (tree.querySelector('[role="treeitem"][aria-posinset="' + position + '"]')) {
        return performance.now() - start;
      }
    }
    throw new Error("row " + position + " was not drawn");
  })()`;
}

await using browser = await launchBrowser();
const SIZES = [[8, 8], [100, 10]] as const;
const dirs = await Promise.all(SIZES.map(([files, perFile]) => workspace(files, perFile)));
const measured = SIZES.map(() => ({
  launch: [] as number[],
  wall: [] as number[],
  keys: [] as number[],
  filterKeys: [] as number[],
  redraws: [] as number[],
  switches: [] as number[],
  phases: [] as Phases[],
  scrolls: [] as number[],
  cpu: [] as number[],
}));
const loadBefore = Deno.loadavg();
try {
  // The two workspaces take turns launch by launch, ABBA…: a drift of the machine's load, and
  // whatever the launch before leaves behind, fall on both alike.
  for (let run = 0; run < RUNS; run++) {
    for (const i of run % 2 === 0 ? [0, 1] : [1, 0]) {
      const [files, perFile] = SIZES[i]!;
      await measure(dirs[i]!, files, perFile, measured[i]!);
    }
  }
  for (let run = 0; run < TRACED; run++) {
    for (const i of run % 2 === 0 ? [0, 1] : [1, 0]) {
      measured[i]!.cpu.push(await launchCpu(dirs[i]!, SIZES[i]![0]));
    }
  }
} finally {
  for (const dir of dirs) await Deno.remove(dir, { recursive: true });
}
const results: string[][] = [];
for (const [i, [files, perFile]] of SIZES.entries()) {
  const n = files * perFile;
  const { launch, wall, keys, filterKeys, redraws, switches, phases, scrolls, cpu } = measured[i]!;
  results.push([`${n} requests: launch URL → file list painted (the page's clock)`, stats(launch)]);
  results.push([
    `${n} requests: dial ui started → file list shown (with the browser's new page; wall)`,
    stats(wall),
  ]);
  results.push([
    `${n} requests: the page's main-thread CPU, launch → list painted (traced)`,
    stats(cpu),
  ]);
  const phase = (key: keyof Phases) => phases.map((p) => p[key]);
  results.push([`${n} requests: page start → DOMContentLoaded`, stats(phase("domContentLoaded"))]);
  results.push([`${n} requests: page start → session answered`, stats(phase("sessionEnd"))]);
  results.push([`${n} requests: page start → files asked`, stats(phase("filesAsked"))]);
  results.push([`${n} requests: files asked → answered`, stats(phase("filesAnswered"))]);
  results.push([`${n} requests: files answer's size`, stats(phase("filesBytes"), " bytes", 0)]);
  results.push([
    `${n} requests: page start → drafts and files answered`,
    stats(phase("bothEnd")),
  ]);
  results.push([
    `${n} requests: both answered → list in the DOM (the app's first render)`,
    stats(phases.map((p) => p.listInDom - p.bothEnd)),
  ]);
  results.push([
    `${n} requests: list in the DOM → its frame begins`,
    stats(phases.map((p) => p.listFrame - p.listInDom)),
  ]);
  results.push([
    `${n} requests: frame begins → painted (style, layout, paint)`,
    stats(phases.map((p) => p.listPainted - p.listFrame)),
  ]);
  results.push([`${n} requests: tree rows in the page`, stats(phase("treeRows"), " rows", 0)]);
  if (scrolls.length > 0) {
    results.push([`${n} requests: sidebar scrolled by its height → rows painted`, stats(scrolls)]);
  }
  results.push([`${n} requests: quick-open keystroke → results painted`, stats(keys)]);
  results.push([`${n} requests: sidebar filter keystroke → tree painted`, stats(filterKeys)]);
  results.push([
    `${n} requests: the tree's first screen drawn anew (filter cleared) → painted`,
    stats(redraws),
  ]);
  results.push([`${n} requests: request-tab switch → painted`, stats(switches)]);
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
results.push([
  "launch ratio, 1,000 requests to 64 (medians)",
  (median(measured[1]!.launch) / median(measured[0]!.launch)).toFixed(2),
]);
results.push([
  "launch ratio, launch by launch (1,000 to the 64 beside it)",
  stats(measured[1]!.launch.map((t, i) => t / measured[0]!.launch[i]!), "×", 2),
]);
results.push([
  "the page's main-thread CPU at launch, 1,000 requests to 64 (medians, traced)",
  (median(measured[1]!.cpu) / median(measured[0]!.cpu)).toFixed(2),
]);
const pairs = median(measured[1]!.launch.map((t, i) => t / measured[0]!.launch[i]!));
results.push([
  "goal: launch ratio ≤ 1.0× (issue 36), by the pairs' median",
  `${pairs.toFixed(2)}×: ${pairs <= 1 ? "met" : "not met"}`,
]);
const load = (l: number[]) => l.map((n) => n.toFixed(2)).join(" ");
results.push([
  "load average (1, 5, 15 min), before / after",
  `${load(loadBefore)} / ${load(Deno.loadavg())}`,
]);

/** One launch's phases, in ms from the navigation's start (see {@link PHASES}). */
interface Phases {
  domContentLoaded: number;
  sessionEnd: number;
  filesAsked: number;
  filesAnswered: number;
  filesBytes: number;
  bothEnd: number;
  listInDom: number;
  listFrame: number;
  listPainted: number;
  treeRows: number;
}

/**
 * One launch traced: the CPU time of the page's main thread from before the navigation to the
 * file list painted, whatever the machine's load (the wall time above waits for cores too).
 */
async function launchCpu(dir: string, files: number): Promise<number> {
  await browser.startTracing(undefined, { categories: TRACE_CATEGORIES });
  let trace: Uint8Array | undefined;
  try {
    await using app = await openApp(browser, { workspace: dir }, {}, watchList(files));
    await app.page.waitForFunction(() => "__listPainted" in globalThis);
    trace = await browser.stopTracing();
  } finally {
    if (!trace) await browser.stopTracing();
  }
  return mainThreadTasks(trace).totalCpu;
}

/** One launch of a workspace, its quick-open keystrokes and its tab switches. */
async function measure(
  dir: string,
  files: number,
  perFile: number,
  into: {
    launch: number[];
    wall: number[];
    keys: number[];
    filterKeys: number[];
    redraws: number[];
    switches: number[];
    phases: Phases[];
    scrolls: number[];
  },
): Promise<void> {
  const started = performance.now();
  await using app = await openApp(browser, { workspace: dir }, {}, watchList(files));
  const { page } = app;
  await page.locator(listShown(files)).waitFor();
  into.wall.push(performance.now() - started);
  await page.waitForFunction(() => "__listPainted" in globalThis);
  const phases = await page.evaluate(PHASES) as Phases;
  into.phases.push(phases);
  into.launch.push(phases.listPainted);
  // A long tree: a view of rows not drawn yet, three times (down, back to the top, down).
  if (files > 40) {
    for (const down of [true, false, true]) {
      into.scrolls.push(Number(await page.evaluate(scroll(down))));
    }
  }
  await page.keyboard.press("Control+p");
  await page.getByRole("combobox", { name: "Find a request by name, URL or file" }).waitFor();
  // The index is loaded when quick-open opens: wait for it before timing keystrokes.
  await page.getByRole("listbox", { name: "Requests" }).getByRole("option").first().waitFor();
  // The last query's request is opened in a tab, in a file other than item-1's for both sizes:
  // the next launch restores the same work (two tabs from two files) for either.
  const query = files * perFile > 900 ? QUERY : QUERY.slice(0, 6).concat(["item-37"]);
  for (const text of query) {
    into.keys.push(Number(await page.evaluate(keystroke(QUICK_OPEN, text))));
  }
  await page.keyboard.press("Enter");
  // The index is loaded: the sidebar's filter, the same keystrokes (its first, "i", shows all).
  for (const text of query) {
    into.filterKeys.push(Number(await page.evaluate(keystroke(FILTER, text))));
  }
  // The tree's first screen drawn anew: a filter that matches nothing, cleared.
  for (let i = 0; i < 3; i++) {
    await page.getByRole("searchbox", { name: "Filter requests" }).fill("no-such-request");
    await page.getByRole("status").filter({ hasText: "No request matches" }).waitFor();
    into.redraws.push(Number(await page.evaluate(clearFilter(files))));
  }
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
