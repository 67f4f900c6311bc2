/**
 * Module headers say what a module does; the claims that drifted before (issue 42: two headers
 * said header order was kept when it was not) are checked here. Each entry of {@link CLAIMS}
 * ties words of a module's header to the test that checks them: the words must still be in the
 * header and the test must still exist. A header that claims an order or byte-exactness
 * (the words of {@link GUARDED}) must have such an entry, so a new claim of that kind comes
 * with the test that keeps it true.
 * @module
 */
import assert from "node:assert/strict";

/** Words of a module header, and the test that checks them. */
interface Claim {
  /** The module, from the repository's root. */
  module: string;
  /** Words of its header (the header's lines joined with single spaces). */
  says: string;
  /** The test file. */
  test: string;
  /** Words of the test's name. */
  name: string;
}

const CLAIMS: readonly Claim[] = [
  {
    module: "src/http/h1.ts",
    says: "the request goes out byte for byte as `-v` shows it",
    test: "tests/e2e/wire_request_test.ts",
    name: "-v shows every header as the server receives it, in order",
  },
  {
    module: "src/http/h1.ts",
    says: "the head's lines in the order and case `wire.ts` built them",
    test: "tests/e2e/wire_head_test.ts",
    name: "Host first, the user's headers in order and case, then dial's defaults",
  },
  {
    module: "src/http/client.ts",
    says: "Headers given as a `Headers` object arrive sorted and lower-cased",
    test: "tests/e2e/wire_head_test.ts",
    name: "transportFetch sends an array of headers in its order and case, a Headers object sorted",
  },
  {
    module: "src/http/client.ts",
    says: "an array keeps its order and case",
    test: "tests/e2e/wire_head_test.ts",
    name: "transportFetch sends an array of headers in its order and case",
  },
  {
    module: "src/output/response.ts",
    says: "byte for byte otherwise",
    test: "tests/e2e/request_http_test.ts",
    name: "piped output is the body byte for byte",
  },
  {
    module: "src/files/write_http_file.ts",
    says: "the rest of the file, comments and blank lines included, is kept byte for byte",
    test: "tests/unit/files/parse_http_file_test.ts",
    name: "edits keep the rest byte for byte",
  },
  {
    module: "src/files/http_file_types.ts",
    says: "leave the rest of the file (other requests, comments, blank lines) byte for byte",
    test: "tests/unit/ui_request_edit_test.ts",
    name: "unchanged fields write the file back byte for byte",
  },
  {
    module: "src/ui/web/workspace/request_edit.ts",
    says: "every other request of the file, stay byte for byte",
    test: "tests/unit/ui_request_edit_test.ts",
    name: "unchanged fields write the file back byte for byte",
  },
  {
    module: "src/ui/web/workspace/kind_requests.ts",
    says: "keeping an unchanged body as written and every other line of the file byte for byte",
    test: "tests/browser/workspace_kinds_test.ts",
    name:
      "GraphQL, WebSocket and SSE requests of a file substitute the environment and save back in place",
  },
  {
    module: "src/ui/web/grpc/grpc_fields.ts",
    says: "unchanged fields keep the file's lines byte for byte",
    test: "tests/unit/ui_proto_lines_test.ts",
    name: "fields that say what the file says keep its lines byte for byte",
  },
  {
    module: "src/cli/parse.ts",
    says: "repeatable flags keep their order",
    test: "tests/unit/cli_parse_test.ts",
    name: "repeatable flags keep order",
  },
  {
    module: "src/import/write_import.ts",
    says: "request files that keep the collection's order and folders",
    test: "tests/e2e/import_postman_fixtures_test.ts",
    name: "send under dial test what they send under Newman, in its order",
  },
  {
    module: "src/import/write_import.ts",
    says: "A body that a `.http` file cannot hold byte for byte (CR LF line ends",
    test: "tests/e2e/import_fidelity_test.ts",
    name: "what real collections broke on arrives as Newman sends it",
  },
  {
    module: "src/output/save_file.ts",
    says: "get the real name only when the body arrived whole",
    test: "tests/e2e/download_resume_test.ts",
    name: "a body cut off leaves no file under its name and no temporary file",
  },
  {
    module: "src/cli/credential_helper.ts",
    says: "its standard error is shown when it fails; the secret never is",
    test: "tests/e2e/credential_helper_test.ts",
    name: "a failing helper's stderr is shown with its exit code, never its output",
  },
  {
    module: "src/auth/oauth2/token_cache.ts",
    says: "Client secrets and passwords are never stored, only salted hashes",
    test: "tests/unit/oauth2_binding_test.ts",
    name: "an entry matches only the client secret that obtained it",
  },
];

/** Claims of order and byte-exactness: a header using these words needs an entry. */
const GUARDED = /byte for byte|order and case|keeps? (?:its|their|the [\w']+) order|header order/gi;

const ROOT = new URL("../../", import.meta.url);

/** The module's header: its first doc comment, lines joined with single spaces. */
async function header(module: string): Promise<string> {
  const text = await Deno.readTextFile(new URL(module, ROOT));
  const comment = /^\/\*\*([\s\S]*?)\*\//m.exec(text)?.[1] ?? "";
  return comment.split("\n").map((line) => line.replace(/^\s*\* ?/, "").trim())
    .filter((line) => line !== "").join(" ");
}

/** The names of a test file's tests (`Deno.test("…"` and `Deno.test({ name: "…"`). */
async function testNames(test: string): Promise<string[]> {
  const text = await Deno.readTextFile(new URL(test, ROOT));
  const names: string[] = [];
  const pattern = /Deno\.test\(\s*(?:\{\s*name:\s*)?(["'`])((?:\\.|(?!\1)[^\\])*)\1/g;
  for (const [, , name] of text.matchAll(pattern)) names.push(name!);
  return names;
}

async function* modules(dir: URL): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    if (entry.isDirectory) yield* modules(url);
    else if (/\.tsx?$/.test(entry.name)) yield url.href.slice(ROOT.href.length);
  }
}

Deno.test("module claims: each claimed header still says it, and its test still exists", async () => {
  const problems: string[] = [];
  for (const claim of CLAIMS) {
    if (!(await header(claim.module)).includes(claim.says)) {
      problems.push(`${claim.module}'s header no longer says "${claim.says}"`);
    }
    const names = await testNames(claim.test).catch(() => []);
    if (!names.some((name) => name.includes(claim.name))) {
      problems.push(`${claim.test} has no test named "…${claim.name}…"`);
    }
  }
  assert.deepEqual(problems, [], "update the header, the test, or the claim");
});

Deno.test("module claims: every header that claims an order or byte-exactness names its test here", async () => {
  const unchecked: string[] = [];
  for await (const module of modules(new URL("src/", ROOT))) {
    const text = await header(module);
    for (const match of text.matchAll(GUARDED)) {
      const covered = CLAIMS.some((claim) =>
        claim.module === module && text.includes(claim.says) &&
        overlaps(text, claim.says, match.index, match[0].length)
      );
      if (!covered) unchecked.push(`${module}: "${match[0]}"`);
    }
  }
  assert.deepEqual(unchecked, [], "add a claim naming the test that checks each");
});

Deno.test("module claims: the header reader finds a claim, and a claim it does not find fails", async () => {
  assert.match(await header("src/http/h1.ts"), /byte for byte as `-v` shows it/);
  assert.ok(!(await header("src/http/h1.ts")).includes("keeps header order"));
  const names = await testNames("tests/unit/cli_parse_test.ts");
  assert.ok(names.some((name) => name.includes("repeatable flags keep order")), names.join("\n"));
});

/** Whether the matched words lie inside the claimed words where they occur in the header. */
function overlaps(text: string, says: string, at: number, length: number): boolean {
  for (let start = text.indexOf(says); start >= 0; start = text.indexOf(says, start + 1)) {
    if (at >= start && at + length <= start + says.length) return true;
  }
  return false;
}
