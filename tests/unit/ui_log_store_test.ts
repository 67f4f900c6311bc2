import assert from "node:assert/strict";
import { type LogEntry, LogStore, textFilter } from "../../src/ui/web/stream/log_store.ts";
import { hexDump, parseBase64, parseHex } from "../../src/ui/web/stream/binary.ts";

function entries(n: number, from = 0): LogEntry[] {
  return Array.from({ length: n }, (_, i) => ({
    time: 0,
    kind: "in" as const,
    label: i % 2 === 0 ? "even" : "odd",
    text: `message ${from + i}`,
  }));
}

Deno.test("log store: keeps the newest entries up to its cap and counts the dropped ones", () => {
  const store = new LogStore({ max: 5 });
  store.append(entries(3));
  store.append(entries(4, 3));
  assert.equal(store.total, 5);
  assert.equal(store.dropped, 2);
  assert.equal(store.at(0)?.text, "message 2");
  assert.equal(store.at(4)?.text, "message 6");
  assert.equal(store.at(5), undefined);
});

Deno.test("log store: holds 100,000 entries by default", () => {
  const store = new LogStore();
  for (let i = 0; i < 11; i++) store.append(entries(10_000, i * 10_000));
  assert.equal(store.total, 100_000);
  assert.equal(store.dropped, 10_000);
  assert.equal(store.at(99_999)?.text, "message 109999");
});

Deno.test("log store: a filter applies to entries appended later and survives dropping", () => {
  const store = new LogStore({ max: 6 });
  store.setFilter(textFilter("", "odd"));
  store.append(entries(4));
  assert.deepEqual(store.shown().map((e) => e.text), ["message 1", "message 3"]);
  store.append(entries(4, 4));
  assert.deepEqual(store.shown().map((e) => e.text), ["message 3", "message 5", "message 7"]);
  assert.equal(store.count, 3);
  store.setFilter(undefined);
  assert.equal(store.count, 6);
});

Deno.test("log store: every change bumps the version once", () => {
  const store = new LogStore();
  store.append(entries(10_000));
  store.clear();
  store.setFilter(textFilter("x"));
  assert.equal(store.version.value, 3);
  assert.equal(store.total, 0);
});

Deno.test("log store: with a frame scheduler, the appends until a frame bump the version once, at that frame", () => {
  const frames: Array<() => void> = [];
  const store = new LogStore({ max: 5, frame: (callback) => frames.push(callback) });
  store.append(entries(3));
  store.append(entries(4, 3));
  // Held at once (a render for another reason sees them), announced at the frame.
  assert.equal(store.total, 5);
  assert.equal(store.at(4)?.text, "message 6");
  assert.equal(store.version.value, 0);
  assert.equal(frames.length, 1);
  frames.shift()!();
  assert.equal(store.version.value, 1);
  store.append(entries(1, 7));
  assert.equal(frames.length, 1);
  frames.shift()!();
  assert.equal(store.version.value, 2);
  assert.equal(store.dropped, 3);
  // A clear is a user's action: shown at once.
  store.clear();
  assert.equal(store.version.value, 3);
  assert.equal(frames.length, 0);
});

Deno.test("log store: the text filter ignores case and searches label and id too", () => {
  const filter = textFilter("PRICE")!;
  assert.equal(filter({ time: 0, kind: "event", label: "price", text: "{}" }), true);
  assert.equal(filter({ time: 0, kind: "event", label: "x", text: "Price: 3" }), true);
  assert.equal(filter({ time: 0, kind: "event", label: "x", id: "price-1", text: "" }), true);
  assert.equal(filter({ time: 0, kind: "event", label: "x", text: "cost" }), false);
  assert.equal(textFilter("  "), undefined);
});

Deno.test("binary: hex accepts spaces, colons and 0x prefixes", () => {
  assert.deepEqual([...parseHex("0x00 01:FF\nab")], [0, 1, 255, 171]);
});

Deno.test("binary: hex with an odd number of digits is refused", () => {
  assert.throws(() => parseHex("abc"), /Invalid hex: an odd number of digits/);
});

Deno.test("binary: hex with other characters is refused", () => {
  assert.throws(() => parseHex("zz"), /Invalid hex: only 0-9 and a-f are allowed/);
});

Deno.test("binary: base64 and base64url both decode; garbage is refused", () => {
  assert.deepEqual([...parseBase64("AAH/")], [0, 1, 255]);
  assert.deepEqual([...parseBase64("AAH_")], [0, 1, 255]);
  assert.throws(() => parseBase64("a!b"), /Invalid base64/);
});

Deno.test("binary: the hex dump shows 16 bytes a line", () => {
  const dump = hexDump(new Uint8Array(18).fill(0xab));
  assert.equal(dump, `${Array(16).fill("ab").join(" ")}\nab ab`);
});
