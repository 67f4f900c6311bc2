import assert from "node:assert/strict";
import {
  type FindSpec,
  firstScreen,
  type FormatAnswer,
  FormattedText,
  formatter,
  type QueryAnswer,
  WINDOW_LINES,
} from "../../src/ui/web/json_worker.ts";
import { BODY_PART } from "../../src/ui/protocol.ts";

/**
 * @param text a body
 * @param size characters per part (the server cuts anywhere, surrogate pairs included)
 * @returns what the viewer's worker answered, in order, and the whole text it then gives
 */
function format(text: string, size: number): { answers: FormatAnswer[]; whole: string } {
  const answers: FormatAnswer[] = [];
  let whole = "";
  const push = formatter((answer) => "seq" in answer ? whole = answer.text! : answers.push(answer));
  const count = Math.ceil(text.length / size);
  for (let i = 0; i < count; i++) {
    const part = text.slice(i * size, (i + 1) * size);
    push({ id: 1, part, last: i === count - 1, truncated: false });
  }
  push({ id: 1, seq: 1, whole: true });
  return { answers, whole };
}

const value = [
  ...Array.from({ length: 9_000 }, (_, i) => ({
    i,
    text: `${"é".repeat(i % 7)}😀${"x".repeat(i % 5)}`,
    list: [i % 3 === 0, null, i / 4],
  })),
  // Two strings of surrogate pairs, the second's an odd number of characters after the first's
  // (`","`): in one of them, every slice of the worker's and every part of the server's (an even
  // number of characters each) that ends there cuts a pair in two.
  "😀".repeat(50_000),
  "😀".repeat(50_000),
];
const body = JSON.stringify(value);

for (const size of [BODY_PART, 1_001]) {
  Deno.test(`json worker: a body in parts of ${size} characters is formatted whole, in order, the first screen first, then pieces until the page's window is full, then counts of lines; surrogate pairs cut between parts kept`, () => {
    const { answers, whole } = format(body, size);
    const pretty = JSON.stringify(value, null, 2);
    assert.equal(whole, pretty);
    const chunks = answers.map((answer) => {
      assert.ok(!("failed" in answer), "a JSON body is formatted");
      return answer.chunk;
    });
    const posted = chunks.filter((c) => c !== undefined);
    // The window's text, in order: at least its lines, and then only counts.
    assert.ok(pretty.startsWith(posted.join("")));
    assert.ok(posted.join("").split("\n").length > WINDOW_LINES);
    assert.deepEqual(chunks.slice(0, posted.length), posted, "no text after the first count");
    // Every answer says how many lines there are so far; the last one all of them.
    const lines = answers.map((a) => "lines" in a ? a.lines : 0);
    assert.deepEqual(lines, [...lines].sort((a, b) => a - b));
    assert.equal(lines.at(-1), pretty.split("\n").length);
    assert.deepEqual(answers.map((a) => "done" in a), [...answers.slice(1).map(() => false), true]);
    // The first message is a screen, not a part: the page shows it before the rest is formatted.
    assert.ok(posted[0]!.length < 16 * 1024, `first message of ${posted[0]!.length}`);
    // The page makes the first screen itself, the same text as the worker's first message (a
    // part no longer than a screen is all of the first message: the page waits for it).
    const screen = firstScreen(body.slice(0, size));
    assert.equal(screen, size > posted[0]!.length ? posted[0] : undefined);
  });
}

/**
 * @param text a body
 * @returns what answers the page's queries about it once formatted
 */
function formatted(text: string): (query: object) => QueryAnswer {
  let answer: QueryAnswer | undefined;
  const push = formatter((a) => "seq" in a && (answer = a));
  push({ id: 7, part: text, last: true, truncated: false });
  return (query) => {
    push({ id: 7, seq: 1, ...query } as Parameters<typeof push>[0]);
    return answer!;
  };
}

Deno.test("json worker: the page's window of lines, and the whole text, from the formatted body", () => {
  const ask = formatted(body);
  const pretty = JSON.stringify(value, null, 2);
  const all = pretty.split("\n");
  assert.equal(ask({ whole: true }).text, pretty);
  for (const [from, to] of [[0, 3], [40_000, 43_000], [all.length - 2, all.length + 100], [5, 5]]) {
    assert.equal(ask({ lines: [from, to] }).text, all.slice(from, to).join("\n"), `${from}-${to}`);
  }
  // Another body's id: nothing (the worker keeps the latest body only).
  assert.equal(ask({ lines: [0, 3], id: 8 }).text, "");
});

Deno.test("json worker: find over the whole text: next and previous, wrapping, as CodeMirror's search panel reads the query", () => {
  const text = new FormattedText();
  // In pieces that cut lines in two, as the printer's output comes.
  const doc = 'one "Needle"\ntwo needle needles\nthree\tneedle\n' + "x\n".repeat(5_000) +
    "needle end";
  for (let at = 0; at < doc.length; at += 7) text.append(doc.slice(at, at + 7));
  const find = (search: string, line: number, column: number, more: Partial<FindSpec> = {}) =>
    text.find({
      search,
      regexp: false,
      literal: false,
      caseSensitive: false,
      wholeWord: false,
      backwards: false,
      line,
      column,
      ...more,
    });
  assert.equal(text.lines, doc.split("\n").length);
  assert.deepEqual(find("needle", 0, 0), [[0, 5], [0, 11]]);
  assert.deepEqual(find("needle", 0, 0, { caseSensitive: true }), [[1, 4], [1, 10]]);
  assert.deepEqual(find("needle", 1, 5), [[1, 11], [1, 17]]);
  assert.deepEqual(find("needle", 1, 5, { wholeWord: true }), [[2, 6], [2, 12]]);
  // `\t` is a tab unless the search is literal.
  assert.deepEqual(find("three\\tneedle", 0, 0), [[2, 0], [2, 12]]);
  assert.equal(find("three\\tneedle", 0, 0, { literal: true }), null);
  assert.deepEqual(find("ne+dle e.d", 0, 0, { regexp: true }), [[5_003, 0], [5_003, 10]]);
  // Past the last match: round to the first; before the first, backwards: round to the last.
  assert.deepEqual(find("needle", 5_003, 6), [[0, 5], [0, 11]]);
  assert.deepEqual(find("needle", 0, 5, { backwards: true }), [[5_003, 0], [5_003, 6]]);
  assert.deepEqual(find("needle", 2, 6, { backwards: true }), [[1, 11], [1, 17]]);
  assert.equal(find("absent", 0, 0), null);
  assert.equal(find("(", 0, 0, { regexp: true }), null);
  assert.equal(text.lineText(1, 3), "two needle needles\nthree\tneedle");
});

Deno.test("json worker: a body that is not JSON fails once, and a new id starts a new body", () => {
  const answers: FormatAnswer[] = [];
  const push = formatter((answer) => answers.push(answer as FormatAnswer));
  push({ id: 1, part: "{]", last: false, truncated: false });
  push({ id: 1, part: "}", last: true, truncated: false });
  push({ id: 2, part: "[1]", last: true, truncated: false });
  assert.deepEqual(answers, [
    { id: 1, failed: true },
    { id: 2, chunk: "[\n  1\n]", lines: 3, done: true },
  ]);
});
