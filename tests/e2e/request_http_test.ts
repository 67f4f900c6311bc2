import assert from "node:assert/strict";
import { assertBytesEqual, excludes, includes } from "../assert.ts";
import { dial, serve } from "../_helpers.ts";
import { unusedPort } from "../_ports.ts";

function echo() {
  return serve(async (request) =>
    Response.json({
      method: request.method,
      headers: Object.fromEntries(request.headers),
      body: await request.text(),
    })
  );
}

Deno.test("request: the method is sent exactly as written; a URL alone means GET", async () => {
  await using server = echo();
  for (
    const args of [["PROPFIND", `${server.origin}/`], ["PURGE", `${server.origin}/`], [
      `${server.origin}/`,
    ]]
  ) {
    const result = await dial(args);
    assert.equal(result.code, 0, result.stderr);
  }
  assert.deepEqual(server.requests.map((r) => r.method), ["PROPFIND", "PURGE", "GET"]);
});

Deno.test("request: a URL alone with a body means POST", async () => {
  await using server = echo();
  const result = await dial([`${server.origin}/`, "--json", '{"a":1}']);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(server.requests[0]!.method, "POST");
});

Deno.test("request: -d sends text, a file or stdin as the raw body", async () => {
  await using server = echo();
  const file = await Deno.makeTempFile();
  await Deno.writeTextFile(file, "from-file\n");
  await dial(["POST", `${server.origin}/`, "-d", "a=1&b=2"]);
  await dial(["POST", `${server.origin}/`, "-d", `@${file}`]);
  await dial(["PUT", `${server.origin}/`, "--data", "@-"], { stdin: "from-stdin" });
  const bodies = await Promise.all(server.requests.map((r) => r.text()));
  assert.deepEqual(bodies, ["a=1&b=2", "from-file\n", "from-stdin"]);
  assert.equal(
    server.requests[0]!.headers.get("content-type"),
    "application/x-www-form-urlencoded",
  );
  await Deno.remove(file);
});

Deno.test("request: --json validates, sets Content-Type and Accept, and reads @file", async () => {
  await using server = echo();
  const file = await Deno.makeTempFile({ suffix: ".json" });
  await Deno.writeTextFile(file, '{"from":"file"}');
  const inline = await dial(["POST", `${server.origin}/`, "--json", '{"x":[1,2]}']);
  assert.equal(inline.code, 0, inline.stderr);
  const fromFile = await dial(["POST", `${server.origin}/`, "--json", `@${file}`]);
  assert.equal(fromFile.code, 0, fromFile.stderr);
  const [first, second] = server.requests;
  assert.equal(first!.headers.get("content-type"), "application/json");
  includes(first!.headers.get("accept") ?? "", "application/json");
  assert.equal(await first!.text(), '{"x":[1,2]}');
  assert.equal(await second!.text(), '{"from":"file"}');
  await Deno.remove(file);
});

Deno.test("request: -F sends multipart with fields and streamed files", async () => {
  const received: Array<[string, string]> = [];
  await using server = serve(async (request) => {
    const form = await request.formData();
    for (const [name, value] of form) {
      received.push([
        name,
        typeof value === "string" ? value : `${value.name}|${value.type}|${await value.text()}`,
      ]);
    }
    return new Response("ok");
  });
  const file = await Deno.makeTempFile({ suffix: ".txt" });
  await Deno.writeTextFile(file, "file content");
  const result = await dial(["POST", `${server.origin}/`, "-F", "name=Ann", "-F", `doc=@${file}`]);
  assert.equal(result.code, 0, result.stderr);
  const filename = file.split("/").pop();
  assert.deepEqual(received, [["name", "Ann"], ["doc", `${filename}|text/plain|file content`]]);
  await Deno.remove(file);
});

Deno.test("request: piped output is the body byte for byte, streamed", async () => {
  const bytes = new Uint8Array(3 * 1024 * 1024);
  for (let i = 0; i < bytes.length; i += 65536) {
    crypto.getRandomValues(bytes.subarray(i, Math.min(i + 65536, bytes.length)));
  }
  await using server = serve(() =>
    new Response(bytes, { headers: { "content-type": "application/json" } })
  );
  const result = await dial(["GET", `${server.origin}/blob`]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdoutBytes.length, bytes.length);
  assertBytesEqual(result.stdoutBytes, bytes);
});

Deno.test("request: -i adds the status line and headers when piped", async () => {
  await using server = serve(() => new Response("hi", { headers: { "x-one": "1" } }));
  const result = await dial(["GET", `${server.origin}/`, "-i"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout.startsWith("HTTP/1.1 200 OK\n"), true, result.stdout);
  includes(result.stdout, "X-One: 1\n");
  assert.equal(result.stdout.endsWith("\n\nhi"), true);
});

Deno.test("request: -o writes the body to a file and nothing to stdout", async () => {
  await using server = serve(() => new Response("saved body"));
  const file = await Deno.makeTempFile();
  const result = await dial(["GET", `${server.origin}/`, "-o", file]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "");
  assert.equal(await Deno.readTextFile(file), "saved body");
  await Deno.remove(file);
});

Deno.test("request: redirects are not followed by default", async () => {
  await using server = serve(() =>
    new Response(null, { status: 302, headers: { location: "/next" } })
  );
  const result = await dial(["GET", `${server.origin}/`, "-i"]);
  assert.equal(result.code, 0);
  assert.equal(result.stdout.startsWith("HTTP/1.1 302 Found\n"), true, result.stdout);
  assert.equal(server.requests.length, 1);
});

Deno.test("request: a cross-origin redirect drops Authorization, API-key headers, cookies and -K", async () => {
  await using other = echo();
  await using start = serve(() =>
    new Response(null, { status: 307, headers: { location: `${other.origin}/landed?x=1` } })
  );
  const result = await dial([
    "POST",
    `${start.origin}/go`,
    "-L",
    "-B",
    "tok",
    "-H",
    "X-Api-Key: k1",
    "-H",
    "Cookie: sid=1",
    "-H",
    "X-Request-Id: keep-me",
    "-K",
    "api_key=k2",
    "-d",
    "payload",
  ]);
  assert.equal(result.code, 0, result.stderr);
  const landed = other.requests[0]!;
  assert.equal(new URL(landed.url).search, "?x=1");
  assert.equal(landed.headers.get("authorization"), null);
  assert.equal(landed.headers.get("x-api-key"), null);
  assert.equal(landed.headers.get("cookie"), null);
  assert.equal(landed.headers.get("x-request-id"), "keep-me");
  assert.equal(landed.method, "POST");
  assert.equal(await landed.text(), "payload");
});

Deno.test("request: a same-origin redirect keeps credentials and -K keys", async () => {
  await using server = serve((request) =>
    new URL(request.url).pathname === "/start"
      ? new Response(null, { status: 301, headers: { location: "/end" } })
      : new Response("end")
  );
  const result = await dial([
    "GET",
    `${server.origin}/start`,
    "-L",
    "-u",
    "a:b",
    "-H",
    "X-Api-Key: k1",
    "-K",
    "key=v",
  ]);
  assert.equal(result.code, 0, result.stderr);
  const end = server.requests[1]!;
  assert.equal(new URL(end.url).pathname + new URL(end.url).search, "/end?key=v");
  assert.equal(end.headers.get("authorization"), `Basic ${btoa("a:b")}`);
  assert.equal(end.headers.get("x-api-key"), "k1");
});

Deno.test("request: more redirects than --max-redirects exits 47, as curl", async () => {
  await using server = serve(() =>
    new Response(null, { status: 302, headers: { location: "/loop" } })
  );
  const result = await dial(["GET", `${server.origin}/`, "-L", "--max-redirects", "3"]);
  assert.equal(result.code, 47);
  includes(result.stderr, "error: Too many redirects: more than 3");
  assert.equal(server.requests.length, 4);
});

Deno.test("request: --check-status maps 3xx, 4xx and 5xx to exit 3, 4 and 5", async () => {
  await using server = serve((request) => {
    const status = Number(new URL(request.url).pathname.slice(1));
    return new Response(`status ${status}`, {
      status,
      headers: status < 400 ? { location: "/200" } : {},
    });
  });
  const codes = [];
  for (const status of [200, 301, 404, 503]) {
    const result = await dial(["GET", `${server.origin}/${status}`, "--check-status"]);
    codes.push(result.code);
    if (status === 404) {
      assert.equal(result.stdout, "status 404");
      includes(result.stderr, "warning: HTTP 404 Not Found");
    }
  }
  assert.deepEqual(codes, [0, 3, 4, 5]);
  const plain = await dial(["GET", `${server.origin}/500`]);
  assert.equal(plain.code, 0);
});

Deno.test("request: a refused connection exits 7 and names host and port", async () => {
  const port = unusedPort();
  const result = await dial(["GET", `http://127.0.0.1:${port}/`]);
  assert.equal(result.code, 7);
  includes(result.stderr, `error: Cannot reach 127.0.0.1:${port}: connection refused`);
});

Deno.test("request: --timeout bounds the exchange and exits 8", async () => {
  const { promise: release, resolve } = Promise.withResolvers<void>();
  await using server = serve(async () => {
    await release;
    return new Response("late");
  });
  const result = await dial(["GET", `${server.origin}/slow`, "--timeout", "0.3"]);
  resolve();
  assert.equal(result.code, 8);
  includes(result.stderr, `error: Timed out waiting for 127.0.0.1:${server.port}`);
});

Deno.test("request: --timeout also bounds a body that stalls", async () => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await using server = serve(() => {
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("first part "));
        timer = setTimeout(() => controller.close(), 3000);
      },
    });
    return new Response(body);
  });
  const result = await dial(["GET", `${server.origin}/`, "--timeout", "0.5"]);
  clearTimeout(timer);
  assert.equal(result.code, 8, result.stderr);
  assert.equal(result.stdout, "first part ");
  includes(result.stderr, "Timed out reading the response body");
});

Deno.test("request: a body cut short prints what arrived and exits 7", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const served = (async () => {
    const conn = await listener.accept();
    const buffer = new Uint8Array(4096);
    await conn.read(buffer);
    await conn.write(
      new TextEncoder().encode(
        "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nContent-Type: text/plain\r\n\r\nonly-this",
      ),
    );
    conn.close();
  })();
  const result = await dial(["GET", `http://127.0.0.1:${port}/`]);
  await served;
  listener.close();
  assert.equal(result.code, 7);
  assert.equal(result.stdout, "only-this");
  includes(result.stderr, `error: Response body from 127.0.0.1:${port} was cut off`);
});

Deno.test("request: Ctrl-C exits 130", async () => {
  const { promise: release, resolve } = Promise.withResolvers<void>();
  const { promise: arrived, resolve: onArrive } = Promise.withResolvers<void>();
  await using server = serve(async () => {
    onArrive();
    await release;
    return new Response("late");
  });
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../../main.ts", import.meta.url).pathname, `${server.origin}/`],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  await arrived;
  child.kill("SIGINT");
  const output = await child.output();
  resolve();
  assert.equal(output.code, 130);
  excludes(new TextDecoder().decode(output.stderr), "    at ");
});
