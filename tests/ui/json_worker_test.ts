import assert from "node:assert/strict";
import { firstScreen, type FormatAnswer, formatter } from "../../src/ui/web/json_worker.ts";
import { BODY_PART } from "../../src/ui/protocol.ts";

/**
 * @param text a body
 * @param size characters per part (the server cuts anywhere, surrogate pairs included)
 * @returns what the viewer's worker answered, in order
 */
function format(text: string, size: number): FormatAnswer[] {
  const answers: FormatAnswer[] = [];
  const push = formatter((answer) => answers.push(answer));
  const count = Math.ceil(text.length / size);
  for (let i = 0; i < count; i++) {
    const part = text.slice(i * size, (i + 1) * size);
    push({ id: 1, part, last: i === count - 1, truncated: false });
  }
  return answers;
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
  Deno.test(`json worker: a body in parts of ${size} characters is formatted whole, in order, the first screen first and the rest in pieces, surrogate pairs cut between parts kept`, () => {
    const answers = format(body, size);
    const chunks = answers.map((answer) => {
      assert.ok(!("failed" in answer), "a JSON body is formatted");
      return answer.chunk;
    });
    assert.equal(chunks.join(""), JSON.stringify(value, null, 2));
    assert.deepEqual(answers.map((a) => "done" in a), [...chunks.slice(1).map(() => false), true]);
    // The first message is a screen, not a part: the page shows it before the rest is formatted.
    assert.ok(chunks[0]!.length < 16 * 1024, `first message of ${chunks[0]!.length}`);
    // The page makes the first screen itself, the same text as the worker's first message (a
    // part no longer than a screen is all of the first message: the page waits for it).
    const screen = firstScreen(body.slice(0, size));
    assert.equal(screen, size > chunks[0]!.length ? chunks[0] : undefined);
    // No piece holds the body's formatting in one message.
    assert.ok(chunks.length > body.length / BODY_PART, `${chunks.length} messages`);
  });
}

Deno.test("json worker: a body that is not JSON fails once, and a new id starts a new body", () => {
  const answers: FormatAnswer[] = [];
  const push = formatter((answer) => answers.push(answer));
  push({ id: 1, part: "{]", last: false, truncated: false });
  push({ id: 1, part: "}", last: true, truncated: false });
  push({ id: 2, part: "[1]", last: true, truncated: false });
  assert.deepEqual(answers, [
    { id: 1, failed: true },
    { id: 2, chunk: "[\n  1\n]", done: true },
  ]);
});
