import { deepStrictEqual, equal } from "node:assert/strict";
import { caretExcerpt, parseDocument } from "../../../src/graphql/document.ts";

Deno.test("document: a syntax error has line, column and a caret under the column", () => {
  const result = parseDocument("query {\n  viewer {\n    login(\n  }\n}");
  equal(result.ok, false);
  if (result.ok) return;
  deepStrictEqual(result.error, {
    message: 'Syntax Error: Expected Name, found "}".',
    line: 4,
    column: 3,
    excerpt: "3 |     login(\n4 |   }\n  |   ^",
  });
});

Deno.test("document: the caret excerpt pads line numbers", () => {
  const text = Array.from({ length: 10 }, (_, i) => `line${i + 1}`).join("\n");
  equal(caretExcerpt(text, 10, 5), " 9 | line9\n10 | line10\n   |     ^");
  equal(caretExcerpt("abc", 1, 1), "1 | abc\n  | ^");
});
