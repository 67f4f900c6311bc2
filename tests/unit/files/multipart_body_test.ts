import assert from "node:assert/strict";
import {
  multipartBodyParts,
  multipartBoundary,
  readMultipartBody,
} from "../../../src/files/multipart_body.ts";
import { parseHttpFile } from "../../../src/files/parse_http_file.ts";
import { writeHttpRequest } from "../../../src/files/write_http_file.ts";

Deno.test("multipart body: the JetBrains example reads as fields, a < include as a file", () => {
  const text = [
    "--WebAppBoundary",
    'Content-Disposition: form-data; name="element-name"',
    "Content-Type: text/plain",
    "",
    "Name",
    "--WebAppBoundary",
    'Content-Disposition: form-data; name="data"; filename="data.json"',
    "Content-Type: application/json",
    "",
    "< ./request-form-data.json",
    "--WebAppBoundary--",
  ].join("\n");
  assert.deepEqual(readMultipartBody(text, "WebAppBoundary"), [
    { name: "element-name", value: "Name", contentType: "text/plain" },
    {
      name: "data",
      file: "./request-form-data.json",
      filename: "data.json",
      contentType: "application/json",
    },
  ]);
  assert.equal(
    multipartBoundary('multipart/form-data; boundary="WebAppBoundary"'),
    "WebAppBoundary",
  );
  assert.equal(multipartBoundary("application/json"), undefined);
});

Deno.test("multipart body: written fields read back the same, through the request files' parser", () => {
  const fields = [
    { name: "title", value: "two\nlines {{v}}" },
    { name: "doc", file: "./files/a b.pdf" },
  ];
  const file = writeHttpRequest({
    method: "POST",
    url: "http://x/upload",
    headers: [{ name: "Content-Type", value: "multipart/form-data; boundary=WebAppBoundary" }],
    body: { parts: multipartBodyParts(fields) },
  });
  assert.match(file, /filename="a b.pdf"\n\n< \.\/files\/a b\.pdf\n--WebAppBoundary--\n$/);
  const request = parseHttpFile(file).requests[0]!;
  // The include is a part of its own to the runner, which reads the file.
  assert.ok(request.body.some((p) => p.kind === "file" && p.path === "./files/a b.pdf"));
  const again = request.body.map((p) => p.kind === "text" ? p.text : `< ${p.path}`).join("\n");
  assert.deepEqual(readMultipartBody(again, "WebAppBoundary"), [
    fields[0],
    { name: "doc", file: "./files/a b.pdf", filename: "a b.pdf" },
  ]);
});

Deno.test("multipart body: a quote in a name and the boundary in a value are refused", () => {
  assert.throws(() => multipartBodyParts([{ name: 'a"b', value: "" }]), /field name/);
  assert.throws(() => multipartBodyParts([{ name: "a", value: "--WebAppBoundary" }]), /boundary/);
});
