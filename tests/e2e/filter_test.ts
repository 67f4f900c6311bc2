/**
 * `--filter 'JSONPATH'` on a single request and on `dial run`, against python3-httpbin: RFC
 * 9535 results one value per line, exit 1 when nothing is selected, exit 2 (nothing sent) for an
 * expression that is not a JSONPath.
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { project } from "./_files.ts";
import { startHttpbin } from "./_httpbin.ts";

Deno.test("filter: a request's JSON body through an RFC 9535 JSONPath", async () => {
  await using httpbin = await startHttpbin();
  const url = `${httpbin.origin}/anything`;
  const many = await dial(["POST", url, "a:=1", 'b:=[1,{"c":"x\\ny"}]', "--filter", "$.json.b[*]"]);
  assert.equal(many.code, 0, many.stderr);
  assert.equal(many.stdout, '1\n{"c":"x\\ny"}\n');
  const descendants = await dial(["POST", url, 'b:={"c":2,"d":{"c":3}}', "--filter", "$..c"]);
  assert.equal(descendants.stdout, "2\n3\n");
  const filterExpr = await dial(["POST", url, "b:=[1,5,9]", "--filter", "$.json.b[?@ > 2]"]);
  assert.equal(filterExpr.stdout, "5\n9\n");
  const none = await dial(["GET", url, "--filter", "$.nothing"]);
  assert.equal(none.code, 1);
  assert.equal(none.stdout, "");
  assert.match(none.stderr, /The JSONPath "\$\.nothing" selects nothing in the response body/);
  const notJson = await dial(["GET", `${httpbin.origin}/html`, "--filter", "$.a"]);
  assert.equal(notJson.code, 1);
  assert.match(notJson.stderr, /not JSON/);
  const bad = await dial(["GET", "http://127.0.0.1:9/never", "--filter", "$[?"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /Invalid JSONPath "\$\[\?"/);
});

Deno.test("filter: dial run filters each response; one that selects nothing ends with 1", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    "two.http":
      `GET ${httpbin.origin}/anything?id=1\n\n###\nGET ${httpbin.origin}/anything?id=2\n\n###\nGET ${httpbin.origin}/html\n`,
  });
  const result = await dial(["run", `${dir}/two.http`, "--filter", "$.args.id"]);
  assert.equal(result.code, 1);
  assert.equal(result.stdout, '"1"\n"2"\n');
  assert.match(result.stderr, /\/html: The response body is not JSON/);
});
