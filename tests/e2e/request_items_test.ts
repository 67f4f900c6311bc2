import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { headerValues, type RawRequest, rawServer, requestPath } from "./_raw_server.ts";

/** Whether HTTPie (the oracle for request items) is installed. */
const hasHttpie = (() => {
  try {
    return new Deno.Command("http", { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
})();

/** Runs HTTPie with a clean config directory; its request is what the raw server records. */
async function httpie(args: string[], cwd: string): Promise<void> {
  const home = await Deno.makeTempDir({ prefix: "httpie-home-" });
  const output = await new Deno.Command("http", {
    args: ["--ignore-stdin", "--print=", ...args],
    cwd,
    env: { HOME: home, HTTPIE_CONFIG_DIR: `${home}/httpie`, PATH: Deno.env.get("PATH")! },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
  await Deno.remove(home, { recursive: true });
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const header = (request: RawRequest, name: string) => headerValues(request, name).join(", ");

/** Sends the same items with HTTPie and with dial; returns both recorded requests. */
async function sideBySide(method: string, items: string[], flags: string[] = []) {
  await using server = rawServer();
  const dir = await Deno.makeTempDir({ prefix: "dial-items-" });
  await Deno.writeTextFile(`${dir}/note.txt`, "hello\n");
  await Deno.writeTextFile(`${dir}/data.json`, '{"x": [1, 2], "y": "é"}\n');
  await Deno.writeTextFile(`${dir}/token.txt`, "tok-123\n");
  await httpie([...flags, method, `${server.origin}/p?keep=1`, ...items], dir);
  const result = await dial([method, `${server.origin}/p?keep=1`, ...items, ...flags], {
    cwd: dir,
  });
  assert.equal(result.code, 0, result.stderr);
  await Deno.remove(dir, { recursive: true });
  assert.equal(server.requests.length, 2);
  return { httpie: server.requests[0]!, dial: server.requests[1]! };
}

Deno.test({
  name:
    "items: JSON fields, raw JSON, query, headers and nested paths are sent as HTTPie sends them",
  ignore: !hasHttpie,
  async fn() {
    const items = [
      "name=joe",
      "age:=3",
      "ok:=true",
      "q==1",
      "q==a b&c~*",
      "X-Trace:abc",
      "Empty;",
      "X-Token:@token.txt",
      "a[b][0]=x",
      "a[b][2]=y",
      "a[c]:=null",
      "arr[]=1",
      "arr[]=2",
      "note=@note.txt",
      "data:=@data.json",
      "esc\\=k=v",
      "col\\:on=1",
      "br\\[x\\]=lit",
      "dup=1",
      "dup=2",
      "word=café ☕",
      "file==@token.txt",
    ];
    const { httpie, dial } = await sideBySide("POST", items);
    assert.equal(requestPath(dial), requestPath(httpie));
    for (const name of ["content-type", "accept", "x-trace", "empty", "x-token"]) {
      assert.equal(header(dial, name), header(httpie, name), name);
    }
    assert.equal(headerValues(dial, "empty").length, 1);
    // HTTPie writes ", " between members; the members, values and their order are the same.
    assert.equal(
      JSON.stringify(JSON.parse(text(dial.body))),
      JSON.stringify(JSON.parse(text(httpie.body))),
    );
  },
});

Deno.test({
  name: "items: a top-level array from [] paths, as HTTPie",
  ignore: !hasHttpie,
  async fn() {
    const { httpie, dial } = await sideBySide("PUT", ["[]=1", "[]:=2", "[3]=x"]);
    assert.equal(text(dial.body), JSON.stringify(JSON.parse(text(httpie.body))));
    assert.equal(text(dial.body), '["1",2,null,"x"]');
  },
});

Deno.test({
  name: "items: a bare --form sends a urlencoded form encoded as HTTPie encodes it",
  ignore: !hasHttpie,
  async fn() {
    const { httpie, dial } = await sideBySide(
      "POST",
      ["name=joe", "a b=c d&e", "n:=1", "t=~*'!"],
      ["--form"],
    );
    assert.equal(header(dial, "content-type"), header(httpie, "content-type"));
    assert.equal(text(dial.body), text(httpie.body));
  },
});

/** Multipart parts as name, filename, type and content (boundaries differ). */
async function parts(request: RawRequest) {
  const type = header(request, "content-type");
  const body = new Uint8Array(request.body);
  const form = await new Response(body, { headers: { "content-type": type } }).formData();
  return await Promise.all(
    [...form].map(async ([name, value]) =>
      typeof value === "string"
        ? { name, value }
        : { name, filename: value.name, type: value.type, value: await value.text() }
    ),
  );
}

Deno.test({
  name: "items: a file item makes the body multipart, fields and files in order, as HTTPie",
  ignore: !hasHttpie,
  async fn() {
    const both = await sideBySide("POST", [
      "name=joe",
      "doc@note.txt",
      "typed@data.json;type=application/x-custom",
    ], ["--form"]);
    assert.deepEqual(await parts(both.dial), await parts(both.httpie));
    assert.match(header(both.dial, "content-type"), /^multipart\/form-data; boundary=/);
    // Without --form a file item switches to multipart too (HTTPie needs --form for that).
    await using server = rawServer();
    const dir = await Deno.makeTempDir();
    await Deno.writeTextFile(`${dir}/a.txt`, "A");
    const result = await dial(["POST", server.origin, "x=1", "f@a.txt"], { cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(await parts(server.requests[0]!), [
      { name: "x", value: "1" },
      { name: "f", filename: "a.txt", type: "text/plain", value: "A" },
    ]);
  },
});

Deno.test("items: combine with dial's flags; -F fields come first in the multipart form", async () => {
  await using server = rawServer();
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/a.txt`, "A");
  const result = await dial(
    [server.origin, "-F", "flag=1", "item=2", "f@a.txt", "-H", "X-One: 1", "X-Two:2", "k==v"],
    { cwd: dir },
  );
  assert.equal(result.code, 0, result.stderr);
  const request = server.requests[0]!;
  assert.equal(request.line, "POST /?k=v HTTP/1.1");
  assert.equal(header(request, "x-one"), "1");
  assert.equal(header(request, "x-two"), "2");
  assert.deepEqual((await parts(request)).map((p) => p.name), ["flag", "item", "f"]);
});

Deno.test("items: a body item with -d, --json or -T is a usage error naming both", async () => {
  for (const [flag, value] of [["-d", "x"], ["--json", "{}"], ["-T", "/dev/null"]]) {
    const result = await dial(["POST", "http://127.0.0.1:9/", "name=joe", flag!, value!]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      new RegExp(
        `^error: Conflicting request item "name=…" and ${flag}: both give the request body$`,
        "m",
      ),
    );
  }
  const auth = await dial(["GET", "http://127.0.0.1:9/", "Authorization:Bearer x", "-u", "a:b"]);
  assert.equal(auth.code, 2);
  assert.match(auth.stderr, /Conflicting flags -u and request item "Authorization:…"/);
  assert.ok(!auth.stderr.includes("Bearer x"), auth.stderr);
});

Deno.test("items: mistakes are usage errors that do not echo values", async () => {
  const cases: Array<[string[], RegExp]> = [
    [["GET", "http://127.0.0.1:9/", "s3cret-word"], /^error: Argument 3 is not a request item$/m],
    [
      ["http://127.0.0.1:9/", "http://other/"],
      /^error: Argument 2 is not a request item: it is a second URL$/m,
    ],
    [["POST", "http://127.0.0.1:9/", "a:=nope"], /^error: Invalid JSON in request item "a:=…"/m],
    [
      ["POST", "http://127.0.0.1:9/", "a=1", "a[b]=2"],
      /Cannot set the JSON path "a\[b\]": "a" is a string, not an object/,
    ],
    [
      ["POST", "http://127.0.0.1:9/", "f@/no/such"],
      /Cannot read file "\/no\/such" for request item "f@…": no such file/,
    ],
    [["GET", "http://127.0.0.1:9/", "Bad Name:x"], /not a header name/],
  ];
  for (const [args, pattern] of cases) {
    const result = await dial(args);
    assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
    assert.match(result.stderr, pattern);
    assert.ok(!result.stderr.includes("s3cret"), result.stderr);
  }
});

Deno.test("items: --offline shows the result; Name: removes an earlier header", async () => {
  const result = await dial([
    "POST",
    "http://127.0.0.1:9/x",
    "a[b]:=1",
    "q==z",
    "X-Gone:1",
    "X-Gone:",
    "User-Agent:",
    "-H",
    "X-Kept: 2",
    "--offline",
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^POST \/x\?q=z HTTP\/1\.1$/m);
  assert.match(result.stdout, /^Accept: application\/json, \*\/\*;q=0\.5$/m);
  assert.match(result.stdout, /^X-Kept: 2$/m);
  assert.doesNotMatch(result.stdout, /x-gone/i);
  // `Name:` removes dial's default too (HTTPie and curl alike).
  assert.doesNotMatch(result.stdout, /user-agent/i);
  assert.match(result.stdout, /^\{"a":\{"b":1\}\}$/m);
});

Deno.test("items: := numbers go out as written (a 19-digit id, 1e400, 1.50), as HTTPie sends the id", async () => {
  await using server = rawServer();
  const items = ["id:=1234567890123456789", "x:=1e400", 'o:={"a":[1.50,2]}', "n[m]:=3"];
  const result = await dial(["POST", `${server.origin}/`, ...items]);
  assert.equal(result.code, 0, result.stderr);
  const sent = new TextDecoder().decode(server.requests[0]!.body);
  assert.equal(sent, '{"id":1234567890123456789,"x":1e400,"o":{"a":[1.50,2]},"n":{"m":3}}');
  const httpie = await new Deno.Command("http", {
    args: ["--ignore-stdin", "--offline", "POST", `${server.origin}/`, items[0]!],
    stdout: "piped",
  }).output();
  assert.match(new TextDecoder().decode(httpie.stdout), /"id": 1234567890123456789\}/);
});
