// Data files of `dial test --data`: dial's reader beside csv-parse 4.16.3 with the options
// Newman reads its data files with (columns from the first row, trimmed, relaxed).
import assert from "node:assert/strict";
import parse from "csv-parse/lib/sync.js";
import { parseDataRows } from "../../../src/files/data_rows.ts";

const CSV = [
  'id,name,note\r\n1,ann,plain\r\n2, bob ,"a, quoted ""field"""\r\n',
  '\uFEFFuser,pass\nann,"multi\nline"\nbob,x\n\n',
  "a,b,c\n1,2\n3,4,5\n",
  'k,v\n  "  spaced  "  , z \n',
];

Deno.test("data rows: CSV as Newman reads it (csv-parse, columns, trim, relax)", () => {
  for (const text of CSV) {
    const theirs = parse(text, {
      columns: true,
      escape: '"',
      trim: true,
      relax: true,
      relax_column_count: true,
      bom: true,
      skip_empty_lines: true,
    }) as Record<string, string>[];
    // As text (csv-parse here casts nothing; Newman's cast is the next test's).
    const ours = parseDataRows(text, "rows.csv").map((row) =>
      Object.fromEntries(Object.entries(row).map(([k, v]) => [k, String(v)]))
    );
    assert.deepEqual(ours, theirs, JSON.stringify(text));
  }
});

Deno.test("data rows: an unquoted CSV field that reads as a number is one, as Newman casts it", () => {
  // Each value as Newman 6.2.2 gives it to scripts (all checked by hand beside Newman; n, f, b,
  // zip and q also in tests/e2e/files_test_jobs_test.ts).
  const text = 'n,f,b,zip,q,e,neg,empty,word,hex\n2,1.50,true,007,"12",1e3,-5,,12abc,0x10\n';
  assert.deepEqual(parseDataRows(text, "rows.csv"), [{
    n: 2,
    f: 1.5,
    b: "true",
    zip: 7,
    q: "12",
    e: 1000,
    neg: -5,
    empty: "",
    word: "12abc",
    hex: 0,
  }]);
});

Deno.test("data rows: JSON arrays of objects; clear errors otherwise", () => {
  assert.deepEqual(parseDataRows('[{"id": 1, "tags": ["a"], "n": "x"}]', "rows.json"), [
    { id: 1, tags: ["a"], n: "x" },
  ]);
  assert.deepEqual(parseDataRows(' [{"a": "b"}]', "rows.txt"), [{ a: "b" }]);
  assert.throws(() => parseDataRows("{}", "rows.json"), /expected an array of objects/);
  assert.throws(() => parseDataRows("[1]", "rows.json"), /row 1 is not an object/);
  assert.throws(() => parseDataRows('a\n"open', "rows.csv"), /unclosed quote/);
});
