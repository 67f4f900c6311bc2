/**
 * Measures the workspace UI on a 1,000-request workspace (100 files of 10) against a
 * 64-request one (8 files of 8) in headless Chromium, and decides issue 36's launch goal
 * ("launch URL → file list ≤ 1.0× the 64-request workspace's time") with its noise beside it;
 * a 10,000-request workspace (1,000 files of 10) shows whether launch grows with the workspace
 * at all.
 *
 * **Launches** (the goal), through a bare CDP client (`scripts/cdp.ts`: nothing of Playwright's
 * in the page or in this process while a launch runs). Four arms take turns, round by round:
 * the 64-request workspace (A), a second copy of it (A′, the A/A control), the 1,000-request
 * one (B) and the 10,000-request one (C); each round launches each arm once, each launch as
 * `dial ui` does it: a new server on the workspace, a fresh browser context, the launch URL. The
 * rounds' orders form Williams squares (each arm first, second, third and fourth once in four
 * rounds, and each arm right after each other arm once), each with either 64-request folder as
 * A, drawn at random with a fixed seed ({@link schedule}): balanced, and A and A′ exchangeable,
 * so the A/A control centres on 1.00 whatever one launch leaves to the next. A launch's time is
 * the page's clock from the navigation's start to the first frame after the tree's first file is
 * in the page saying how many files the tree holds (the tree draws the rows in view: for any
 * size, its first screen; since session 15 that is the shell's list, which the page's bootstrap
 * fetches with the session, `src/ui/page.ts`, and the app's own list, the one that takes keys
 * and clicks, is timed beside it as "live"). The page's main-thread
 * CPU from the navigation to that point (CDP's `Performance.getMetrics` ThreadTime, the
 * thread's CPU time, which a busy machine inflates far less than the tasks' wall time) is read
 * in the same launch. The first rounds warm the machine up and are not counted.
 *
 * **The verdict rule** (docs/benchmarks.md, "How the launch goal is decided"): each round gives a
 * ratio B/A (and C/A, decided by the same rule) and a control A′/A. The statistic is the median of the rounds' B/A, with a 95 %
 * percentile-bootstrap interval (10,000 resamples, a fixed seed); with fewer than 20 rounds there
 * is no verdict. Met when the interval's top is ≤ 1.00; not met when its bottom is > 1.00;
 * otherwise "equal within one frame" when the top is ≤ 1 + one 60 Hz frame over A's median launch
 * (a difference no frame clock can show), else "not resolved". The A/A control gets the same
 * statistic: its interval is the bench's noise floor, printed in the verdict's line, and when it
 * does not hold 1.00 the verdict says the bench is biased.
 *
 * **Interactions**, through Playwright (as the browser tests): a quick-open keystroke → results
 * painted, the same keystrokes in the sidebar's filter → tree painted, a request-tab switch → the
 * other tab's URL painted, and on the long tree a scroll of the sidebar → the rows it brings
 * painted, three sessions per arm. They also leave each workspace with the same two tabs from
 * two files (item-1 and item-37), which every launch then restores.
 *
 * Figures go to docs/benchmarks.md ("Desktop UI"); nothing here is asserted by a test. The load
 * average is read before and after.
 *
 * Run: `deno task bench --only ui` (all the UI benchmarks), or alone:
 * `deno run -A --config tests/deno.json scripts/bench_ui_workspace.ts`
 * (`DIAL_BENCH_RUNS` counted rounds, 128 by default, ~7 min at load 6: a multiple of 8 keeps
 * the design balanced, and 128 rounds bring the intervals to about ±9 % at that load;
 * `DIAL_BENCH_WARMUP` rounds, 3)
 * @module
 */
import type { Browser } from "playwright-core";
import { launchBrowser, openApp, uiConfigDir } from "../tests/browser/_browser.ts";
import { startUiServer } from "../src/ui/server.ts";
import { loadAssets } from "../src/ui/assets.ts";
import { type CdpBrowser, type CdpPage, launchCdp } from "./cdp.ts";

const ROUNDS = Number(Deno.env.get("DIAL_BENCH_RUNS") ?? 128);
const WARMUP = Number(Deno.env.get("DIAL_BENCH_WARMUP") ?? 3);
/** Playwright sessions of each size for the interactions. */
const SESSIONS = 3;
/** The page's size (as the browser tests' `openApp`). */
const VIEWPORT = { width: 1280, height: 860 };
/** The fewest counted rounds the verdict rule decides on. */
const MIN_ROUNDS = 20;
/** A frame at 60 Hz, ms: what the frame clock of "painted" cannot tell apart. */
const FRAME = 1000 / 60;
/**
 * A Williams square of four arms: each arm is in each place once in four rounds, and right after
 * each other arm once (so whatever a launch leaves to the next is spread evenly).
 */
const ORDERS = [[0, 1, 3, 2], [1, 2, 0, 3], [2, 3, 1, 0], [3, 0, 2, 1]] as const;
/** The seed of the rounds' draw and of the bootstrap: the same run plan and intervals each run. */
const SEED = 0x5eed;

/** A round: the order of its launches (arm indexes), and whether the folders of A and A′ trade. */
interface Round {
  order: readonly number[];
  traded: 0 | 1;
}

/**
 * The rounds: `warmup` rounds, then the counted ones. The first half of those are blocks of four
 * drawn at random (a fixed seed): the Williams square's four orders in a random order, A's folder
 * drawn for two of them. The second half is the first's mirror: the same rounds in the same
 * order with A and A′ trading places (each with the same folders for A and A′). So each arm is in
 * each place equally often, each folder is A in half the rounds, and whatever a launch carries
 * over to the next one or the ones after it (a launch of B or C before, a server's garbage) comes
 * before A as often as before A′ (but for the launches across the halves' border): the A/A
 * control centres on 1.00 by construction, whatever the draw.
 */
function schedule(warmup: number, counted: number): Round[] {
  const random = seeded(SEED);
  const shuffled = <T>(items: T[]): T[] => {
    for (let i = items.length - 1; i > 0; i--) { // Fisher-Yates
      const j = Math.floor(random() * (i + 1));
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  };
  const block = () => {
    const traded = shuffled([0, 0, 1, 1] as Round["traded"][]);
    return shuffled([...ORDERS]).map((order, i): Round => ({ order, traded: traded[i]! }));
  };
  const blocks = (n: number) => {
    const rounds: Round[] = [];
    while (rounds.length < n) rounds.push(...block());
    return rounds.slice(0, n);
  };
  const half = blocks(Math.ceil(counted / 2));
  const mirror = half.map(({ order, traded }): Round => ({
    order: order.map((arm) => arm >= 2 ? arm : 1 - arm),
    traded,
  }));
  return [...blocks(warmup), ...half, ...mirror].slice(0, warmup + counted);
}

/** @returns a generator of numbers in [0, 1) from a seed (mulberry32) */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
  const sorted = [...values].sort((x, y) => x - y);
  return `median ${median(values).toFixed(digits)}${unit}, ${sorted[0]!.toFixed(digits)}-${
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
 * Page code, before the page's own: `globalThis.__painted`, a promise of when the file list is
 * painted (the first frame after it is in the DOM: the page's served list, or the app's in a
 * build without one), and `globalThis.__live`, of when the app's own list is painted (the tree
 * that takes keys and clicks), in the page's clock.
 */
function watchList(files: number): string {
  return `globalThis.__painted = new Promise((resolve) => {
    const seen = () => document.querySelector(${JSON.stringify(listShown(files))});
    const observer = new MutationObserver(() => {
      if (!seen()) return;
      observer.disconnect();
      globalThis.__listInDom = performance.now();
      requestAnimationFrame(() => {
        globalThis.__rowsPainted = document.querySelectorAll('nav [role="treeitem"]').length;
        setTimeout(() => {
          globalThis.__listPainted = performance.now();
          resolve(globalThis.__listPainted);
        });
      });
    });
    observer.observe(document, { childList: true, subtree: true });
  });
  globalThis.__live = new Promise((resolve) => {
    const seen = () => document.querySelector(${
    JSON.stringify(`.app:not([data-shell]) ${listShown(files)}`)
  });
    const observer = new MutationObserver(() => {
      if (!seen()) return;
      observer.disconnect();
      requestAnimationFrame(() => setTimeout(() => resolve(performance.now())));
    });
    observer.observe(document, { childList: true, subtree: true });
  })`;
}

/** Page code: the launch's phases, in ms from the navigation's start. */
const PHASES = `(() => {
  const resource = (path) => performance.getEntriesByType("resource")
    .find((e) => e.name.endsWith(path));
  const files = resource("/api/workspace/files");
  const nav = performance.getEntriesByType("navigation")[0];
  return {
    domContentLoaded: nav.domContentLoadedEventEnd,
    sessionAsked: resource("/api/session").startTime,
    sessionEnd: resource("/api/session").responseEnd,
    filesAsked: files.startTime,
    filesAnswered: files.responseEnd - files.startTime,
    filesBytes: files.encodedBodySize,
    draftsBytes: resource("/api/state/load").encodedBodySize,
    reads: performance.getEntriesByType("resource")
      .filter((e) => e.name.endsWith("/api/workspace/read") && e.startTime < globalThis.__listInDom)
      .length,
    bothEnd: Math.max(files.responseEnd, resource("/api/state/load").responseEnd),
    listInDom: globalThis.__listInDom,
    listPainted: globalThis.__listPainted,
    treeRows: globalThis.__rowsPainted,
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

/** A workspace the launches take turns on. */
interface Arm {
  name: string;
  files: number;
  perFile: number;
  dir: string;
  /** Counted launches: page clock to the list painted, ms. */
  launch: number[];
  /** Page clock to the app's own list painted (live), ms. */
  live: number[];
  /** The page's main-thread CPU from the navigation to the list painted, ms. */
  cpu: number[];
  /** `dial ui`'s server started → the painted list seen here, ms. */
  wall: number[];
  phases: Phases[];
  /** Its launches' places in their rounds (0, 1, 2). */
  places: number[];
  /** The arm of the launch before each (its index), -1 for the first. */
  after: number[];
  /** A's and A′'s: which of the two 64-request folders each launch had (0, 1). */
  folders: number[];
}

/** Interactions measured on a workspace through Playwright. */
interface Interactions {
  keys: number[];
  filterKeys: number[];
  redraws: number[];
  switches: number[];
  scrolls: number[];
}

const arms: Arm[] = [];
for (
  const [name, files, perFile] of [
    ["64 requests (A)", 8, 8],
    ["64 requests, a copy (A′, the A/A control)", 8, 8],
    ["1,000 requests (B)", 100, 10],
    ["10,000 requests (C)", 1000, 10],
  ] as const
) {
  arms.push({
    name,
    files,
    perFile,
    dir: await workspace(files, perFile),
    launch: [],
    live: [],
    cpu: [],
    wall: [],
    phases: [],
    places: [],
    after: [],
    folders: [],
  });
}
const [a, aa, b, c] = arms as [Arm, Arm, Arm, Arm];
/** The two 64-request folders, which take the roles A and A′ in turn. */
const copies = [a.dir, aa.dir] as const;
/** The bundle, read once as `dial ui` does at its start (not by each launch's server). */
const assets = await loadAssets();
const interactions = new Map<Arm, Interactions>();
const graphqlCacheDir = await Deno.makeTempDir({ prefix: "dial-bench-graphql-" });
const loadBefore = Deno.loadavg();
try {
  {
    await using browser = await launchBrowser();
    // Each arm the same sessions, so each restores the same state (A′'s figures are printed too).
    for (let run = 0; run < SESSIONS; run++) {
      for (const arm of ORDERS[run % ORDERS.length]!.map((i) => arms[i]!)) {
        if (!interactions.has(arm)) {
          interactions.set(arm, {
            keys: [],
            filterKeys: [],
            redraws: [],
            switches: [],
            scrolls: [],
          });
        }
        await interact(browser, arm, interactions.get(arm)!);
      }
    }
  }
  await using cdp = await launchCdp();
  let previous = -1;
  for (const [round, { order, traded }] of schedule(WARMUP, ROUNDS).entries()) {
    a.dir = copies[traded]!;
    aa.dir = copies[1 - traded]!;
    for (const [place, i] of order.entries()) {
      const arm = arms[i]!;
      const measured = await launch(cdp, arm);
      const after = previous;
      previous = i;
      if (round < WARMUP) continue;
      arm.launch.push(measured.painted);
      arm.live.push(measured.live);
      arm.cpu.push(measured.cpu);
      arm.wall.push(measured.wall);
      arm.phases.push(measured.phases);
      arm.places.push(place);
      arm.after.push(after);
      arm.folders.push(i === 0 ? traded : i === 1 ? 1 - traded : 0);
    }
  }
} finally {
  for (const dir of [...copies, b.dir, c.dir]) await Deno.remove(dir, { recursive: true });
  await Deno.remove(graphqlCacheDir, { recursive: true });
}
const loadAfter = Deno.loadavg();

const results: string[][] = [];
for (const arm of arms) {
  const { name, launch, live, cpu, wall, phases } = arm;
  results.push([`${name}: launch URL → file list painted (the page's clock)`, stats(launch)]);
  results.push([`${name}: launch URL → the app's own list painted (live)`, stats(live)]);
  results.push([
    `${name}: the page's main-thread CPU, launch → the app's list painted`,
    stats(cpu),
  ]);
  results.push([`${name}: dial ui's server started → file list painted (wall)`, stats(wall)]);
  const phase = (key: keyof Phases) => phases.map((p) => p[key]);
  results.push([`${name}: page start → DOMContentLoaded`, stats(phase("domContentLoaded"))]);
  results.push([`${name}: page start → session asked`, stats(phase("sessionAsked"))]);
  results.push([
    `${name}: page start → session and the shell's list answered`,
    stats(phase("sessionEnd")),
  ]);
  results.push([`${name}: page start → files asked`, stats(phase("filesAsked"))]);
  results.push([`${name}: files asked → answered`, stats(phase("filesAnswered"))]);
  results.push([`${name}: files answer's size`, stats(phase("filesBytes"), " bytes", 0)]);
  results.push([`${name}: drafts answer's size`, stats(phase("draftsBytes"), " bytes", 0)]);
  results.push([`${name}: files read before the list is in the DOM`, stats(phase("reads"), "", 0)]);
  results.push([`${name}: page start → drafts and files answered`, stats(phase("bothEnd"))]);
  results.push([
    `${name}: both answered → the app's list painted (its first render and frame)`,
    stats(phases.map((p, i) => live[i]! - p.bothEnd)),
  ]);
  results.push([
    `${name}: list in the DOM → painted (its frame: style, layout, paint)`,
    stats(phases.map((p) => p.listPainted - p.listInDom)),
  ]);
  results.push([
    `${name}: tree rows in the list's first frame`,
    stats(phase("treeRows"), " rows", 0),
  ]);
  const done = interactions.get(arm);
  if (!done) continue;
  if (done.scrolls.length > 0) {
    results.push([`${name}: sidebar scrolled by its height → rows painted`, stats(done.scrolls)]);
  }
  results.push([`${name}: quick-open keystroke → results painted`, stats(done.keys)]);
  results.push([`${name}: sidebar filter keystroke → tree painted`, stats(done.filterKeys)]);
  results.push([
    `${name}: the tree's first screen drawn anew (filter cleared) → painted`,
    stats(done.redraws),
  ]);
  results.push([`${name}: request-tab switch → painted`, stats(done.switches)]);
}
const byRound = (of: Arm, to: Arm, key: "launch" | "cpu") => of[key].map((t, i) => t / to[key][i]!);
const goal = interval(byRound(b, a, "launch"));
const tenfold = interval(byRound(c, a, "launch"));
const control = interval(byRound(aa, a, "launch"));
const inPlace = (place: number) =>
  arms.flatMap((arm) => arm.launch.filter((_, i) => arm.places[i] === place));
results.push([
  "every launch by its place in the round: 1st / 2nd / 3rd / 4th (order effects, all arms)",
  [0, 1, 2, 3].map((place) => `${median(inPlace(place)).toFixed(1)} ms`).join(" / "),
]);
const after = (arm: Arm, before: (i: number) => boolean) =>
  median(arm.launch.filter((_, i) => before(arm.after[i]!))).toFixed(1);
results.push([
  "A, A′ by the launch before them: a 64-request one / B / C (carry-over from the launch before)",
  [a, aa].map((arm) =>
    `${after(arm, (i) => i < 2)} / ${after(arm, (i) => i === 2)} / ${after(arm, (i) => i === 3)} ms`
  ).join("; "),
]);
const byFolder = (folder: number) =>
  median(byRound(aa, a, "launch").filter((_, i) => a.folders[i] === folder)).toFixed(3);
results.push([
  "A/A control by which folder was A: the first / the second (each 64-request folder is A in half the rounds)",
  `${byFolder(0)}× / ${byFolder(1)}×`,
]);
results.push(["A/A control: A′ to A, round by round (the bench's noise floor)", show(control)]);
results.push(["goal's ratio: B to A, round by round", show(goal)]);
results.push(["C to A, round by round (10,000 requests)", show(tenfold)]);
results.push([
  "ratio of medians, B to A, C to A (A′ to A)",
  `${(median(b.launch) / median(a.launch)).toFixed(3)}, ${
    (median(c.launch) / median(a.launch)).toFixed(3)
  } (${(median(aa.launch) / median(a.launch)).toFixed(3)})`,
]);
results.push([
  "the page's main-thread CPU, B to A, C to A (A′ to A), round by round",
  `${show(interval(byRound(b, a, "cpu")))}; ${show(interval(byRound(c, a, "cpu")))} (${
    show(interval(byRound(aa, a, "cpu")))
  })`,
]);
const frame = FRAME / median(a.launch);
results.push([
  "goal: launch ≤ 1.0× the 64-request workspace's (issue 36)",
  verdict(goal, control, frame),
]);
results.push([
  "the same rule for 10,000 requests: C to A",
  verdict(tenfold, control, frame),
]);
const load = (l: number[]) => l.map((n) => n.toFixed(2)).join(" ");
results.push([
  "load average (1, 5, 15 min), before / after",
  `${load(loadBefore)} / ${load(loadAfter)}`,
]);
const table = [
  "| measure | result |",
  "| --- | --- |",
  ...results.map(([name, value]) => `| ${name} | ${value} |`),
].join("\n");
await Deno.stdout.write(new TextEncoder().encode(`${table}\n`));

/** A median with its 95 % bootstrap interval. */
interface Interval {
  median: number;
  low: number;
  high: number;
  n: number;
}

/** @returns the median of the values (the mean of the middle two for an even count) */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The median of the values with a 95 % percentile-bootstrap interval: 10,000 resamples drawn with
 * a fixed seed (the same values always give the same interval).
 */
function interval(values: readonly number[]): Interval {
  const random = seeded(SEED);
  const medians: number[] = [];
  const sample = new Array<number>(values.length);
  for (let i = 0; i < 10_000; i++) {
    for (let j = 0; j < values.length; j++) {
      sample[j] = values[Math.floor(random() * values.length)]!;
    }
    medians.push(median(sample));
  }
  medians.sort((x, y) => x - y);
  return {
    median: median(values),
    low: medians[Math.floor(medians.length * 0.025)]!,
    high: medians[Math.ceil(medians.length * 0.975) - 1]!,
    n: values.length,
  };
}

function show({ median, low, high, n }: Interval): string {
  return `median ${median.toFixed(3)}×, 95 % interval ${low.toFixed(3)}-${
    high.toFixed(3)
  } (n=${n})`;
}

/**
 * The goal's verdict by the rule in this module's documentation.
 *
 * @param goal B/A by round
 * @param control A′/A by round
 * @param frame one frame as a fraction of A's median launch
 */
function verdict(goal: Interval, control: Interval, frame: number): string {
  return `${decide(goal, control, frame)} The A/A control: ${show(control)}.`;
}

function decide(goal: Interval, control: Interval, frame: number): string {
  const range = `${goal.low.toFixed(3)}-${goal.high.toFixed(3)}`;
  if (goal.n < MIN_ROUNDS) {
    return `**not decided**: ${goal.n} rounds; the rule needs at least ${MIN_ROUNDS} (a bootstrap ` +
      "interval of a few values says nothing).";
  }
  const biased = control.low > 1 || control.high < 1
    ? " The A/A interval does not hold 1.00: the bench is biased, the verdict is not to be trusted."
    : "";
  if (goal.high <= 1) return `**met**: the interval ${range} is at or below 1.00.${biased}`;
  if (goal.low > 1) return `**not met**: the interval ${range} is above 1.00.${biased}`;
  const margin = (1 + frame).toFixed(3);
  if (goal.high <= 1 + frame) {
    return `**equal within one frame**, not shown ≤ 1.00: the interval ${range} holds 1.00 and ` +
      `stays under ${margin} (one 60 Hz frame over A's median).${biased}`;
  }
  return `**not resolved**: the interval ${range} holds 1.00 and reaches past ${margin} ` +
    `(one frame); more rounds or a quieter machine.${biased}`;
}

/** One launch's phases, in ms from the navigation's start (see {@link PHASES}). */
interface Phases {
  domContentLoaded: number;
  sessionAsked: number;
  sessionEnd: number;
  filesAsked: number;
  filesAnswered: number;
  filesBytes: number;
  draftsBytes: number;
  reads: number;
  bothEnd: number;
  listInDom: number;
  listPainted: number;
  treeRows: number;
}

/**
 * One launch as `dial ui` makes it: a new server on the workspace, a fresh browser context, the
 * launch URL; until the file list is painted.
 */
async function launch(
  cdp: CdpBrowser,
  arm: Arm,
): Promise<{ painted: number; live: number; cpu: number; wall: number; phases: Phases }> {
  const started = performance.now();
  await using server = await startUiServer({
    workspace: arm.dir,
    configDir: uiConfigDir(),
    graphqlCacheDir,
    assets,
  });
  return await cdp.withPage(VIEWPORT, async (page) => {
    // The viewport of the browser tests (Playwright's `viewport` sets the same).
    await page.send("Emulation.setDeviceMetricsOverride", {
      ...VIEWPORT,
      deviceScaleFactor: 1,
      mobile: false,
    });
    await page.send("Page.enable");
    await page.send("Performance.enable");
    await page.send("Page.addScriptToEvaluateOnNewDocument", { source: watchList(arm.files) });
    const before = await threadTime(page);
    const loaded = page.next("Page.loadEventFired");
    await page.send("Page.navigate", { url: server.url.href });
    await loaded;
    const painted = Number(await page.evaluate("globalThis.__painted"));
    const wall = performance.now() - started;
    const live = Number(await page.evaluate("globalThis.__live"));
    const cpu = await threadTime(page) - before;
    const phases = await page.evaluate(PHASES) as Phases;
    return { painted, live, cpu, wall, phases };
  });
}

/** @returns the page's main thread's CPU time so far, ms */
async function threadTime(page: CdpPage): Promise<number> {
  const { metrics } = await page.send("Performance.getMetrics") as {
    metrics: Array<{ name: string; value: number }>;
  };
  return 1000 * (metrics.find((m) => m.name === "ThreadTime")?.value ?? NaN);
}

/**
 * A Playwright session on a workspace: its quick-open and filter keystrokes, the tree's redraw,
 * a scroll of a long tree and tab switches; it leaves the tabs item-37 and item-1 (in front)
 * open, which the launches restore.
 */
async function interact(browser: Browser, arm: Arm, into: Interactions): Promise<void> {
  const { files, perFile } = arm;
  await using app = await openApp(browser, { workspace: arm.dir, graphqlCacheDir });
  const { page } = app;
  await page.locator(listShown(files)).waitFor();
  // A long tree: a view of rows not drawn yet, three times (down, back to the top, down).
  if (files > 40) {
    for (const down of [true, false, true]) {
      into.scrolls.push(Number(await page.evaluate(scroll(down))));
    }
  }
  const find = page.getByRole("combobox", { name: "Find a request by name, URL or file" });
  await page.keyboard.press("Control+p");
  await find.waitFor();
  // The index is loaded when quick-open opens: wait for it before timing keystrokes.
  await page.getByRole("listbox", { name: "Requests" }).getByRole("option").first().waitFor();
  const query = files * perFile > 900 ? QUERY : QUERY.slice(0, 6).concat(["item-37"]);
  for (const text of query) {
    into.keys.push(Number(await page.evaluate(keystroke(QUICK_OPEN, text))));
  }
  // The same two tabs from two files for either size: item-37, then item-1 in front.
  for (const name of ["item-37", "item-1"]) {
    if (!(await find.isVisible())) await page.keyboard.press("Control+p");
    await find.fill(name);
    await page.getByRole("listbox", { name: "Requests" })
      .getByRole("option", { name: new RegExp(`^GET ${name}\\b`), selected: true }).waitFor();
    await page.keyboard.press("Enter");
    await page.getByRole("tab", { name, exact: true, selected: true }).waitFor();
  }
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
  for (let i = 0; i < 4; i++) {
    for (const [title, url] of [["item-37", "items/37"], ["item-1", "items/1"]]) {
      into.switches.push(
        Number(await page.evaluate(tabSwitch(title!, `http://127.0.0.1:9/${url}`))),
      );
    }
  }
}
