/**
 * Cookies across redirect hops, `-b` and `-c`, read back from raw requests.
 */
import assert from "node:assert/strict";
import { includes } from "../assert.ts";
import { dial } from "../_helpers.ts";
import { headerValues, type RawAnswer, type RawRequest, rawServer } from "./_raw_server.ts";

function path(request: RawRequest): string {
  return request.line.split(" ")[1]!;
}

function cookieOf(request: RawRequest): string | undefined {
  return headerValues(request, "cookie")[0];
}

Deno.test("cookies: Set-Cookie on a redirect hop is sent on the next hops that match", async () => {
  let port = 0;
  await using server = rawServer((r): RawAnswer => {
    switch (path(r)) {
      case "/login":
        return {
          status: "302 Found",
          headers: [
            ["location", "/api/home"],
            ["set-cookie", "sid=abc; Path=/; HttpOnly"],
            ["set-cookie", "scoped=1; Path=/api"],
            ["set-cookie", "elsewhere=1; Domain=evil.test"],
            ["set-cookie", "tls=1; Secure"],
          ],
        };
      case "/api/home":
        return { status: "302 Found", headers: [["location", "/other"]] };
      case "/other":
        return { status: "302 Found", headers: [["location", `http://localhost:${port}/x`]] };
      default:
        return {};
    }
  });
  port = server.port;
  const result = await dial(["GET", `${server.origin}/login`, "-L", "-v"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(server.requests.map(path), ["/login", "/api/home", "/other", "/x"]);
  assert.deepEqual(server.requests.map(cookieOf), [
    undefined,
    "scoped=1; sid=abc",
    "sid=abc",
    undefined,
  ]);
  includes(result.stderr, "Cookie: (redacted)");
});

Deno.test("cookies: -b sends cookies, and never to another host", async () => {
  let port = 0;
  await using server = rawServer((r) =>
    path(r) === "/a"
      ? { status: "302 Found", headers: [["location", `http://localhost:${port}/b`]] }
      : {}
  );
  port = server.port;
  const result = await dial(["GET", `${server.origin}/a`, "-L", "-b", "a=1; b=two"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(server.requests.map(cookieOf), ["a=1; b=two", undefined]);
  const bad = await dial(["GET", `${server.origin}/a`, "-b", "a=1; junk"]);
  assert.equal(bad.code, 2);
  includes(bad.stderr, 'Cannot parse cookie "junk"');
});

Deno.test("cookies: -c saves a Netscape jar (0600) that curl reads, and reads curl's", async () => {
  await using server = rawServer((r) =>
    path(r) === "/set"
      ? { headers: [["set-cookie", "sid=s1; Path=/; Max-Age=3600"], ["set-cookie", "tmp=t"]] }
      : {}
  );
  const dir = await Deno.makeTempDir();
  const jar = `${dir}/jar.txt`;
  const set = await dial(["GET", `${server.origin}/set`, "-c", jar]);
  assert.equal(set.code, 0, set.stderr);
  assert.equal((await Deno.stat(jar)).mode! & 0o777, 0o600);
  const text = await Deno.readTextFile(jar);
  includes(text, "# Netscape HTTP Cookie File");
  includes(text, "127.0.0.1\tFALSE\t/\tFALSE\t");
  // dial reads its own jar back ...
  assert.equal((await dial(["GET", `${server.origin}/again`, "-c", jar])).code, 0);
  // ... and curl reads it too.
  const curl = await new Deno.Command("curl", {
    args: ["-s", "-o", "/dev/null", "-b", jar, `${server.origin}/curl`],
  }).output();
  assert.equal(curl.code, 0);
  // curl writes a jar that dial reads (-b FILE).
  const curlJar = `${dir}/curl-jar.txt`;
  const curlSet = await new Deno.Command("curl", {
    args: ["-s", "-o", "/dev/null", "-c", curlJar, `${server.origin}/set`],
  }).output();
  assert.equal(curlSet.code, 0);
  assert.equal((await dial(["GET", `${server.origin}/from-curl`, "-b", curlJar])).code, 0);
  const byPath = Object.fromEntries(server.requests.map((r) => [path(r), cookieOf(r)]));
  assert.equal(byPath["/again"], "sid=s1; tmp=t");
  assert.deepEqual(byPath["/curl"]?.split("; ").sort(), ["sid=s1", "tmp=t"]);
  assert.deepEqual(byPath["/from-curl"]?.split("; ").sort(), ["sid=s1", "tmp=t"]);
  const missing = await dial(["GET", `${server.origin}/x`, "-b", `${dir}/nope`]);
  assert.equal(missing.code, 2);
  includes(missing.stderr, `Cannot read cookie file "${dir}/nope" for -b`);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("cookies: supercookies for a public suffix are refused as curl with libpsl refuses them", async () => {
  // The server is the proxy for made-up hosts under real public suffixes.
  await using proxy = rawServer(() => ({
    headers: [
      ["set-cookie", "super=1; Domain=co.uk; Path=/"],
      ["set-cookie", "pages=1; Domain=github.io; Path=/"],
      ["set-cookie", "site=1; Domain=example.co.uk; Path=/"],
      ["set-cookie", "own=1; Path=/"],
    ],
  }));
  const dir = await Deno.makeTempDir();
  const names = async (jar: string) =>
    (await Deno.readTextFile(jar)).split("\n").filter((l) => l && !l.startsWith("# "))
      .map((l) => `${l.split("\t")[0]} ${l.split("\t")[5]}`).sort();
  for (const host of ["www.example.co.uk", "alice.github.io"]) {
    const url = `http://${host}/`;
    const curl = await new Deno.Command("curl", {
      args: ["-s", "-o", "/dev/null", "-x", proxy.origin, "-c", `${dir}/curl-${host}`, url],
    }).output();
    assert.equal(curl.code, 0);
    const mine = await dial(["GET", url, "-x", proxy.origin, "-c", `${dir}/dial-${host}`]);
    assert.equal(mine.code, 0, mine.stderr);
    assert.deepEqual(await names(`${dir}/dial-${host}`), await names(`${dir}/curl-${host}`));
  }
  assert.deepEqual(await names(`${dir}/dial-www.example.co.uk`), [
    ".example.co.uk site",
    "www.example.co.uk own",
  ]);
  assert.deepEqual(await names(`${dir}/dial-alice.github.io`), ["alice.github.io own"]);
  await Deno.remove(dir, { recursive: true });
});
