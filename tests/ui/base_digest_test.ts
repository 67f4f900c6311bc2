import assert from "node:assert/strict";
import { tempDir } from "../_helpers.ts";
import { requestDigests, requestTexts } from "../../src/ui/api/base_digest.ts";
import { parseHttpFile } from "../../src/files/parse_http_file.ts";
import { requestText } from "../../src/ui/web/workspace/request_edit.ts";

const FILE = `### one
GET http://127.0.0.1:1/one
X-Api-Key: lit-s3cr3t

### two
POST http://127.0.0.1:1/two

{"a": 1}
`;

Deno.test("ui base digests: a request's keyed digest changes with its credential, whitespace or comment only, and its key stays in the config directory (0600)", async () => {
  await using config = await tempDir("dial-ui-digest-config-");
  const options = { configDir: config.path };
  const before = await requestDigests(FILE, options);
  assert.deepEqual(Object.keys(before), ["1", "2"]);
  assert.match(before["1"]!, /^[0-9a-f]{32}$/);
  // The same text, the same digest (across a restart: the key is read back from its file).
  assert.deepEqual(await requestDigests(FILE, options), before);
  for (
    const edit of [
      FILE.replace("lit-s3cr3t", "lit-r0tat3d"),
      FILE.replace("X-Api-Key: ", "X-Api-Key:   "),
      FILE.replace("X-Api-Key", "# rotated\nX-Api-Key"),
    ]
  ) {
    const after = await requestDigests(edit, options);
    assert.notEqual(after["1"], before["1"], edit);
    assert.equal(after["2"], before["2"], "another request's digest is its own");
  }
  // What is kept in memory answers as a fresh digest would, and a caller cannot change it.
  const again = await requestDigests(FILE, options);
  assert.deepEqual(again, before);
  again["1"] = "changed by a caller";
  assert.equal((await requestDigests(FILE, options))["1"], before["1"]);
  const moved = `### zero\nGET http://127.0.0.1:1/zero\n\n${FILE}`;
  const shifted = await requestDigests(moved, options);
  assert.deepEqual(
    [shifted["2"], shifted["3"]],
    [before["1"], before["2"]],
    "by index in its file",
  );
  const key = `${config.path}/ui-base-digest.key`;
  assert.equal((await Deno.stat(key)).mode! & 0o777, 0o600);
  // Another key (another person's config): other digests, so a digest alone tells nothing.
  await using other = await tempDir("dial-ui-digest-other-");
  assert.notEqual((await requestDigests(FILE, { configDir: other.path }))["1"], before["1"]);
});

Deno.test("ui base digests: dial ui processes that make the key at the same moment all use one key", async () => {
  await using config = await tempDir("dial-ui-digest-race-");
  const module = new URL("../../src/ui/api/base_digest.ts", import.meta.url).href;
  const code = `const { requestDigests } = await import(${JSON.stringify(module)});
    const digests = await requestDigests(${JSON.stringify(FILE)}, { configDir: Deno.args[0] });
    console.log(digests["1"]);`;
  // Each process waits on its stdin, so all of them reach the key's creation together.
  const children = Array.from({ length: 6 }, () =>
    new Deno.Command(Deno.execPath(), {
      args: ["eval", `await Deno.stdin.read(new Uint8Array(1)); ${code}`, config.path],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn());
  try {
    for (const child of children) await child.stdin.close();
    const outputs = await Promise.all(children.map((child) => child.output()));
    for (const output of outputs) {
      assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    }
    const digests = outputs.map((output) => new TextDecoder().decode(output.stdout).trim());
    assert.match(digests[0]!, /^[0-9a-f]{32}$/);
    assert.equal(new Set(digests).size, 1, digests.join(" "));
    // The key they used is the file's (a restart reads it): this process finds the same digest.
    assert.equal((await requestDigests(FILE, { configDir: config.path }))["1"], digests[0]);
    const left = [...Deno.readDirSync(config.path)].map((entry) => entry.name);
    assert.deepEqual(left, ["ui-base-digest.key"], "no temporary file is left");
  } finally {
    for (const child of children) {
      try {
        child.kill();
      } catch {
        // Ended.
      }
    }
  }
});

Deno.test("ui base digests: the requests' texts read block by block are the whole file's parse, for every request file of the repository, with LF, CRLF and CR line breaks and a byte order mark", async () => {
  const files: string[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory && !entry.name.startsWith(".") && entry.name !== "node_modules") {
        await walk(path);
      } else if (entry.isFile && /\.(http|rest)$/.test(entry.name)) files.push(path);
    }
  };
  await walk(new URL("../..", import.meta.url).pathname.replace(/\/$/, ""));
  assert.ok(files.length >= 10, `${files.length} request files`);
  // And the shapes a block cut must get right: requests under one ### (httpyac), file
  // variables, #### lines, ### inside a line, a handler, a block that does not parse.
  const shapes = [
    "@base = http://127.0.0.1:1\nGET {{base}}/a\n\nGET {{base}}/b\nAccept: */*\n\n### c\nGET /c",
    '#### four\nGET http://127.0.0.1:1/a ###\n\n{"x": "###"}\n\n###\n\n\n###\nPOST http://127.0.0.1:1/b\n\n> {% client.log(\'###\'); %}\n',
    "### a\nGET http://127.0.0.1:1/a\n\n### b\n# @name b\n",
    FILE,
    // Many blocks, some with two requests and a variable: read by one parse of the file.
    Array.from(
      { length: 40 },
      (_, i) =>
        `### b${i}\n@v${i} = ${i}\nGET http://127.0.0.1:1/${i}\n\nGET http://127.0.0.1:1/${i}/two\nAccept: */*\n`,
    ).join("\n"),
  ];
  let compared = 0;
  for (const path of [...files, ...shapes.keys()]) {
    const text = typeof path === "string" ? await Deno.readTextFile(path) : shapes[path]!;
    for (
      const variant of [
        text,
        text.replaceAll("\r\n", "\n").replaceAll("\n", "\r\n"),
        text.replaceAll("\r\n", "\n").replaceAll("\n", "\r"),
        `\ufeff${text}`,
      ]
    ) {
      // The file as first seen, then with one more request: its other blocks read back from
      // what the first read kept.
      const eol = variant.includes("\r\n") ? "\r\n" : variant.includes("\r") ? "\r" : "\n";
      const edited = `${variant}${eol}### added${eol}GET http://127.0.0.1:1/added${eol}`;
      for (const text of [variant, edited]) {
        let whole: string[] | undefined;
        try {
          whole = parseHttpFile(text, "f.http").requests.map((r) => requestText(text, r));
        } catch {
          whole = undefined;
        }
        assert.deepEqual(requestTexts(text), whole, String(path));
        if (whole) compared += whole.length;
      }
    }
  }
  assert.ok(compared > 100, `${compared} requests compared`);
});
