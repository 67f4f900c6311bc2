import assert from "node:assert/strict";
import {
  graphqlBodyText,
  splitGraphqlBody,
  websocketBodyText,
  websocketMessages,
} from "../../../src/files/stream_bodies.ts";

Deno.test("stream bodies: a GRAPHQL body splits into query and variables, templated ones too", () => {
  assert.deepEqual(splitGraphqlBody('query { a }\n\n{"n": 1}\n'), {
    query: "query { a }",
    variablesText: '{"n": 1}',
    variables: { n: 1 },
  });
  // Not JSON until substituted: still the variables.
  assert.deepEqual(splitGraphqlBody('query Q($n: Int) { a(n: $n) }\n\n{"n": {{n}}}'), {
    query: "query Q($n: Int) { a(n: $n) }",
    variablesText: '{"n": {{n}}}',
  });
  // A selection set after a blank line is part of the query.
  assert.deepEqual(splitGraphqlBody("query {\n\n  a }"), { query: "query {\n\n  a }" });
});

Deno.test("stream bodies: the written GRAPHQL body reads back the same", () => {
  assert.equal(graphqlBodyText("query { a }", "{}"), "query { a }");
  const text = graphqlBodyText("query { a }\n", '{"n": {{n}}}');
  assert.equal(text, 'query { a }\n\n{"n": {{n}}}');
  assert.equal(splitGraphqlBody(text).variablesText, '{"n": {{n}}}');
});

Deno.test("stream bodies: WEBSOCKET messages round-trip, wait-for-server included", () => {
  const messages = ['{"a": 1}', null, "two\nlines", "three"];
  const text = websocketBodyText(messages);
  assert.equal(text, '{"a": 1}\n=== wait-for-server\ntwo\nlines\n===\nthree');
  assert.deepEqual(websocketMessages(text), messages);
});

Deno.test("stream bodies: a message line that reads as a separator is refused", () => {
  assert.throws(() => websocketBodyText(["a\n=== b"]), /a line starts with "==="/);
  assert.throws(() => websocketBodyText(["  "]), /empty WebSocket message/);
});
