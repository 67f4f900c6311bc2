import assert from "node:assert/strict";
import { dial, serve } from "../_helpers.ts";
import { headerValues, type RawRequest, rawServer, requestPath } from "./_raw_server.ts";

/** Runs curl (the oracle for its own flags) with no config file. */
async function curl(args: string[], cwd?: string) {
  const output = await new Deno.Command("curl", {
    args: ["-q", "-s", ...args],
    ...(cwd ? { cwd } : {}),
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: output.code, stdout: new TextDecoder().decode(output.stdout) };
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const header = (request: RawRequest, name: string) => headerValues(request, name).join(", ");

Deno.test("curl habits: -X, -A, -e, -G with -d and --data-urlencode send what curl sends", async () => {
  await using server = rawServer();
  const args = [
    "-X",
    "DELETE",
    "-A",
    "agent/1",
    "-e",
    "http://ref.test/",
    "-G",
    "-d",
    "a=1",
    "--data-urlencode",
    "q=a b&c/é~*",
    "--data-urlencode",
    "=only",
    `${server.origin}/p`,
  ];
  assert.equal((await curl(args)).code, 0);
  const result = await dial(args);
  assert.equal(result.code, 0, result.stderr);
  const [fromCurl, fromDial] = server.requests;
  assert.equal(fromDial!.line, fromCurl!.line);
  for (const name of ["user-agent", "referer"]) {
    assert.equal(header(fromDial!, name), header(fromCurl!, name));
  }
  assert.equal(requestPath(fromDial!), "/p?a=1&q=a+b%26c%2f%c3%a9~%2a&only");
});

Deno.test("curl habits: -d, --data-raw and --data-urlencode are joined in the order given, as curl", async () => {
  await using server = rawServer();
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/lines.txt`, "L1\nL2\n");
  const data = [
    "-d",
    "a=1",
    "--data-urlencode",
    "b=x y",
    "-d",
    "@lines.txt",
    "--data-raw",
    "@raw",
    "--data-urlencode",
    "n@lines.txt",
    "-d",
    "z=9",
  ];
  for (const args of [["-G", ...data], data, ["--data-raw", "@not-a-file"]]) {
    await curl([...args, `${server.origin}/p`], dir);
    const result = await dial([...args, `${server.origin}/p`], { cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    const [fromCurl, fromDial] = server.requests.splice(0);
    // curl 7.88 writes -G's %xx in lower case and the body's in upper case; dial in lower case.
    assert.equal(fromDial!.line.toLowerCase(), fromCurl!.line.toLowerCase());
    assert.equal(text(fromDial!.body).toLowerCase(), text(fromCurl!.body).toLowerCase());
    assert.equal(header(fromDial!, "content-type"), header(fromCurl!, "content-type"));
  }
});

Deno.test("curl habits: --data-urlencode without -G is a urlencoded POST body, as curl", async () => {
  await using server = rawServer();
  const args = ["-d", "x=1", "--data-urlencode", "msg=hi there", `${server.origin}/`];
  await curl(args);
  const result = await dial(args);
  assert.equal(result.code, 0, result.stderr);
  const [fromCurl, fromDial] = server.requests;
  assert.equal(fromDial!.line, fromCurl!.line);
  assert.equal(text(fromDial!.body), text(fromCurl!.body));
  assert.equal(header(fromDial!, "content-type"), header(fromCurl!, "content-type"));
});

Deno.test("curl habits: -T PUTs the file, named after it when the URL ends in /", async () => {
  await using server = rawServer();
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/up load.txt`, "payload\n");
  await curl(["-T", "up load.txt", `${server.origin}/files/`], dir);
  const result = await dial(["-T", "up load.txt", `${server.origin}/files/`], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  const [fromCurl, fromDial] = server.requests;
  assert.equal(fromDial!.line, "PUT /files/up%20load.txt HTTP/1.1");
  assert.equal(fromDial!.line, fromCurl!.line);
  assert.equal(text(fromDial!.body), text(fromCurl!.body));
  assert.equal(header(fromDial!, "content-length"), header(fromCurl!, "content-length"));
  assert.equal(header(fromDial!, "content-type"), "");
  const stdin = await dial(["-T", "-", `${server.origin}/in`], { stdin: "from stdin" });
  assert.equal(stdin.code, 0, stdin.stderr);
  assert.equal(server.requests[2]!.line, "PUT /in HTTP/1.1");
  assert.equal(text(server.requests[2]!.body), "from stdin");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("curl habits: -I sends HEAD and prints the head, also piped; -D writes heads", async () => {
  await using server = rawServer(() => ({ headers: [["X-Test", "yes"]], body: "" }));
  const result = await dial(["-I", `${server.origin}/`]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(server.requests[0]!.line, "HEAD / HTTP/1.1");
  assert.match(result.stdout, /^HTTP\/1\.1 200 OK\n(.+\n)*X-Test: yes\n\n$/);
  const head = await dial(["HEAD", `${server.origin}/`]);
  assert.match(head.stdout, /^X-Test: yes$/m);
  const dir = await Deno.makeTempDir();
  const dumped = await dial(["-D", `${dir}/head.txt`, `${server.origin}/`, "-o", "-"]);
  assert.equal(dumped.code, 0, dumped.stderr);
  assert.match(
    await Deno.readTextFile(`${dir}/head.txt`),
    /^HTTP\/1\.1 200 OK\n(.+\n)*X-Test: yes\n\n$/,
  );
  const toStdout = await dial(["-D", "-", `${server.origin}/`]);
  assert.match(toStdout.stdout, /^HTTP\/1\.1 200 OK\n(.+\n)*X-Test: yes\n\n$/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("curl habits: -o - writes the body to stdout, no file named -", async () => {
  await using server = rawServer(() => ({ body: "the body" }));
  const dir = await Deno.makeTempDir();
  const result = await dial(["-o", "-", `${server.origin}/`], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "the body");
  assert.deepEqual([...Deno.readDirSync(dir)], []);
  await Deno.remove(dir);
});

Deno.test("curl habits: -f/--fail is --check-status and -m/--max-time is --timeout", async () => {
  await using server = rawServer(() => ({ status: "404 Not Found", body: "gone" }));
  for (const flag of ["-f", "--fail"]) {
    const result = await dial([flag, `${server.origin}/`]);
    assert.equal(result.code, 4, result.stderr);
  }
  const silent = rawServerNeverAnswering();
  const timed = await dial(["-m", "0.3", silent.origin]);
  assert.equal(timed.code, 8, timed.stderr);
  const long = await dial(["--max-time", "0.3", silent.origin]);
  assert.equal(long.code, 8, long.stderr);
  silent.close();
});

/** A listener that accepts and never answers (the timeout's counterpart). */
function rawServerNeverAnswering() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  (async () => {
    for await (const conn of listener) conns.push(conn);
  })().catch(() => {});
  return {
    origin: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    close() {
      listener.close();
      for (const conn of conns) conn.close();
    },
  };
}

Deno.test("curl habits: two ways of naming the method that disagree are a usage error", async () => {
  const cases: Array<[string[], RegExp]> = [
    [["POST", "http://127.0.0.1:9/", "-X", "PUT"], /Conflicting methods "POST" and -X PUT/],
    [["GET", "http://127.0.0.1:9/", "-I"], /Conflicting methods "GET" and -I/],
    [["-T", "/dev/null", "-d", "x", "http://127.0.0.1:9/"], /Conflicting flags -T and -d/],
    [["-A", "a", "-H", "User-Agent: b", "http://127.0.0.1:9/"], /Conflicting flags -A and/],
  ];
  for (const [args, pattern] of cases) {
    const result = await dial(args);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, pattern);
  }
  const same = await dial(["POST", "http://127.0.0.1:9/", "-X", "post", "--offline"]);
  assert.equal(same.code, 0, same.stderr);
});

Deno.test("curl habits: flags dial spells otherwise get a hint naming dial's way", async () => {
  const cases: Array<[string, RegExp]> = [
    ["-O", /hint: dial --download/],
    ["-r", /hint: write -H "Range: bytes=0-99"/],
  ];
  for (const [flag, hint] of cases) {
    const result = await dial(["GET", "http://127.0.0.1:9/", flag, "x"]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, new RegExp(`^error: unknown option '${flag}'`, "m"));
    assert.match(result.stderr, hint);
  }
});

Deno.test("curl habits: an unknown flag suggests only a close one", async () => {
  // Two edits from --version is not close for a 7-letter name (it was suggested for --session).
  const far = await dial(["GET", "http://127.0.0.1:9/", "--virsian", "x"]);
  assert.match(far.stderr, /^hint: dial --help lists the flags$/m);
  const typo = await dial(["GET", "http://127.0.0.1:9/", "--sesion", "x"]);
  assert.match(typo.stderr, /^hint: did you mean --session\?/m);
  const letter = await dial(["GET", "http://127.0.0.1:9/", "-Q"]);
  assert.match(letter.stderr, /^hint: dial --help lists the flags$/m);
  const close = await dial(["GET", "http://127.0.0.1:9/", "--verbos"]);
  assert.match(close.stderr, /^hint: did you mean --verbose\?/m);
});

Deno.test("curl habits: dial help [COMMAND] shows help, sending nothing", async () => {
  const ws = await dial(["help", "ws"]);
  assert.equal(ws.code, 0, ws.stderr);
  assert.match(ws.stdout, /^Usage: dial ws <url>/);
  const root = await dial(["help"]);
  assert.equal(root.code, 0, root.stderr);
  assert.match(root.stdout, /^Usage: dial \[METHOD\] <url> \[items…\] \[flags\]/);
});

Deno.test("curl habits: dial graphql -s prints the results and their errors, no notes", async () => {
  await using server = serve(() =>
    Response.json({ data: null, errors: [{ message: "boom" }] }, { status: 500 })
  );
  const args = ["graphql", server.origin, "-q", "{ a }", "--check-status"];
  const loud = await dial(args);
  assert.match(loud.stderr, /answered HTTP 500/);
  const quiet = await dial([...args, "-s"]);
  assert.equal(quiet.code, loud.code);
  assert.doesNotMatch(quiet.stderr, /answered HTTP 500|holds GraphQL errors/);
  assert.match(quiet.stderr, /boom/);
  assert.equal(quiet.stdout, loud.stdout);
});

Deno.test("curl habits: a lone - and HTTPie's --json switch get hints, nothing is sent", async () => {
  const lone = await dial(["-", "http://127.0.0.1:9/"]);
  assert.equal(lone.code, 2);
  assert.match(lone.stderr, /^error: A lone "-" is not a method\nhint: -o -, -T - and -C - take/m);
  const json = await dial(["POST", "http://127.0.0.1:9/", "--json", "name=joe"]);
  assert.equal(json.code, 2);
  assert.match(json.stderr, /hint: request items need no flag: write name=value after the URL/);
});

Deno.test("curl habits: --curl carries --retry, -w and -D along", async () => {
  const result = await dial([
    "http://127.0.0.1:9/x",
    "--retry",
    "2",
    "--retry-delay",
    "1.5",
    "-w",
    "%{http_code}",
    "-D",
    "-",
    "--curl",
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, / --retry 2 --retry-delay 1\.5 -D - -w '%\{http_code\}'$/m);
});

Deno.test("curl habits: GET with -d or --json sends the body as curl -X GET does", async () => {
  await using server = rawServer();
  const query = '{"query":{"match_all":{}}}';
  const curl = await new Deno.Command("curl", {
    args: [
      "-s",
      "-o",
      "/dev/null",
      "-X",
      "GET",
      "-H",
      "Content-Type: application/json",
      "-d",
      query,
      `${server.origin}/_search`,
    ],
  }).output();
  assert.equal(curl.code, 0);
  const ours = await dial(["GET", `${server.origin}/_search`, "--json", query]);
  assert.equal(ours.code, 0, ours.stderr);
  const [theirs, mine] = server.requests;
  assert.equal(mine!.line, theirs!.line);
  assert.equal(new TextDecoder().decode(mine!.body), query);
  assert.deepEqual(mine!.body, theirs!.body);
  assert.equal(mine!.framing, "length");
});

Deno.test("curl habits: --compressed, --data-binary, --fail-with-body and HTTPie's --ignore-stdin are accepted", async () => {
  await using server = rawServer((request) =>
    request.line.includes("/missing") ? { status: "404 Not Found", body: "gone" } : {}
  );
  const sent = await dial([
    "POST",
    `${server.origin}/x`,
    "--compressed",
    "--ignore-stdin",
    "--data-binary",
    "a=1",
  ]);
  assert.equal(sent.code, 0, sent.stderr);
  assert.equal(new TextDecoder().decode(server.requests[0]!.body), "a=1");
  // --fail-with-body: the body printed, exit 4 for a 404 (dial's --check-status).
  const failed = await dial(["GET", `${server.origin}/missing`, "--fail-with-body"]);
  assert.equal(failed.code, 4);
  assert.equal(failed.stdout, "gone");
});

Deno.test("curl habits: -f -o leaves no file on a 404 as curl does; --fail-with-body writes it", async () => {
  await using server = rawServer(() => ({ status: "404 Not Found", body: "gone" }));
  const dir = await Deno.makeTempDir();
  const exists = (path: string) => Deno.stat(path).then(() => true, () => false);
  const theirs = await new Deno.Command("curl", {
    args: ["-s", "-f", "-o", `${dir}/curl.out`, `${server.origin}/x`],
  }).output();
  assert.equal(theirs.code, 22);
  assert.equal(await exists(`${dir}/curl.out`), false);
  const ours = await dial(["GET", `${server.origin}/x`, "-f", "-o", `${dir}/dial.out`]);
  assert.equal(ours.code, 4, ours.stderr);
  assert.equal(await exists(`${dir}/dial.out`), false);
  assert.match(ours.stderr, /Not saved: HTTP 404/);
  const kept = await dial([
    "GET",
    `${server.origin}/x`,
    "--fail-with-body",
    "-o",
    `${dir}/body.out`,
  ]);
  assert.equal(kept.code, 4, kept.stderr);
  assert.equal(await Deno.readTextFile(`${dir}/body.out`), "gone");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("curl habits: HTTPie's -a USER:PASS is -u (the same Authorization as HTTPie's); curl's -a/--append gets a hint, nothing sent", async () => {
  await using server = rawServer();
  const url = `${server.origin}/a`;
  const httpie = await new Deno.Command("http", {
    args: ["--ignore-stdin", "-a", "ann:p@ss", "GET", url],
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(httpie.code, 0, new TextDecoder().decode(httpie.stderr));
  const ours = await dial([url, "-a", "ann:p@ss"]);
  assert.equal(ours.code, 0, ours.stderr);
  const [theirs, mine] = server.requests;
  assert.deepEqual(header(mine!, "authorization"), header(theirs!, "authorization"));
  assert.equal(header(mine!, "authorization"), `Basic ${btoa("ann:p@ss")}`);
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/up.txt`, "data");
  const append = await dial([url, "-a", "-T", `${dir}/up.txt`]);
  assert.equal(append.code, 2);
  assert.match(append.stderr, /^error: Missing user name after -u\/-a: "-T" is a flag$/m);
  assert.match(append.stderr, /curl's -a \(--append\) appends on FTP\/SFTP only/);
  const long = await dial([url, "--append", "-T", `${dir}/up.txt`]);
  assert.equal(long.code, 2);
  assert.match(long.stderr, /hint: curl appends only on FTP\/SFTP uploads/);
  assert.equal(server.requests.length, 2);
});
