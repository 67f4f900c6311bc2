import assert from "node:assert/strict";
import { parseHttpFile } from "../../../src/files/parse_http_file.ts";
import {
  substitute,
  substituteValue,
  UndefinedVariableError,
  type VariableScope,
} from "../../../src/files/substitute.ts";
import { Secret } from "../../../src/secret.ts";
import { memberPath } from "../../../src/files/request_variables.ts";
import { query } from "jsonpath-rfc9535";

const place = { what: "the URL", path: "a.http", line: 3, column: 5 };

Deno.test("variables: precedence is --var, environment, globals, file, request", () => {
  const file = parseHttpFile("@v = file\n@w = {{v}}-x\nGET http://x\n").variables;
  const scope: VariableScope = {
    overrides: new Map([["a", "override"]]),
    environment: new Map([["a", "env"], ["b", "env"]]),
    globals: new Map([["a", "global"], ["b", "global"], ["c", "global"]]),
    file,
    request: new Map([["v", "request"], ["d", "request"]]),
  };
  assert.equal(
    substitute("{{a}} {{b}} {{ c }} {{v}} {{w}} {{d}}", scope, place).text,
    "override env global file file-x request",
  );
});

Deno.test("variables: an undefined variable names itself and where it is used", () => {
  assert.throws(() => substitute("http://h/{{id}}", {}, place), (error: unknown) => {
    assert.ok(error instanceof UndefinedVariableError);
    assert.equal(error.message, 'a.http:3:14: Undefined variable "id" in the URL');
    assert.equal(error.exitCode, 2);
    return true;
  });
  // On a later line of a multi-line template, the line and column follow.
  assert.throws(
    () => substitute('{\n  "a": {{missing}}\n}', {}, { ...place, what: "the body", column: 1 }),
    /a\.http:4:8: Undefined variable "missing" in the body/,
  );
});

Deno.test("variables: a file variable that refers to itself is an error, not a hang", () => {
  const file = parseHttpFile("@a = {{b}}\n@b = {{a}}\nGET http://x\n").variables;
  assert.throws(
    () => substitute("{{a}}", { file }, place),
    /Variable "a" refers to itself: a → b → a/,
  );
});

Deno.test("variables: secrets stay secrets through substitution", () => {
  const value = substituteValue("Bearer {{token}}", {
    environment: new Map([["token", new Secret("s3cret")]]),
  }, place);
  assert.ok(value instanceof Secret);
  assert.equal(value.reveal(), "Bearer s3cret");
  assert.equal(String(value), "(redacted)");
  assert.equal(substituteValue("{{a}}", { globals: new Map([["a", "plain"]]) }, place), "plain");
});

Deno.test("variables: JetBrains and REST Client dynamic variables", () => {
  const env = (name: string) => (name === "HOME_DIR" ? "/home/ann" : undefined);
  const get = (expr: string) => substitute(`{{${expr}}}`, { env }, place).text;
  assert.match(
    get("$uuid"),
    /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  );
  assert.match(get("$random.uuid"), /^[0-9a-f-]{36}$/);
  assert.match(get("$guid"), /^[0-9a-f-]{36}$/);
  assert.ok(Math.abs(Number(get("$timestamp")) - Date.now() / 1000) < 60);
  assert.ok(!Number.isNaN(Date.parse(get("$isoTimestamp"))));
  // kulala's $date: today, local time (read around it, so that midnight cannot fail it).
  const pad = (n: number) => String(n).padStart(2, "0");
  const day = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  const before = day(new Date());
  const date = get("$date");
  assert.ok([before, day(new Date())].includes(date), date);
  const n = Number(get("$randomInt"));
  assert.ok(Number.isInteger(n) && n >= 0 && n <= 1000);
  for (let i = 0; i < 50; i++) {
    const v = Number(get("$random.integer(5, 7)"));
    assert.ok(v === 5 || v === 6, String(v));
    const r = Number(get("$randomInt 10 12"));
    assert.ok(r === 10 || r === 11, String(r));
  }
  assert.match(get("$random.alphabetic(12)"), /^[A-Za-z]{12}$/);
  assert.match(get("$random.alphanumeric(8)"), /^\w{8}$/);
  assert.match(get("$random.hexadecimal(6)"), /^[0-9a-f]{6}$/);
  assert.match(get("$random.email"), /^[a-z]+@[a-z]+\.com$/);
  assert.equal(get("$env.HOME_DIR"), "/home/ann");
  assert.equal(get("$processEnv HOME_DIR"), "/home/ann");
  assert.match(get("$datetime iso8601"), /^\d{4}-\d\d-\d\dT/);
  assert.match(get("$datetime rfc1123"), /GMT$/);
  assert.ok(Number(get("$timestamp -1 d")) < Date.now() / 1000 - 86_000);
  assert.throws(() => get("$env.UNSET_THING"), /Undefined variable "\$env\.UNSET_THING"/);
  assert.throws(() => get("$nope"), /Unknown dynamic variable "\$nope"/);
  // REST Client's Azure AD token: named, not unknown (its sign-in is VS Code's).
  assert.throws(
    () => get("$aadToken new contoso.com"),
    /REST Client's "\$aadToken" .* not supported/,
  );
});

Deno.test("variables: REST Client request variables read JSONPath (RFC 9535) and headers", () => {
  const source = {
    request: {
      headers: [["Content-Type", "application/json"]] as [string, string][],
      body: '{"user":"ann"}',
    },
    response: {
      headers: [["X-Token", "abc"]] as [string, string][],
      body: '{"token":"t1","items":[{"id":1},{"id":2}],"n":null}',
    },
  };
  const scope: VariableScope = { responses: (name) => (name === "login" ? source : undefined) };
  const get = (expr: string) => substitute(`{{${expr}}}`, scope, place).text;
  assert.equal(get("login.response.body.$.token"), "t1");
  assert.equal(get("login.response.body.$.items[?@.id==2].id"), "2");
  assert.equal(get("login.response.body.$.items"), '[{"id":1},{"id":2}]');
  assert.equal(get("login.response.body.*"), source.response.body);
  assert.equal(get("login.response.headers.x-token"), "abc");
  assert.equal(get("login.request.body.$.user"), "ann");
  assert.throws(() => get("login.response.body.$.absent"), /JSONPath "\$\.absent" selects nothing/);
  assert.throws(() => get("other.response.body.$.x"), /Request "other" in the URL has not run/);
  assert.throws(() => get("login.response.body.//token"), /Unsupported selector/);
  // httpyac's .env values are below every other scope.
  const dotenv = { dotenvDefaults: new Map([["who", "dotenv"], ["only", "here"]]) };
  const files = {
    ...dotenv,
    file: [{
      name: "who",
      value: "file",
      span: { start: 0, end: 0, line: 1, endLine: 1 },
    }],
  };
  assert.equal(substitute("{{who}}/{{only}}", files, place).text, "file/here");
  // httpyac's {{name.path}}: the named request's body, unless a variable of that name is defined.
  assert.equal(get("login.token"), "t1");
  assert.equal(get("login.items[1].id"), "2");
  const defined = { ...scope, globals: new Map([["login.token", "mine"]]) };
  assert.equal(substitute("{{login.token}}", defined, place).text, "mine");
  assert.throws(() => get("nobody.token"), /Undefined variable "nobody.token"/);
  // kulala's path without "$" starts at the document.
  assert.equal(get("login.response.body.token"), "t1");
  assert.equal(get("login.response.body.items[1].id"), "2");
});

Deno.test("variables: REST Client's {{%name}} percent-encodes the value", () => {
  const scope: VariableScope = { globals: new Map([["q", "a b&c=d/é"]]) };
  assert.equal(
    substitute("/search?q={{%q}}", scope, place).text,
    "/search?q=a%20b%26c%3Dd%2F%C3%A9",
  );
});

Deno.test("variables: a member-name path is selected as the JSONPath library selects it", () => {
  const documents: unknown[] = [
    { a: 1, b: { c: "x", d: null, e: [1, 2] }, _: true, ü: "u", "𝄞": "clef", a1: 0 },
    { ["__proto__"]: "own", constructor: 1, toString: 2 },
    JSON.parse('{"__proto__": {"x": 1}, "a": {"b": {"c": [{"d": 1}]}}}'),
    [{ a: 1 }],
    "text",
    42,
    null,
    { b: [] },
  ];
  const paths = [
    "$.a",
    "$.b.c",
    "$.b.d",
    "$.b.d.x",
    "$.b.e",
    "$.b.e.length",
    "$._",
    "$.ü",
    "$.𝄞",
    "$.a1",
    "$.__proto__",
    "$.__proto__.x",
    "$.constructor",
    "$.toString",
    "$.hasOwnProperty",
    "$.a.b.c",
    "$.missing",
    "$.length",
  ];
  for (const document of documents) {
    for (const path of paths) {
      const fast = memberPath(document, path);
      assert.ok(fast !== undefined, path);
      assert.deepEqual(fast, query(document as Parameters<typeof query>[0], path), path);
    }
  }
  // Other forms are the library's.
  for (const path of ["$", "$.1a", "$['a']", "$.a[0]", "$..a", "$.*", "$.a.", "$.\uD800", "$ .a"]) {
    assert.equal(memberPath({ a: 1 }, path), undefined, path);
  }
});
