import assert from "node:assert/strict";
import { paramsFromUrl, urlWithParams } from "../../src/ui/web/http/query_sync.ts";

Deno.test("ui query sync: the URL's query becomes decoded rows, switched-off rows kept", () => {
  const off = { name: "debug", value: "1", enabled: false };
  assert.deepEqual(paramsFromUrl("http://h/p?a=1&b=two%20words&flag#top", [off]), [
    { name: "a", value: "1", enabled: true },
    { name: "b", value: "two words", enabled: true },
    { name: "flag", value: "", enabled: true },
    off,
  ]);
  assert.deepEqual(paramsFromUrl("http://h/p", []), []);
  assert.deepEqual(paramsFromUrl("http://h/p?bad=%E0%A4%A", []), [
    { name: "bad", value: "%E0%A4%A", enabled: true },
  ]);
});

Deno.test("ui query sync: rows rewrite the query, keeping the path, fragment and {{variables}}", () => {
  assert.equal(
    urlWithParams("http://h/p?old=1#frag", [
      { name: "q", value: "a&b c", enabled: true },
      { name: "off", value: "x", enabled: false },
      { name: "", value: "ignored", enabled: true },
      { name: "id", value: "{{user id}}", enabled: true },
      { name: "flag", value: "", enabled: true },
    ]),
    "http://h/p?q=a%26b%20c&id={{user id}}&flag#frag",
  );
  assert.equal(urlWithParams("{{base}}/x?a=1", []), "{{base}}/x");
});

Deno.test("ui query sync: a round trip through the table keeps the URL", () => {
  const url = "http://h/p?a=1&path=/x/y&t=10:30";
  assert.equal(urlWithParams(url, paramsFromUrl(url, [])), url);
});
