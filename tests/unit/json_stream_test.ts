import assert from "node:assert/strict";
import { JsonPrettyPrinter, JsonSyntaxError } from "../../src/output/json_stream.ts";
import { prettyJson } from "../../src/output/json.ts";
import { printResponse } from "../../src/output/response.ts";
import type { Sink } from "../../src/output/terminal.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Formats text fed in the given chunk sizes. */
function format(text: string, cuts: number[], color = false): string {
  const printer = new JsonPrettyPrinter({ color });
  const bytes = encoder.encode(text);
  const parts: Uint8Array[] = [];
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    parts.push(printer.push(bytes.subarray(at, cut)));
    at = cut;
  }
  parts.push(printer.end());
  return parts.map((p) => decoder.decode(p, { stream: true })).join("") + decoder.decode();
}

function syntaxError(text: string): JsonSyntaxError {
  try {
    format(text, []);
  } catch (error) {
    if (error instanceof JsonSyntaxError) return error;
    throw error;
  }
  throw new Error(`Expected ${JSON.stringify(text)} to be rejected`);
}

const SAMPLE =
  '{ "a" : 1.50, "big":12345678901234567890,"s":"x:{,}\\"\\u00e9 ü","e":[ ],"o":{ },\n"l":[true,null,false,-0.5e+3,0],"n":{"d":[[]]}}';

Deno.test("json stream: matches the whole-text formatting wherever the chunks split", () => {
  const whole = format(SAMPLE, []);
  assert.equal(
    whole,
    `{
  "a": 1.50,
  "big": 12345678901234567890,
  "s": "x:{,}\\"\\u00e9 ü",
  "e": [],
  "o": {},
  "l": [
    true,
    null,
    false,
    -0.5e+3,
    0
  ],
  "n": {
    "d": [
      []
    ]
  }
}`,
  );
  const length = encoder.encode(SAMPLE).length;
  for (let cut = 1; cut < length; cut++) assert.equal(format(SAMPLE, [cut]), whole, `cut ${cut}`);
  const everyByte = Array.from({ length: length - 1 }, (_, i) => i + 1);
  assert.equal(format(SAMPLE, everyByte), whole);
});

Deno.test("json stream: colours keys, strings, numbers, booleans and null", () => {
  assert.equal(
    format('{"k":"v","n":1,"t":true,"z":null}', [], true),
    '{\n  \x1b[34;1m"k"\x1b[0m: \x1b[32m"v"\x1b[0m,\n  \x1b[34;1m"n"\x1b[0m: \x1b[36m1\x1b[0m,' +
      '\n  \x1b[34;1m"t"\x1b[0m: \x1b[33mtrue\x1b[0m,\n  \x1b[34;1m"z"\x1b[0m: \x1b[90mnull\x1b[0m\n}',
  );
});

Deno.test("json stream: top-level scalars and surrounding whitespace", () => {
  assert.equal(format(" 42 \n", []), "42");
  assert.equal(format('"x"', []), '"x"');
  assert.equal(format("null", [2]), "null");
});

for (
  const [text, message] of [
    ['{"a": 1,', "unexpected end of data at line 1, column 9"],
    ["[1,]", 'unexpected "]" at line 1, column 4 (expected a value)'],
    ['{"a" 1}', 'unexpected "1" at line 1, column 6 (expected ":")'],
    ["{a:1}", 'unexpected "a" at line 1, column 2 (expected a quoted key or "}")'],
    ['{"a":1,}', 'unexpected "}" at line 1, column 8 (expected a quoted key)'],
    ["[1 2]", 'unexpected "2" at line 1, column 4 (expected "," or "]")'],
    ['{"a":1]', 'unexpected "]" at line 1, column 7 (expected "," or "}")'],
    ["01", 'unexpected "1" at line 1, column 2 (more data after the JSON value)'],
    ['"\\x"', 'unexpected "x" at line 1, column 3 (invalid escape in a string)'],
    ['"\\u12g4"', 'unexpected "g" at line 1, column 6 (invalid \\u escape in a string)'],
    ['"a\nb"', "unexpected byte 0x0a at line 1, column 3 (control character in a string)"],
    ["tru", "unexpected end of data at line 1, column 4"],
    ["nul!", 'unexpected "!" at line 1, column 4'],
    ["[-]", 'unexpected "]" at line 1, column 3'],
    ["[1.]", 'unexpected "]" at line 1, column 4'],
    ["[1e]", 'unexpected "]" at line 1, column 4'],
    ["", "unexpected end of data at line 1, column 1"],
    ['{\n  "a": +1}', 'unexpected "+" at line 2, column 8 (expected a value)'],
  ] as const
) {
  Deno.test(`json stream: rejects ${JSON.stringify(text)}`, () => {
    assert.equal(syntaxError(text).message, message);
    assert.throws(() => JSON.parse(text), SyntaxError, "JSON.parse agrees it is invalid");
  });
}

Deno.test("json stream: the error carries the output so far and the unformatted rest", () => {
  const error = syntaxError("[1, 2, oops, 3]");
  assert.equal(decoder.decode(error.partial), "[\n  1,\n  2,\n  ");
  assert.equal(decoder.decode(error.rest), "oops, 3]");
});

Deno.test("json: prettyJson keeps its contract for callers", () => {
  assert.equal(prettyJson('{"a":[1,{}]}', false), '{\n  "a": [\n    1,\n    {}\n  ]\n}');
  assert.throws(() => prettyJson("{", false), JsonSyntaxError);
});

class Buffer implements Sink {
  text = "";
  constructor(readonly isTerminal: boolean, readonly color = false) {}
  write(data: string | Uint8Array): Promise<void> {
    this.text += typeof data === "string" ? data : decoder.decode(data);
    return Promise.resolve();
  }
}

function jsonResponse(chunks: string[]): Response {
  return new Response(ReadableStream.from(chunks.map((c) => encoder.encode(c))), {
    headers: { "content-type": "application/json" },
  });
}

Deno.test("output: a large JSON body is pretty-printed as it streams", async () => {
  const items = Array.from({ length: 20_000 }, (_, i) => `{"id":${i},"name":"item ${i}"}`);
  const out = new Buffer(true);
  const err = new Buffer(false);
  await printResponse(jsonResponse(["[", items.join(","), "]"]), { out, err, silent: true });
  assert.equal(out.text, JSON.stringify(JSON.parse(`[${items.join(",")}]`), null, 2) + "\n");
  assert.equal(err.text, "");
});

Deno.test("output: JSON that breaks after output began continues raw from the fault and warns", async () => {
  const big = JSON.stringify(Array.from({ length: 10_000 }, (_, i) => i));
  const out = new Buffer(true);
  const err = new Buffer(false);
  await printResponse(jsonResponse([big.slice(0, -1), ",<html>oops"]), { out, err, silent: false });
  assert.ok(out.text.includes("\n  9998,\n  9999,\n  <html>oops\n"), out.text.slice(-60));
  assert.match(
    err.text,
    /warning: Response body is not valid JSON: unexpected "<" at line 1, column \d+ \(expected a value\)/,
  );
});

Deno.test("output: an empty JSON body prints nothing", async () => {
  const out = new Buffer(true);
  const err = new Buffer(false);
  await printResponse(jsonResponse([]), { out, err, silent: true });
  assert.equal(out.text, "");
  assert.equal(err.text, "");
});

/** Formats with decoding (or colours only) at every split point; all splits must agree. */
function everySplit(text: string, options: { decodeEscapes?: boolean; reformat?: boolean }) {
  const bytes = encoder.encode(text);
  const results = new Set<string>();
  for (let cut = 0; cut <= bytes.length; cut++) {
    const printer = new JsonPrettyPrinter(options);
    const parts = [
      printer.push(bytes.subarray(0, cut)),
      printer.push(bytes.subarray(cut)),
      printer.end(),
    ];
    results.add(parts.map((p) => decoder.decode(p, { stream: true })).join("") + decoder.decode());
  }
  assert.equal(results.size, 1, [...results].join("\n---\n"));
  return [...results][0]!;
}

Deno.test("json stream: decodeEscapes shows printable \\u escapes and pairs as characters", () => {
  const text = String
    .raw`{"a":"caf\u00e9 \ud83d\ude00 \u0041\/","k\u00fc":"\u001b\u0022\u005c\n\u0085","lone":"\ud83d x \ude00 \ud83d\u0041"}`;
  assert.equal(
    everySplit(text, { decodeEscapes: true }),
    `{\n  "a": "café 😀 A/",\n  "kü": "\\u001b\\u0022\\u005c\\n\\u0085",\n  "lone": "\\ud83d x \\ude00 \\ud83dA"\n}`,
  );
  // Without the option the escapes stay as the server sent them.
  assert.match(everySplit(text, {}), /caf\\u00e9 \\ud83d\\ude00/);
});

Deno.test("json stream: reformat false keeps the layout and only colours", () => {
  const text = '{ "a" :\n [1, true] }\n';
  assert.equal(everySplit(text, { reformat: false }), text);
});
