/**
 * httpyac's `response.parsedBody` of an XML or HTML response is a DOM document made by
 * @xmldom/xmldom (httpyac's xmlResponseInterceptor); dial makes it inside the script sandbox with
 * the same library when a script reads it. Each file runs through dial and through httpyac 6.16.7
 * (npm) against the same servers (python3-httpbin's `/html`, `/xml` and `/anything`; a raw
 * server for media types httpbin does not send), and every `??` line and block test must have
 * httpyac's outcome.
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { httpyac, project, reportCases } from "./_files.ts";
import { startHttpbin } from "./_httpbin.ts";
import { rawServer, requestPath } from "./_raw_server.ts";

/**
 * Runs FILE of DIR through both tools.
 *
 * @returns each tool's tests as `[name, passed]` (httpyac's names, which are dial's without
 *   `js `), in the order they ran, and dial's JSON report's cases
 */
async function both(dir: string, file: string, base: string) {
  const ours = await dial([
    ...["test", `${dir}/${file}`, "--reporter", "json", "--var", `base=${base}`],
  ]);
  const cases = reportCases(ours.stdout);
  const theirs = await httpyac(
    [file, "--all", "-o", "none", "--json", "--var", `base=${base}`],
    { cwd: dir },
  );
  const report = JSON.parse(theirs.stdout.slice(theirs.stdout.indexOf("{"))) as {
    requests: { testResults: { message: string; status: string }[] }[];
  };
  return {
    ours: cases.filter((c) => !/^HTTP \d+$/.test(c.name)).map((c) =>
      [c.name.replace(/^js /, ""), c.outcome === "passed"] as const
    ),
    theirs: report.requests.flatMap((r) =>
      r.testResults.map((t) => [t.message, t.status === "SUCCESS"] as const)
    ),
    cases,
  };
}

Deno.test("httpyac parsedBody: an HTML or XML body's DOM document in ?? js, ?? body and {{ }} blocks (NAME and NAMEResponse too), a JSON body unchanged, each as httpyac 6.16.7 evaluates it", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    "markup.http": `# @name page
GET {{base}}/html

?? js response.parsedBody.documentElement.nodeName == html
?? js typeof response.parsedBody.meter == undefined
?? js typeof response.parsedBody == object
?? js response.parsedBody.getElementsByTagName("h1").length == 1
?? js response.parsedBody.getElementsByTagName("h1")[0].textContent == Herman Melville - Moby-Dick
?? body documentElement.nodeName == html
?? js response.parsedBody exists
?? js response.parsedBody.documentElement.nodeName == body

{{
  const doc = response.parsedBody;
  test("a block reads the document", () => {
    if (doc.getElementsByTagName("p").length !== 1) throw new Error("p: " + doc.getElementsByTagName("p").length);
  });
}}

###
# @name slides
GET {{base}}/xml

?? js response.parsedBody.documentElement.nodeName == slideshow
?? js response.parsedBody.documentElement.getAttribute("author") == Yours Truly
?? js response.parsedBody.getElementsByTagName("slide").length == 2
?? js response.body.startsWith("<?xml") == true

{{
  // One document per response, as in httpyac: what a block changes, a later block sees.
  response.parsedBody.documentElement.setAttribute("seen", "yes");
}}

###
GET {{base}}/anything?kind=json

?? js response.parsedBody.args.kind == json
?? js typeof response.parsedBody.documentElement == undefined
?? body args.kind == json
?? js slides.getElementsByTagName("slide").length == 2

{{
  test("a later block reads NAMEResponse's document", () => {
    const title = slidesResponse.parsedBody.getElementsByTagName("title")[0].textContent;
    if (title !== "Wake up to WonderWidgets!") throw new Error(title);
    const seen = slidesResponse.parsedBody.documentElement.getAttribute("seen");
    if (seen !== "yes") throw new Error("seen: " + seen);
    // NAME is the response's parsedBody: the same document.
    if (slides.documentElement.getAttribute("seen") !== "yes") throw new Error("NAME: " + slides);
  });
}}
`,
  });
  const { ours, theirs } = await both(dir, "markup.http", httpbin.origin);
  const expected = [
    ["response.parsedBody.documentElement.nodeName == html", true],
    ["typeof response.parsedBody.meter == undefined", true],
    ["typeof response.parsedBody == object", true],
    ['response.parsedBody.getElementsByTagName("h1").length == 1', true],
    [
      'response.parsedBody.getElementsByTagName("h1")[0].textContent == Herman Melville - Moby-Dick',
      true,
    ],
    ["documentElement.nodeName == html", true],
    ["response.parsedBody exists", true],
    ["response.parsedBody.documentElement.nodeName == body", false],
    ["a block reads the document", true],
    ["response.parsedBody.documentElement.nodeName == slideshow", true],
    ['response.parsedBody.documentElement.getAttribute("author") == Yours Truly', true],
    ['response.parsedBody.getElementsByTagName("slide").length == 2', true],
    ['response.body.startsWith("<?xml") == true', true],
    ["response.parsedBody.args.kind == json", true],
    ["typeof response.parsedBody.documentElement == undefined", true],
    ["args.kind == json", true],
    ['slides.getElementsByTagName("slide").length == 2', true],
    ["a later block reads NAMEResponse's document", true],
  ];
  assert.deepEqual(theirs, expected);
  // dial names a `?? body` test by its subject, as written.
  assert.deepEqual(
    ours.map(([name, passed]) => [name.replace(/^body /, ""), passed]),
    expected,
  );
});

Deno.test("httpyac parsedBody: media types as httpyac reads them (+xml, xhtml, the case as written), a body xmldom refuses, an empty one", async () => {
  const bodies: Record<string, [string, string]> = {
    "/atom": [
      "application/atom+xml; charset=utf-8",
      '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><entry/><entry/></feed>',
    ],
    "/xhtml": [
      "application/xhtml+xml",
      '<html xmlns="http://www.w3.org/1999/xhtml"><body><p>x</p></body></html>',
    ],
    "/upper": ["Text/HTML", "<html><body><p>x</p></body></html>"],
    "/json-upper": ["Application/JSON", '{"a": 1}'],
    "/unclosed": ["application/xml", "<a><b></a>"],
    "/words": ["text/xml", "not xml at all"],
    "/empty": ["text/xml", ""],
    "/plain": ["text/plain", "<a>1</a>"],
  };
  await using server = rawServer((request) => {
    const [type, body] = bodies[requestPath(request)]!;
    return { headers: [["Content-Type", type]], body };
  });
  const dir = await project({
    "odd.http": `GET {{base}}/atom

?? js response.parsedBody.documentElement.nodeName == feed
?? js response.parsedBody.getElementsByTagName("entry").length == 2

###
GET {{base}}/xhtml

?? js response.parsedBody.documentElement.nodeName == html

###
GET {{base}}/upper

?? js typeof response.parsedBody == object

###
GET {{base}}/json-upper

?? js typeof response.parsedBody == object

###
GET {{base}}/unclosed

?? js typeof response.parsedBody == object

###
GET {{base}}/words

?? js typeof response.parsedBody == object

###
GET {{base}}/empty

?? js typeof response.parsedBody == object

###
GET {{base}}/plain

?? js typeof response.parsedBody == object
`,
  });
  const { ours, theirs } = await both(dir, "odd.http", server.origin);
  const expected = [
    ["response.parsedBody.documentElement.nodeName == feed", true],
    ['response.parsedBody.getElementsByTagName("entry").length == 2', true],
    ["response.parsedBody.documentElement.nodeName == html", true],
    // httpyac compares the media type as written: `Text/HTML` and `Application/JSON` are neither.
    ["typeof response.parsedBody == object", false],
    ["typeof response.parsedBody == object", false],
    // xmldom throws on both (a fatal error): no document, as in httpyac.
    ["typeof response.parsedBody == object", false],
    ["typeof response.parsedBody == object", false],
    ["typeof response.parsedBody == object", false],
    ["typeof response.parsedBody == object", false],
  ];
  assert.deepEqual(theirs, expected);
  assert.deepEqual(ours, expected);
});

Deno.test("httpyac parsedBody: a 5 MB HTML body is parsed only when read; read, it stops the script with an error that names the parse, and the run goes on", async () => {
  const rows = Array.from(
    { length: 66_000 },
    (_, i) => `<div class="row"><p id="p${i}">row ${i}</p><a href="/x/${i}">link</a></div>\n`,
  );
  const big = `<!DOCTYPE html><html><body>${rows.join("")}</body></html>`;
  assert.ok(big.length > 5_000_000);
  await using server = rawServer((request) =>
    requestPath(request) === "/big"
      ? { headers: [["Content-Type", "text/html; charset=utf-8"]], body: big }
      : { headers: [["Content-Type", "application/xml"]], body: "<ok/>" }
  );
  const dir = await project({
    "big.http": `GET {{base}}/big

?? js response.body.length > 5000000
?? js response.parsedBody.getElementsByTagName("p").length == 66000
?? status == 200

###
GET {{base}}/small

?? js response.parsedBody.documentElement.nodeName == ok
`,
  });
  const ours = await dial([
    ...["test", `${dir}/big.http`, "--reporter", "json", "--var", `base=${server.origin}`],
  ]);
  assert.equal(ours.code, 11, ours.stderr);
  const cases = reportCases(ours.stdout);
  assert.deepEqual(cases.map((c) => [c.name, c.outcome]), [
    // Read without parsedBody: the body is not parsed (that would take longer than 5 s).
    ["js response.body.length > 5000000", "passed"],
    ['js response.parsedBody.getElementsByTagName("p").length == 66000', "failed"],
    ["status == 200", "passed"],
    // A new sandbox for the file's next script.
    ["js response.parsedBody.documentElement.nodeName == ok", "passed"],
  ]);
  // Out of time (5 s) or of memory (64 MiB, near 2 MB of this HTML), whichever comes first.
  assert.match(
    cases[1]!.message ?? "",
    /^.*big\.http:3: Script (timed out after 5 s|ran out of memory \(64 MiB\)) while parsing the 5\.\d MB text\/html response body into response\.parsedBody \(a DOM document, as httpyac makes it\): read response\.body instead, or make the body smaller$/,
  );
});

Deno.test('httpyac parsedBody: a block\'s require("@xmldom/xmldom") and require("xpath") are httpyac\'s libraries, over parsedBody and a document of its own, as in httpyac 6.16.7', async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    "libraries.http": `GET {{base}}/xml

{{
  const { DOMParser, XMLSerializer } = require("@xmldom/xmldom");
  const xpath = require("xpath");
  test("xpath selects from parsedBody", () => {
    const titles = xpath.select("//slide/title/text()", response.parsedBody).map(String);
    if (titles.join("|") !== "Wake up to WonderWidgets!|Overview") throw new Error(titles.join("|"));
  });
  test("a DOMParser of the block's own", () => {
    const doc = new DOMParser().parseFromString('<a x="1"><b/></a>', "text/xml");
    const text = new XMLSerializer().serializeToString(doc);
    if (xpath.select1("string(/a/@x)", doc) !== "1" || text !== '<a x="1"><b/></a>') throw new Error(text);
  });
}}
`,
  });
  const { ours, theirs } = await both(dir, "libraries.http", httpbin.origin);
  const expected = [
    ["xpath selects from parsedBody", true],
    ["a DOMParser of the block's own", true],
  ];
  assert.deepEqual(theirs, expected);
  assert.deepEqual(ours, expected);
});
