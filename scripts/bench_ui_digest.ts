/**
 * Measures what the base digests cost the workspace UI's file reads and writes (issue 36): each
 * `/api/workspace/read` and `write` answer carries every request's keyed digest
 * (`src/ui/api/base_digest.ts`: a parse of the file and an HMAC-SHA-256 per request, both kept
 * per key: a file read again unchanged is neither parsed nor signed, a save signs only the
 * requests it changed). On the 1,000-request workspace (100 files of 10) and on one file of
 * 1,000 requests, against a real `dial ui` server over loopback: a read's round trip (what a
 * launch pays per restored tab's file, and a tab opened from the sidebar), a save's round trip
 * (one request changed, a new edit each time), and the digests alone in this process for texts
 * of the same kind it has not seen (the server runs in this process: its memo is this one), so
 * the lines say what share of a read or a save the digests are; and the first digest of a
 * 1,000-request file (every request new: what each read and save of it cost before the memo).
 * Each measured median of several rounds; the load average is read before and after. Figures go
 * to docs/benchmarks.md; nothing here is asserted.
 *
 * Run: `deno task bench --only ui`, or alone:
 * `deno run -A --config tests/deno.json scripts/bench_ui_digest.ts`
 * @module
 */
import { startUiServer } from "../src/ui/server.ts";
import { requestDigests } from "../src/ui/api/base_digest.ts";
import { apiHeaders, sessionOf } from "../tests/ui/_session.ts";

const ROUNDS = Number(Deno.env.get("DIAL_BENCH_RUNS") ?? 5);

function fileText(first: number, count: number): string {
  const requests = [];
  for (let r = first; r < first + count; r++) {
    requests.push(
      `### item-${r}\n# @name item-${r}\nPOST http://127.0.0.1:9/items/${r}\n` +
        `Authorization: Bearer {{token}}\nContent-Type: application/json\n\n{"id": ${r}}\n`,
    );
  }
  return requests.join("\n");
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function loadAverage(): Promise<string> {
  const text = await Deno.readTextFile("/proc/loadavg").catch(() => "? ? ?");
  return text.split(" ").slice(0, 3).join(" ");
}

const loadBefore = await loadAverage();
const root = await Deno.makeTempDir({ prefix: "dial-bench-digest-" });
const workspace = `${root}/ws`;
const configDir = `${root}/config`;
await Deno.mkdir(workspace);
const files: string[] = [];
for (let f = 0; f < 100; f++) {
  const path = `api-${String(f).padStart(3, "0")}.http`;
  await Deno.writeTextFile(`${workspace}/${path}`, fileText(f * 10, 10));
  files.push(path);
}
await Deno.writeTextFile(`${workspace}/big.http`, fileText(0, 1000));

const server = await startUiServer({ workspace, configDir });
try {
  const session = await sessionOf(server);
  const call = async (path: string, body: unknown) => {
    const response = await fetch(new URL(`/api/workspace/${path}`, server.url), {
      method: "POST",
      headers: apiHeaders(session),
      body: JSON.stringify(body),
    });
    const json = await response.json();
    if (!response.ok) throw new Error(`${path}: ${JSON.stringify(json)}`);
    return json as { text: string; mtime: number };
  };
  /** ms of a read's round trip, and of the digests alone for its text (this process). */
  const readAndDigest = async (path: string) => {
    let start = performance.now();
    const { text } = await call("read", { path });
    const read = performance.now() - start;
    start = performance.now();
    await requestDigests(text, { configDir });
    return { read, digest: performance.now() - start };
  };
  // Each save changes the first request anew (a text neither the server nor this process saw).
  let edits = 0;
  const edit = (text: string) =>
    text.replace(/\{"id": (\d+)[^}]*\}/, `{"id": $1, "edit": ${++edits}}`);
  const saveAndDigest = async (path: string) => {
    const { text, mtime } = await call("read", { path });
    const [mine, theirs] = [edit(text), edit(text)];
    let start = performance.now();
    await requestDigests(mine, { configDir });
    const digest = performance.now() - start;
    start = performance.now();
    await call("write", { path, text: theirs, mtime });
    const save = performance.now() - start;
    return { save, digest };
  };
  /** ms of the digests of a 1,000-request text with every request new. */
  const firstDigest = async () => {
    const text = fileText(0, 1000).replaceAll("{{token}}", `{{token}}-${++edits}`);
    const start = performance.now();
    await requestDigests(text, { configDir });
    return performance.now() - start;
  };
  // Warm: the key, the parser, the server's first calls.
  await readAndDigest(files[0]!);
  await saveAndDigest(files[0]!);

  const reads: number[] = [];
  const readDigests: number[] = [];
  let allReads = 0;
  let allDigests = 0;
  for (let round = 0; round < ROUNDS; round++) {
    let roundReads = 0;
    let roundDigests = 0;
    for (const path of files) {
      const { read, digest } = await readAndDigest(path);
      reads.push(read);
      readDigests.push(digest);
      roundReads += read;
      roundDigests += digest;
    }
    allReads += roundReads / ROUNDS;
    allDigests += roundDigests / ROUNDS;
  }
  const saves: number[] = [];
  const saveDigests: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const path of files.slice(0, 20)) {
      const { save, digest } = await saveAndDigest(path);
      saves.push(save);
      saveDigests.push(digest);
    }
  }
  const bigReads: number[] = [];
  const bigDigests: number[] = [];
  const bigSaves: number[] = [];
  const bigSaveDigests: number[] = [];
  const firsts: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    firsts.push(await firstDigest());
    const read = await readAndDigest("big.http");
    bigReads.push(read.read);
    bigDigests.push(read.digest);
    const save = await saveAndDigest("big.http");
    bigSaves.push(save.save);
    bigSaveDigests.push(save.digest);
  }
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  const share = (part: number, whole: number) => `${(100 * part / whole).toFixed(0)} %`;
  const rows = [
    [
      "Read of a 10-request file, unchanged (round trip, median)",
      ms(median(reads)),
      ms(median(readDigests)),
      share(median(readDigests), median(reads)),
    ],
    [
      "Save of a 10-request file, one request changed (round trip, median)",
      ms(median(saves)),
      ms(median(saveDigests)),
      share(median(saveDigests), median(saves)),
    ],
    [
      "All 100 files read one after another (the 1,000 requests)",
      ms(allReads),
      ms(allDigests),
      share(allDigests, allReads),
    ],
    [
      "Read of one 1,000-request file, unchanged (median)",
      ms(median(bigReads)),
      ms(median(bigDigests)),
      share(median(bigDigests), median(bigReads)),
    ],
    [
      "Save of one 1,000-request file, one request changed (median)",
      ms(median(bigSaves)),
      ms(median(bigSaveDigests)),
      share(median(bigSaveDigests), median(bigSaves)),
    ],
    [
      "First digest of a 1,000-request file (every request new; before the memo: each read and save)",
      "",
      ms(median(firsts)),
      "",
    ],
  ];
  const table = [
    `| measure (${ROUNDS} rounds; load ${loadBefore} before, ${await loadAverage()} after) | ` +
    "round trip | digests alone | digests' share |",
    "| --- | --- | --- | --- |",
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");
  // A frame (16 ms) is what a person can see; the digests run on the server, not the page.
  const saved = median(bigSaveDigests);
  const read = median(bigDigests);
  const first = median(firsts);
  const verdict = `a 1,000-request file's read pays ${ms(read)} and its save ${ms(saved)} of ` +
    `digests, ${share(saved, first)} of its first digest (${ms(first)}, what every read and ` +
    `save paid before); ${saved < 16 ? "under a frame: not seen" : "over a frame: seen in saves"}`;
  await Deno.stdout.write(
    new TextEncoder().encode(
      `${table}\n\nA launch reads only the files of restored tabs (one read each), not the ` +
        `workspace. Verdict: ${verdict}.\n`,
    ),
  );
} finally {
  await server.shutdown();
  await Deno.remove(root, { recursive: true });
}
