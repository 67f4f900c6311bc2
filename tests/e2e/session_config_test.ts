import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { headerValues, type RawRequest, rawServer } from "./_raw_server.ts";

const header = (request: RawRequest, name: string) => headerValues(request, name).join(", ");

/** A server that sets a cookie and records requests. */
function cookieServer() {
  return rawServer(() => ({ headers: [["Set-Cookie", "sid=abc123; Path=/"]], body: "{}" }));
}

async function home(): Promise<Record<string, string>> {
  const dir = await Deno.makeTempDir({ prefix: "dial-session-home-" });
  return { HOME: dir, XDG_CONFIG_HOME: `${dir}/.config`, PW: "s3cret-pw" };
}

Deno.test("session: headers, cookies and auth (as a reference) are kept per host, 0600", async () => {
  await using server = cookieServer();
  const env = await home();
  const first = await dial([
    `${server.origin}/a`,
    "--session",
    "work",
    "-u",
    "ann:@env:PW",
    "X-Team:blue",
  ], { env });
  assert.equal(first.code, 0, first.stderr);
  const second = await dial([`${server.origin}/b`, "--session", "work"], { env });
  assert.equal(second.code, 0, second.stderr);
  const request = server.requests[1]!;
  assert.equal(header(request, "x-team"), "blue");
  assert.equal(header(request, "cookie"), "sid=abc123");
  assert.equal(header(request, "authorization"), `Basic ${btoa("ann:s3cret-pw")}`);
  const dir = `${env.XDG_CONFIG_HOME}/dial/sessions/127.0.0.1_${server.port}`;
  const path = `${dir}/work.json`;
  assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
  assert.equal((await Deno.stat(dir)).mode! & 0o777, 0o700);
  const text = await Deno.readTextFile(path);
  assert.ok(text.includes("ann:@env:PW"), text);
  assert.ok(!text.includes("s3cret-pw"), text);
  // The command line wins over the session for a header of the same name.
  await dial([`${server.origin}/c`, "--session", "work", "X-Team:red"], { env });
  assert.equal(header(server.requests[2]!, "x-team"), "red");
});

Deno.test("session: a literal token or credential header is used but not kept", async () => {
  await using server = cookieServer();
  const env = await home();
  const first = await dial([server.origin, "--session", "s", "-B", "literal-tok", "X-Api-Key:k1"], {
    env,
  });
  assert.equal(first.code, 0, first.stderr);
  assert.equal(header(server.requests[0]!, "authorization"), "Bearer literal-tok");
  assert.match(first.stderr, /Session: -B not kept \(give it as @env:NAME or @file/);
  assert.match(first.stderr, /Session: header "X-Api-Key" not kept/);
  const path = `${env.XDG_CONFIG_HOME}/dial/sessions/127.0.0.1_${server.port}/s.json`;
  const text = await Deno.readTextFile(path);
  assert.ok(!text.includes("literal-tok") && !text.includes("k1"), text);
  await dial([server.origin, "--session", "s"], { env });
  assert.equal(header(server.requests[1]!, "authorization"), "");
});

Deno.test("session: --session-read-only uses the session and leaves the file as it was", async () => {
  await using server = cookieServer();
  const env = await home();
  await dial([server.origin, "--session", "r", "X-One:1"], { env });
  const path = `${env.XDG_CONFIG_HOME}/dial/sessions/127.0.0.1_${server.port}/r.json`;
  const before = await Deno.readTextFile(path);
  const result = await dial([server.origin, "--session-read-only", "r", "X-Two:2"], { env });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(header(server.requests[1]!, "x-one"), "1");
  assert.equal(await Deno.readTextFile(path), before);
});

Deno.test("session: a path session is not used with another origin", async () => {
  await using one = cookieServer();
  await using two = cookieServer();
  const env = await home();
  const path = `${env.HOME}/mine.json`;
  await dial([one.origin, "--session", path, "-B", "@env:PW"], { env });
  const other = await dial([two.origin, "--session", path], { env });
  assert.equal(header(two.requests[0]!, "authorization"), "");
  assert.match(other.stderr, /belongs to http:\/\/127\.0\.0\.1:\d+: not used or changed/);
  assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
});

Deno.test({
  name: "session: the second run sends what HTTPie's second run sends (header and cookie)",
  ignore: !(() => {
    try {
      return new Deno.Command("http", { args: ["--version"], stdout: "null" }).outputSync().success;
    } catch {
      return false;
    }
  })(),
  async fn() {
    await using server = cookieServer();
    const env = await home();
    const httpie = async (args: string[]) =>
      await new Deno.Command("http", {
        args: ["--ignore-stdin", "--print=", ...args],
        env: { HOME: env.HOME!, PATH: Deno.env.get("PATH")! },
      }).output();
    await httpie([`--session=${env.HOME}/h.json`, server.origin, "X-Team:blue"]);
    await httpie([`--session=${env.HOME}/h.json`, server.origin]);
    await dial([server.origin, "--session", `${env.HOME}/d.json`, "X-Team:blue"], { env });
    await dial([server.origin, "--session", `${env.HOME}/d.json`], { env });
    const [, fromHttpie, , fromDial] = server.requests;
    assert.equal(header(fromHttpie!, "x-team"), "blue");
    assert.equal(header(fromHttpie!, "cookie"), "sid=abc123");
    for (const name of ["x-team", "cookie"]) {
      assert.equal(header(fromDial!, name), header(fromHttpie!, name), name);
    }
  },
});

Deno.test("config: default flags and named APIs with a base URL and secret references", async () => {
  await using server = cookieServer();
  const env: Record<string, string> = { ...(await home()), TOKEN: "tok-from-env" };
  await Deno.mkdir(`${env.XDG_CONFIG_HOME}/dial`, { recursive: true });
  await Deno.writeTextFile(
    `${env.XDG_CONFIG_HOME}/dial/config.json`,
    JSON.stringify({
      defaults: ["-H", "X-Default: yes"],
      apis: {
        local: { base: `${server.origin}/v1/`, flags: ["-B", "@env:TOKEN", "-H", "X-Api: local"] },
      },
    }),
  );
  const result = await dial(["local/users", "q==1"], { env });
  assert.equal(result.code, 0, result.stderr);
  const request = server.requests[0]!;
  assert.equal(request.line, "GET /v1/users?q=1 HTTP/1.1");
  assert.equal(header(request, "authorization"), "Bearer tok-from-env");
  assert.equal(header(request, "x-api"), "local");
  assert.equal(header(request, "x-default"), "yes");
  const post = await dial(["POST", "local/users", "name=ann", "-B", "other"], { env });
  assert.equal(post.code, 0, post.stderr);
  assert.equal(server.requests[1]!.line, "POST /v1/users HTTP/1.1");
  assert.equal(header(server.requests[1]!, "authorization"), "Bearer other");
  const plain = await dial([`${server.origin}/x`], { env });
  assert.equal(plain.code, 0, plain.stderr);
  assert.equal(header(server.requests[2]!, "authorization"), "");
  assert.equal(header(server.requests[2]!, "x-default"), "yes");
});

Deno.test("config: a literal secret or an unknown member is a usage error naming the file", async () => {
  const env = await home();
  await Deno.mkdir(`${env.XDG_CONFIG_HOME}/dial`, { recursive: true });
  const file = `${env.XDG_CONFIG_HOME}/dial/config.json`;
  const cases: Array<[unknown, RegExp]> = [
    [{ apis: { a: { base: "http://a.test", flags: ["-B", "tok"] } } }, /-B must be a reference/],
    [{ defaults: ["-u", "ann:pw"] }, /-u's password must be a reference/],
    [{ defaults: ["-H", "X-Api-Key: k"] }, /header "X-Api-Key" must be a reference/],
    [{ default: [] }, /unknown member "default"/],
    [{ apis: { a: { base: "ftp://x" } } }, /"base" must be an http\(s\) URL/],
  ];
  for (const [config, pattern] of cases) {
    await Deno.writeTextFile(file, JSON.stringify(config));
    const result = await dial(["http://127.0.0.1:9/"], { env });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /^error: Invalid config file ".*config\.json": /m);
    assert.match(result.stderr, pattern);
  }
});
