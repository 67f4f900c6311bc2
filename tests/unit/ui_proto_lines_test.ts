import assert from "node:assert/strict";
import { parseHttpFile } from "../../src/files/parse_http_file.ts";
import {
  type ProtoFields,
  protoFieldsOf,
  saveProtoLines,
} from "../../src/ui/web/grpc/proto_lines.ts";

const PATH = "calls/api.http";

/** The file saved with the second request's Proto fields, and read back as the tab reads it. */
function save(source: string, fields: ProtoFields): { text: string; again: ProtoFields } {
  const file = parseHttpFile(source, PATH);
  const request = file.requests[1]!;
  const text = saveProtoLines(source, PATH, file, request, fields);
  const parsed = parseHttpFile(text, PATH);
  const again = protoFieldsOf(PATH, [...parsed.protos ?? [], ...parsed.requests[1]!.protos ?? []]);
  return { text, again };
}

const REFLECTION = `### one
GRPC localhost:1/a.S/M

### two
# @name two
GRPC localhost:1/a.S/M
x-a: 1

{}
`;

Deno.test("ui proto lines: the fields become the request's own proto < lines, relative to its file, and read back the same", () => {
  const fields = { files: ["protos/a.proto", "calls/b.proto"], dirs: ["shared", "calls/x"] };
  const { text, again } = save(REFLECTION, fields);
  assert.equal(
    text,
    REFLECTION.replace(
      "# @name two\n",
      `# @name two\nproto < ../protos/a.proto\nincludeDirs: ["../shared","./x"]\n` +
        `proto < ./b.proto\nincludeDirs: ["../shared","./x"]\n`,
    ),
  );
  assert.deepEqual(again, fields);
  // No files: reflection again, and the file as it was.
  assert.equal(save(text, { files: [], dirs: [] }).text, REFLECTION);
});

Deno.test("ui proto lines: fields that say what the file says keep its lines byte for byte; an edit replaces them in place", () => {
  const source = REFLECTION.replace(
    "# @name two\n",
    `proto <   ./a.proto\nincludeDirs: ['./x']\n# @name two\n`,
  );
  const same = { files: ["calls/a.proto"], dirs: ["calls/x"] };
  assert.equal(save(source, same).text, source);
  const { text, again } = save(source, { files: ["calls/c.proto"], dirs: [] });
  assert.equal(text, REFLECTION.replace("# @name two\n", `proto < ./c.proto\n# @name two\n`));
  assert.deepEqual(again, { files: ["calls/c.proto"], dirs: [] });
});

Deno.test("ui proto lines: the file's own block stays; the request adds to it, and cannot drop from it", () => {
  const source = `proto < ./a.proto\nincludeDirs: ["./x"]\n\n${REFLECTION}`;
  const fields = { files: ["calls/a.proto", "calls/b.proto"], dirs: ["calls/x"] };
  const { text, again } = save(source, fields);
  assert.equal(text, source.replace("# @name two\n", `# @name two\nproto < ./b.proto\n`));
  assert.deepEqual(again, fields);
  assert.throws(
    () => save(source, { files: ["calls/b.proto"], dirs: ["calls/x"] }),
    /calls\/a\.proto is in the proto < lines of calls\/api\.http that every GRPC request there shares/,
  );
  assert.throws(
    () => save(source, { files: ["calls/a.proto"], dirs: ["calls/x", "calls/y"] }),
    /Import paths calls\/y go with a \.proto file of this request/,
  );
});

Deno.test("ui proto lines: a CRLF file gets CRLF lines", () => {
  const source = REFLECTION.replaceAll("\n", "\r\n");
  const { text } = save(source, { files: ["calls/a.proto"], dirs: [] });
  assert.equal(text, source.replace("# @name two\r\n", "# @name two\r\nproto < ./a.proto\r\n"));
});
