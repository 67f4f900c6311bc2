import assert from "node:assert/strict";
import { parseHttpFile } from "../../src/files/parse_http_file.ts";
import { draftOfRequest, saveInPlace, writeOver } from "../../src/ui/web/workspace/request_edit.ts";

const SOURCE = `### a
GET https://x.test/a HTTP/1.1
Content-Type:   application/json
X-A:b

{"k": 1}

### b
GET https://x.test/b
    ?q=1
    &r=2
Accept: */*
`;

const [a, b] = parseHttpFile(SOURCE, "t.http").requests as [
  ReturnType<typeof parseHttpFile>["requests"][0],
  ReturnType<typeof parseHttpFile>["requests"][0],
];

Deno.test("ui save in place: unchanged fields write the file back byte for byte", () => {
  assert.equal(saveInPlace(SOURCE, a, draftOfRequest(a)), SOURCE);
  assert.equal(saveInPlace(SOURCE, b, draftOfRequest(b)), SOURCE);
});

Deno.test("ui save in place: an edit rewrites its own line only", () => {
  // The URL changes; the headers keep their spacing.
  assert.equal(
    saveInPlace(SOURCE, a, { ...draftOfRequest(a), url: "https://x.test/a2" }),
    SOURCE.replace("GET https://x.test/a HTTP/1.1", "GET https://x.test/a2"),
  );
  // The body changes; the head stays as written.
  assert.equal(
    saveInPlace(SOURCE, a, { ...draftOfRequest(a), body: '{"k": 2}' }),
    SOURCE.replace('{"k": 1}', '{"k": 2}'),
  );
  // A header is added; the URL continued over three lines stays so.
  const draft = draftOfRequest(b);
  assert.equal(
    saveInPlace(SOURCE, b, {
      ...draft,
      headers: [...draft.headers, { name: "X-New", value: "1", enabled: true }],
    }),
    `${SOURCE}X-New: 1\n`,
  );
});

Deno.test("ui save in place: new ?? lines go after the request's body or head, the file's stay", () => {
  const withAssertion = SOURCE.replace('{"k": 1}\n', '{"k": 1}\n?? status == 200\n');
  const [first, second] = parseHttpFile(withAssertion, "t.http").requests;
  assert.deepEqual(draftOfRequest(first!).assertions, ["status == 200"]);
  assert.equal(draftOfRequest(second!).assertions, undefined);
  const draft = draftOfRequest(first!);
  assert.equal(
    saveInPlace(withAssertion, first!, {
      ...draft,
      assertions: [...draft.assertions!, "$.k == 1"],
    }),
    withAssertion.replace("?? status == 200\n", "?? status == 200\n?? $.k == 1\n"),
  );
  assert.equal(
    saveInPlace(withAssertion, second!, { ...draftOfRequest(second!), assertions: ["$.n == 2"] }),
    `${withAssertion}?? $.n == 2\n`,
  );
  const saved = saveInPlace(SOURCE, a, { ...draftOfRequest(a), assertions: ["$.k == 1"] });
  const again = parseHttpFile(saved, "t.http").requests[0]!;
  assert.deepEqual(draftOfRequest(again), { ...draftOfRequest(a), assertions: ["$.k == 1"] });
  assert.equal(saved.slice(0, saved.indexOf("### b")).split("?? $.k == 1").length, 2);
});

Deno.test("ui save in place: comment lines between the request line and headers stay where they were", () => {
  const source = `### c
POST https://x.test/c
# X-Debug: 1
Accept: */*
# the key is rotated weekly
X-Key: k1
X-Gone: 1
# after gone
Content-Type: application/json

{"a": 1}
`;
  const c = parseHttpFile(source, "t.http").requests[0]!;
  const draft = draftOfRequest(c);
  // Nothing changed: byte for byte.
  assert.equal(saveInPlace(source, c, draft), source);
  // The URL and a header's value edited: every comment line kept, in its place.
  const edited = {
    ...draft,
    url: "https://x.test/c2",
    headers: draft.headers.map((h) => h.name === "X-Key" ? { ...h, value: "k2" } : h),
  };
  assert.equal(
    saveInPlace(source, c, edited),
    source.replace("POST https://x.test/c", "POST https://x.test/c2").replace(
      "X-Key: k1",
      "X-Key: k2",
    ),
  );
  // A header removed: the comment before it stays; one added goes after the file's.
  const removed = {
    ...draft,
    headers: [
      ...draft.headers.filter((h) => h.name !== "X-Gone"),
      { name: "X-New", value: "n", enabled: true },
    ],
  };
  assert.equal(
    saveInPlace(source, c, removed),
    source.replace("X-Gone: 1\n", "").replace(
      "Content-Type: application/json\n",
      "Content-Type: application/json\nX-New: n\n",
    ),
  );
});

Deno.test("ui save in place: a comment line between the head and the body stays when the body changes", () => {
  const source = `### c
POST https://x.test/c
Accept: */*
# the body is the v2 shape

{"a": 1}
`;
  const c = parseHttpFile(source, "t.http").requests[0]!;
  assert.equal(
    saveInPlace(source, c, { ...draftOfRequest(c), body: '{"a": 2}' }),
    source.replace('{"a": 1}', '{"a": 2}'),
  );
});

const FORM = `### upload
POST https://x.test/upload
Content-Type: multipart/form-data; boundary="B0undary"

--B0undary
Content-Disposition: form-data; name="title"

first
--B0undary
Content-Disposition: form-data; name="doc"; filename="report.txt"
Content-Type: text/plain

< ./doc.txt
--B0undary--
`;

Deno.test("ui save in place: a form keeps the file's boundary and its parts' file names and Content-Types", () => {
  const [upload] = parseHttpFile(FORM, "t.http").requests;
  const draft = draftOfRequest(upload!);
  assert.equal(saveInPlace(FORM, upload!, draft), FORM);
  // Another URL: only the request line changes (the boundary in the Content-Type stays).
  assert.equal(
    saveInPlace(FORM, upload!, { ...draft, url: "https://x.test/upload?v=2" }),
    FORM.replace("/upload\n", "/upload?v=2\n"),
  );
  // Another value: the body is written again with the file's boundary, names and types.
  const form = draft.form.map((row) => row.name === "title" ? { ...row, value: "second" } : row);
  assert.equal(saveInPlace(FORM, upload!, { ...draft, form }), FORM.replace("first", "second"));
  // A new field gets the boundary too.
  const added = [...draft.form, { name: "note", value: "n", enabled: true }];
  assert.equal(
    saveInPlace(FORM, upload!, { ...draft, form: added }),
    FORM.replace(
      "--B0undary--",
      '--B0undary\nContent-Disposition: form-data; name="note"\n\nn\n--B0undary--',
    ),
  );
});

Deno.test("ui save in place: a query edit keeps the URL continued over lines, its unchanged lines byte for byte", () => {
  const source = `### list
GET https://x.test/users
    ?page=1
    &size=20&sort=name
\t&q={{term}} HTTP/1.1
Accept: */*
`;
  const request = parseHttpFile(source, "t.http").requests[0]!;
  const draft = draftOfRequest(request);
  assert.equal(draft.url, "https://x.test/users?page=1&size=20&sort=name&q={{term}}");
  // One parameter changed: only its line; the version stays at the end.
  assert.equal(
    saveInPlace(source, request, { ...draft, url: draft.url.replace("page=1", "page=2") }),
    source.replace("?page=1", "?page=2"),
  );
  // A parameter added and one removed: the others' lines stay, the new one gets its own line.
  assert.equal(
    saveInPlace(source, request, {
      ...draft,
      url: "https://x.test/users?size=20&sort=name&q={{term}}&x=1",
    }),
    source.replace(
      "    ?page=1\n    &size=20&sort=name\n\t&q={{term}} HTTP/1.1",
      "    ?size=20&sort=name\n\t&q={{term}}\n    &x=1 HTTP/1.1",
    ),
  );
  // A new path: the first line changes, the query's lines stay.
  assert.equal(
    saveInPlace(source, request, { ...draft, url: draft.url.replace("/users", "/people") }),
    source.replace("/users", "/people"),
  );
  // No query left: one line.
  assert.equal(
    saveInPlace(source, request, { ...draft, url: "https://x.test/users" }),
    source.replace(
      "GET https://x.test/users\n    ?page=1\n    &size=20&sort=name\n\t&q={{term}} HTTP/1.1",
      "GET https://x.test/users",
    ),
  );
});

Deno.test("ui Keep both: the copy is the request as a save in place writes it, under its new name", () => {
  const draft = { ...draftOfRequest(a), url: "https://x.test/a2", assertions: ["status == 200"] };
  const copy = writeOver(SOURCE, a, draft, { name: "a-mine" });
  assert.equal(
    copy,
    `### a-mine\n# @name a-mine\nGET https://x.test/a2\nContent-Type:   application/json\nX-A:b\n\n{"k": 1}\n?? status == 200\n`,
  );
  // Its text is the one the save in place puts over the request.
  const inPlace = saveInPlace(SOURCE, a, draft);
  const own = copy.split("\n").slice(2).join("\n").replace(/\n\?\? status == 200\n$/, "");
  assert.ok(inPlace.includes(own), inPlace);
  // The file no longer has the request: written anew.
  assert.equal(
    writeOver(SOURCE, undefined, draft, { name: "a-mine" }),
    `### a-mine\n# @name a-mine\nGET https://x.test/a2\nContent-Type: application/json\nX-A: b\n\n{"k": 1}\n?? status == 200\n`,
  );
});
