import assert from "node:assert/strict";
import { dial, dialOnTerminal, hasScript, serve } from "../_helpers.ts";
import {
  CHAIN,
  clientCredentialsAuth,
  jetbrainsMultipart,
  loginServer,
  project,
} from "./_files.ts";
import { excludes, includes } from "../assert.ts";
import { startHttpbin } from "./_httpbin.ts";
import { headerValues, rawServer } from "./_raw_server.ts";
import { runProgram } from "../_process.ts";
import { startProxy } from "./_tls.ts";

Deno.test("run: requests chain through a handler's global and a REST Client request variable", async () => {
  await using server = loginServer();
  const dir = await project({
    "api.http": CHAIN,
    "http-client.env.json": JSON.stringify({ dev: { origin: server.origin, user: "ann" } }),
  });
  const result = await dial(["run", `${dir}/api.http`, "--env", "dev"]);
  assert.equal(result.code, 0, result.stderr);
  // Piped: the bodies only, in file order, each ending a line (a line break added after one
  // that does not end with one, as httpyac does).
  assert.equal(
    result.stdout,
    '{"token":"tok-ann"}\n{"path":"/me","query":"?from=tok-ann","authorization":"Bearer tok-ann","session":"s-1"}\n',
  );
  assert.equal(server.requests.length, 2);
  const heads = await dial(["run", `${dir}/api.http`, "--env", "dev", "-i"]);
  assert.match(heads.stdout, /^\{"token":"tok-ann"\}\n(?:HTTP\/1\.1 )?200 OK$/m);
});

Deno.test("run: piped, each of several responses ends a line; -v's next request head starts its own", async () => {
  await using server = serve(() => new Response("no newline"));
  const dir = await project({
    "two.http": `GET ${server.origin}/a\n\n###\nPOST ${server.origin}/b\n`,
  });
  const result = await dial(["run", `${dir}/two.http`]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "no newline\nno newline\n");
  // stdout and stderr in one log, as CI keeps them: the body ended its line before the head.
  const main = new URL("../../main.ts", import.meta.url).pathname;
  const log = await runProgram("bash", [
    ...["-c", `"$0" run -A --quiet "$1" run "$2" -v 2>&1`],
    ...[Deno.execPath(), main, `${dir}/two.http`],
  ]);
  assert.equal(log.code, 0, log.stderr);
  assert.match(log.stdout, /^no newline\nPOST \/b HTTP\/1\.1$/m);
  assert.match(log.stdout, /\n\nno newline\n$/);
});

Deno.test("run: a named request that another refers to runs first, and is not printed", async () => {
  await using server = loginServer();
  const dir = await project({ "api.http": CHAIN });
  const result = await dial([
    "run",
    `${dir}/api.http`,
    "me",
    "--var",
    `origin=${server.origin}`,
    "--var",
    "user=bob",
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(server.requests.map((r) => new URL(r.url).pathname), ["/login", "/me"]);
  assert.equal(JSON.parse(result.stdout).authorization, "Bearer tok-bob");
});

Deno.test("run: each named response keeps its own body: a short one after a long one (httpbin)", async () => {
  await using httpbin = await startHttpbin();
  const long = "x".repeat(3000);
  const dir = await project({
    "api.http": [
      `# @name long\nGET ${httpbin.origin}/base64/${btoa(long)}\n`,
      `# @name short\nGET ${httpbin.origin}/base64/${btoa("y")}\n`,
      `# @name echo\nPOST ${httpbin.origin}/anything\nContent-Type: text/plain\n\n` +
      "{{long.response.body.*}}|{{short.response.body.*}}\n",
    ].join("\n###\n"),
  });
  const result = await dial(["run", `${dir}/api.http`, "echo"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(JSON.parse(result.stdout).data, `${long}|y`);
});

Deno.test("run: an undefined variable is an error naming it and its place; nothing is sent", async () => {
  await using server = loginServer();
  const dir = await project({ "api.http": `GET ${"{{origin}}"}/x\nAccept: {{kind}}\n` });
  const result = await dial(["run", `${dir}/api.http`, "--var", `origin=${server.origin}`]);
  assert.equal(result.code, 2);
  includes(
    result.stderr,
    `error: ${dir}/api.http:2:9: Undefined variable "kind" in header "Accept"`,
  );
  assert.equal(server.requests.length, 0);
  // A {{$dotenv KEY}} the .env beside the file lacks: the hint names that file, not the
  // process's environment.
  await Deno.writeTextFile(`${dir}/.env`, "OTHER=1\n");
  await Deno.writeTextFile(`${dir}/api.http`, `GET ${server.origin}/x?k={{$dotenv API_KEY}}\n`);
  const dotenv = await dial(["run", `${dir}/api.http`]);
  assert.equal(dotenv.code, 2);
  includes(
    dotenv.stderr,
    'Undefined variable "$dotenv API_KEY" in the URL\nhint: add API_KEY=… to the .env file beside the request file',
  );
  assert.equal(server.requests.length, 0);
});

Deno.test("run: a syntax error names file, line and column; unknown directives warn, and so does httpyac's # @proxy, ignored", async () => {
  await using server = loginServer();
  const dir = await project({
    "bad.http": "GET http://127.0.0.1:9/\nNot a header\n",
    // httpyac's `# @proxy` (nothing listens on port 9): ignored, the request goes straight.
    "warn.http": `# @bogus\n# @proxy http://127.0.0.1:9\nGET ${server.origin}/x\n`,
  });
  const result = await dial(["run", `${dir}/bad.http`]);
  assert.equal(result.code, 2);
  includes(
    result.stderr,
    `error: ${dir}/bad.http:2:1: Cannot parse header "Not a header": missing ":"`,
  );
  const warned = await dial(["run", `${dir}/warn.http`]);
  assert.equal(warned.code, 0, warned.stderr);
  includes(warned.stderr, `warning: ${dir}/warn.http:1:3: Unknown directive "@bogus" is ignored`);
  includes(
    warned.stderr,
    `warning: ${dir}/warn.http:2:3: Directive "@proxy" is ignored: a proxy is chosen on the command line, not by a file`,
  );
});

Deno.test("run: JetBrains Basic forms are encoded; redirects are followed unless # @no-redirect", async () => {
  await using server = loginServer();
  const dir = await project({
    "auth.http": `GET ${"{{o}}"}/a
Authorization: Basic ann s3cret pass

###
GET {{o}}/b
Authorization: Basic bob:pw

###
GET {{o}}/redirect

###
# @no-redirect
GET {{o}}/redirect
`,
  });
  const result = await dial(["run", `${dir}/auth.http`, "--var", `o=${server.origin}`, "-i"]);
  assert.equal(result.code, 0, result.stderr);
  const auth = server.requests.map((r) => r.headers.get("authorization"));
  assert.equal(auth[0], `Basic ${btoa("ann:s3cret pass")}`);
  assert.equal(auth[1], `Basic ${btoa("bob:pw")}`);
  assert.deepEqual(server.requests.map((r) => new URL(r.url).pathname), [
    "/a",
    "/b",
    "/redirect",
    "/me",
    "/redirect",
  ]);
  includes(result.stdout, "302 Found");
});

Deno.test("run: secrets of the private environment file are redacted by -v", async () => {
  await using server = loginServer();
  const dir = await project({
    "api.http": "GET {{origin}}/me\nAuthorization: Bearer {{token}}\nX-Api-Key: {{key}}\n",
    "http-client.env.json": JSON.stringify({ dev: { origin: server.origin } }),
    "http-client.private.env.json": JSON.stringify({
      dev: { token: "tok-SECRET", key: "key-SECRET" },
    }),
  });
  const result = await dial(["run", `${dir}/api.http`, "--env", "dev", "-v"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(server.requests[0]!.headers.get("x-api-key"), "key-SECRET");
  excludes(result.stderr, "SECRET");
  includes(result.stderr, "(redacted)");
});

Deno.test("run: a failing script names its line; --check-status stops at a 4xx", async () => {
  await using server = serve(() => new Response("nope", { status: 404 }));
  const dir = await project({
    "s.http":
      `GET ${server.origin}/x\n\n> {%\n  client.log("before");\n  response.body.missing.field;\n%}\n`,
    "c.http": `GET ${server.origin}/a\n\n###\nGET ${server.origin}/b\n`,
  });
  const script = await dial(["run", `${dir}/s.http`]);
  assert.equal(script.code, 1);
  includes(
    script.stderr,
    `error: ${dir}/s.http:5: TypeError: cannot read property 'field' of undefined`,
  );
  includes(script.stderr, "before");
  const checked = await dial(["run", `${dir}/c.http`, "--check-status"]);
  assert.equal(checked.code, 4);
  assert.equal(server.requests.length, 2);
});

Deno.test("run: multipart bodies with < file parts and a body file include", async () => {
  const seen: Record<string, string>[] = [];
  await using server = serve(async (request) => {
    if (request.headers.get("content-type")?.startsWith("multipart/")) {
      const form = await request.formData();
      const file = form.get("file_to_send") as File;
      seen.push({ text: String(form.get("text")), file: await file.text(), name: file.name });
    } else {
      seen.push({ raw: await request.text() });
    }
    return new Response("ok");
  });
  // The JetBrains spec's multipart example (section 3.2.3.1), pointed at a local server.
  const dir = await project({
    "input.txt": "file contents\n",
    "body.json": '{"from": "file"}',
    "up.http": jetbrainsMultipart(server.origin) + `
###
POST ${server.origin}/api/add
Content-Type: application/json

< ./body.json
`,
  });
  const result = await dial(["run", `${dir}/up.http`]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(seen, [
    { text: "Text", file: "file contents\n", name: "input.txt" },
    { raw: '{"from": "file"}' },
  ]);
});

Deno.test("run: JetBrains Security.Auth OAuth 2.0 on dial's flows and token cache (oidc-provider), chained", async () => {
  const { startOidcProvider, OIDC_CLIENTS } = await import("./_oauth_servers.ts");
  await using provider = await startOidcProvider({ redirectUris: ["http://127.0.0.1:1/cb"] });
  const tokens: (string | null)[] = [];
  await using api = serve((request) => {
    tokens.push(request.headers.get("authorization"));
    const url = new URL(request.url);
    if (url.pathname === "/orders") return Response.json({ id: "o-7" }, { status: 201 });
    return Response.json({ path: url.pathname });
  });
  const home = await Deno.makeTempDir({ prefix: "dial-oauth-home-" });
  const dir = await project({
    "api.http": `### create
POST ${api.origin}/orders
Authorization: Bearer {{$auth.token("idp")}}

> {% client.global.set("order", response.body.id); %}

### read
GET ${api.origin}/orders/{{order}}
Authorization: Bearer {{$auth.token("idp")}}
`,
    "http-client.env.json": JSON.stringify({
      dev: {
        Security: {
          Auth: {
            idp: {
              ...clientCredentialsAuth(provider.tokenUrl, OIDC_CLIENTS.web.id, "{{client_secret}}"),
              "Scope": "api:read",
            },
          },
        },
      },
    }),
    "http-client.private.env.json": JSON.stringify({
      dev: { client_secret: OIDC_CLIENTS.web.secret },
    }),
  });
  const env = { XDG_CACHE_HOME: home };
  const first = await dial(["run", `${dir}/api.http`, "--env", "dev"], { env });
  assert.equal(first.code, 0, first.stderr);
  assert.equal(JSON.parse(first.stdout.slice(first.stdout.indexOf('{"path"'))).path, "/orders/o-7");
  assert.equal(provider.grants.client_credentials, 1);
  assert.equal(tokens.length, 2);
  assert.match(tokens[0]!, /^Bearer \S{20,}$/);
  assert.equal(tokens[1], tokens[0]);
  // A second run reuses the cached token: no new grant.
  const second = await dial(["run", `${dir}/api.http`, "--env", "dev"], { env });
  assert.equal(second.code, 0, second.stderr);
  assert.equal(provider.grants.client_credentials, 1);
  assert.equal(tokens[3], tokens[0]);
  excludes(first.stderr + second.stderr, OIDC_CLIENTS.web.secret);
});

Deno.test("run: handler and pre-request script files, cookies kept across requests unless # @no-cookie-jar", async () => {
  await using server = serve((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/login") {
      return Response.json({ ok: true }, { headers: { "Set-Cookie": "sid=abc; Path=/" } });
    }
    return Response.json({
      path: url.pathname + url.search,
      cookie: request.headers.get("cookie"),
    });
  });
  const dir = await project({
    "scripts/pre.js": 'request.variables.set("q", "from-pre");\n',
    "scripts/after.js":
      'client.global.set("seen", response.body.cookie);\nclient.log("cookie", response.body.cookie);\n',
    "api.http": `GET ${server.origin}/login

###
< ./scripts/pre.js
GET ${server.origin}/a?q={{q}}

> ./scripts/after.js

###
# @no-cookie-jar
GET ${server.origin}/b?seen={{seen}}
`,
  });
  const result = await dial(["run", `${dir}/api.http`]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(
    server.requests.map((
      r,
    ) => [new URL(r.url).pathname + new URL(r.url).search, r.headers.get("cookie")]),
    [
      ["/login", null],
      ["/a?q=from-pre", "sid=abc"],
      ["/b?seen=sid=abc", null],
    ],
  );
  includes(result.stderr, "cookie sid=abc");
});

Deno.test("run: a private environment file tracked by git is reported", async () => {
  await using server = loginServer();
  const dir = await project({
    "api.http": "GET {{origin}}/me\n",
    "http-client.private.env.json": JSON.stringify({ dev: { origin: server.origin } }),
  });
  const git = (...args: string[]) =>
    new Deno.Command("git", { args: ["-C", dir, ...args], stdout: "null", stderr: "null" })
      .output();
  await git("init", "-q");
  const clean = await dial(["run", `${dir}/api.http`, "--env", "dev"]);
  assert.equal(clean.code, 0, clean.stderr);
  excludes(clean.stderr, "tracked by git");
  await git("add", "http-client.private.env.json");
  const tracked = await dial(["run", `${dir}/api.http`, "--env", "dev"]);
  assert.equal(tracked.code, 0, tracked.stderr);
  includes(tracked.stderr, `warning: ${dir}/http-client.private.env.json is tracked by git`);
});

/**
 * @param stdout what `dial run` printed: httpbin's JSON answers, one a line
 * @returns the path and query of each, as httpbin echoed them, in order
 */
function echoedTargets(stdout: string): string[] {
  return stdout.trim().split("\n").map((line) => {
    const url = new URL(JSON.parse(line).url);
    return url.pathname + url.search;
  });
}

Deno.test("run: JetBrains run #name and run ./file.http run in place, with (@var=value)", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    "main.http": [
      "@id = 1",
      "",
      "### first",
      "GET {{base}}/anything/first?id={{id}}",
      "",
      "###",
      "run #first (@id=7)",
      "",
      "###",
      "run ./sub/other.http (@id=9, @tag={{id}}-x)",
      "",
      "### last",
      "GET {{base}}/anything/last?id={{id}}",
      "",
    ].join("\n"),
    "sub/other.http": "GET {{base}}/anything/other?id={{id}}&tag={{tag}}\n\n?? body args.id == 9\n",
    "sub/escape.http": "run ../main.http\n",
    "sub/self.http": "GET {{base}}/anything/self\n\n###\nrun ./self.http\n",
  });
  const base = `base=${httpbin.origin}`;
  const result = await dial(["run", `${dir}/main.http`, "--var", base]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(echoedTargets(result.stdout), [
    "/anything/first?id=1",
    "/anything/first?id=7",
    "/anything/other?id=9&tag=1-x",
    "/anything/last?id=1",
  ]);
  assert.match(result.stderr, /✓ .*body args\.id == 9/);
  // The other file's cases name it; a run line that loops is an error of its file.
  const tested = await dial(["test", `${dir}/sub/self.http`, `${dir}/sub/other.http`, ...[
    ...["--var", base, "--var", "id=9", "--var", "tag=t"],
  ]]);
  assert.match(tested.stdout, /self\.http:4:1: \.\/self\.http is already running/);
  assert.match(tested.stdout, /✓ .*sub\/other\.http › .* › body args\.id == 9/);
  // A run line outside the folder of the run refuses the file before anything is sent.
  const escape = await dial(["test", `${dir}/sub/escape.http`, "--var", base]);
  assert.equal(escape.code, 2);
  assert.match(escape.stderr, /"\.\.\/main\.http" is outside the run's folder/);
});

Deno.test("run: JetBrains import makes another file's requests runnable by run #name", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    "main.http": [
      "import ./lib/auth.http",
      "",
      "### mine",
      "GET {{base}}/anything/mine",
      "",
      "###",
      "run #login (@user=ann)",
      "",
      "###",
      "run #deep",
      "",
      "###",
      "run #mine",
      "",
    ].join("\n"),
    // Imported requests run in their own file (its variables), with the run line's overrides.
    "lib/auth.http": [
      "import ./deeper.http",
      "@user = nobody",
      "",
      "### login",
      "POST {{base}}/anything/login?user={{user}}",
      "",
      '> {% client.global.set("who", response.body.args.user); %}',
      "",
      "### not run",
      "GET {{base}}/anything/never",
      "",
    ].join("\n"),
    "lib/deeper.http":
      "### deep\nGET {{base}}/anything/deep?who={{who}}\n\n?? body args.who == ann\n",
    "missing.http": "import ./lib/auth.http\n\n###\nrun #nothing\n",
    "escape/out.http":
      "import ../../outside.http\n\n### first\nGET {{base}}/anything/first\n\n###\nrun #x\n",
  });
  await Deno.writeTextFile(`${dir}/../outside.http`, `### x\nGET ${httpbin.origin}/anything/x\n`);
  const base = `base=${httpbin.origin}`;
  const result = await dial(["run", `${dir}/main.http`, "--var", base]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(echoedTargets(result.stdout), [
    "/anything/mine",
    "/anything/login?user=ann",
    "/anything/deep?who=ann",
    "/anything/mine",
  ]);
  // Under dial test the imported request's cases name its file.
  const tested = await dial(["test", `${dir}/main.http`, "--var", base]);
  assert.equal(tested.code, 0, tested.stdout);
  assert.match(tested.stdout, /✓ .*lib\/deeper\.http › deep › body args\.who == ann/);
  // A name no file has is an error naming the line.
  const missing = await dial(["run", `${dir}/missing.http`, "--var", base]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /missing\.http:4:1: No request named "nothing" to run/);
  // An import outside the run's folder refuses the file before anything is sent …
  const escape = await dial(["test", `${dir}/escape/out.http`, "--var", base]);
  assert.equal(escape.code, 2);
  assert.match(escape.stderr, /"\.\.\/\.\.\/outside\.http" is outside the run's folder/);
  assert.doesNotMatch(escape.stdout, /first/);
  // … unless --allow-path names its folder.
  const allowed = await dial([
    ...["run", `${dir}/escape/out.http`, "--var", base, "--allow-path", `${dir}/..`],
  ]);
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.deepEqual(echoedTargets(allowed.stdout), ["/anything/first", "/anything/x"]);
});

Deno.test("run: # @prompt asks on a terminal; without one it names the variable", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    "ask.http":
      `# @prompt user Your user name\n# @prompt password\nGET ${httpbin.origin}/anything?u={{user}}&p={{password}}\n`,
  });
  const piped = await dial(["run", `${dir}/ask.http`]);
  assert.equal(piped.code, 2);
  assert.match(
    piped.stderr,
    /ask\.http:1:1: Variable "user" is asked with # @prompt and there is no terminal to ask on/,
  );
  assert.match(piped.stderr, /--var user=VALUE/);
  const given = await dial(["run", `${dir}/ask.http`, "--var", "user=ann", "--var", "password=pw"]);
  assert.equal(JSON.parse(given.stdout).args.u, "ann");
  if (!hasScript) return;
  const { code, screen } = await dialOnTerminal(
    ["run", `${dir}/ask.http`, "--var", "password=pw"],
    {
      prompt: "Your user name: ",
      type: "bob\r",
    },
  );
  assert.equal(code, 0, screen);
  assert.match(screen, /Your user name: bob/);
  assert.match(screen, /"u": "bob"/);
});

Deno.test("run: object-valued env keys are skipped with a notice; kulala's default headers apply", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    "h.http": "GET {{base}}/headers\nX-Own: mine\nAccept: text/plain\n",
    "http-client.env.json": JSON.stringify({
      "$schema": "https://getkulala.net/http-client.env.schema.json",
      "$shared": {
        "$default_headers": { "X-Shared": "s-{{tag}}", "Accept": "application/json" },
        "nested": { "a": 1 },
        "base": httpbin.origin,
      },
      "$kulalaShared": { "$kulalaDefaultHeaders": { "X-Kulala": "k" }, "tag": "t" },
      "dev": { "$kulalaDefaultHeaders": { "X-Shared": "dev" } },
    }),
  });
  const result = await dial(["run", `${dir}/h.http`, "--env", "dev"]);
  assert.equal(result.code, 0, result.stderr);
  const headers = JSON.parse(result.stdout).headers;
  assert.equal(headers["X-Own"], "mine");
  // The request's own header wins over a default one; the environment's over the shared one.
  assert.equal(headers["Accept"], "text/plain");
  assert.equal(headers["X-Shared"], "dev");
  assert.equal(headers["X-Kulala"], "k");
  assert.match(
    result.stderr,
    /http-client\.env\.json: variable "nested" is an object and is skipped/,
  );
  const shared = await dial(["run", `${dir}/h.http`]);
  assert.equal(JSON.parse(shared.stdout).headers["X-Shared"], "s-t");
});

Deno.test("run: OPTIONS * goes to the Host header's server in asterisk form, as curl sends it", async () => {
  await using server = rawServer(() => ({ headers: [["Allow", "GET, OPTIONS"]], body: "" }));
  const dir = await project({
    "star.http": `OPTIONS * HTTP/1.1\nHost: 127.0.0.1:${server.port}\n\n###\nOPTIONS *\n`,
    "one.http": `OPTIONS * HTTP/1.1\nHost: 127.0.0.1:${server.port}\n`,
  });
  const result = await dial(["run", `${dir}/star.http`, "1", "-v"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(server.requests.length, 1);
  assert.equal(server.requests[0]!.line, "OPTIONS * HTTP/1.1");
  assert.deepEqual(headerValues(server.requests[0]!, "host"), [`127.0.0.1:${server.port}`]);
  // -v shows the line that went out.
  assert.match(result.stderr, /^OPTIONS \* HTTP\/1\.1$/m);
  // curl's --request-target '*' writes the same request line to the same server.
  const curl = await runProgram("curl", [
    ...["-s", "-o", "/dev/null", "-X", "OPTIONS", "--request-target", "*"],
    `http://127.0.0.1:${server.port}/`,
  ]);
  assert.equal(curl.code, 0, curl.stderr);
  assert.equal(server.requests[1]!.line, server.requests[0]!.line);
  // Through a forwarding proxy: the absolute form without a path, which the last proxy turns
  // into * (RFC 9112 §3.2.4; curl sends * to the proxy itself).
  const proxy = startProxy();
  try {
    const proxied = await dial([
      ...["run", `${dir}/star.http`, "1", "-x", `http://127.0.0.1:${proxy.port}`],
    ]);
    assert.equal(proxied.code, 0, proxied.stderr);
    assert.deepEqual(proxy.log, [`OPTIONS http://127.0.0.1:${server.port} HTTP/1.1`]);
  } finally {
    await proxy.close();
  }
  // Without a Host header there is no server to ask: nothing is sent.
  const bare = await dial(["run", `${dir}/star.http`, "2"]);
  assert.equal(bare.code, 2);
  assert.match(bare.stderr, /star\.http:5:1: Cannot send "OPTIONS \*": it needs a Host header/);
  assert.equal(server.requests.length, 3);
  // Exported as curl, the request keeps its asterisk: curl sends the same request line.
  const exported = await dial(["export", `${dir}/one.http`, "--to", "curl"]);
  assert.equal(exported.code, 0, exported.stderr);
  assert.match(exported.stdout, / --request-target '\*' /);
  const script = await runProgram("bash", ["-c", exported.stdout.replace(/^curl /m, "curl -s ")]);
  assert.equal(script.code, 0, script.stderr);
  assert.equal(server.requests[3]!.line, "OPTIONS * HTTP/1.1");
});

Deno.test("export: OPTIONS * as Python keeps the asterisk (urllib3); HTTPie, fetch, HAR and Postman say they cannot", async () => {
  await using server = rawServer(() => ({ headers: [["Allow", "GET, OPTIONS"]], body: "" }));
  const dir = await project({
    "one.http": `# @no-redirect\nOPTIONS * HTTP/1.1\nHost: 127.0.0.1:${server.port}\nX-A: 1\n`,
  });
  const exportTo = async (to: string) => {
    const result = await dial(["export", `${dir}/one.http`, "--to", to]);
    assert.equal(result.code, 0, result.stderr);
    return result;
  };
  // Python: requests always sends a path; the program sends this request with urllib3.
  const python = await exportTo("python");
  assert.equal(python.stderr, "");
  await Deno.writeTextFile(`${dir}/one.py`, python.stdout);
  const ran = await runProgram("python3", [`${dir}/one.py`]);
  assert.equal(ran.code, 0, ran.stderr);
  assert.equal(server.requests[0]!.line, "OPTIONS * HTTP/1.1");
  assert.deepEqual(headerValues(server.requests[0]!, "x-a"), ["1"]);
  // HTTPie cannot send the asterisk form (`http://host*` is no URL; --path-as-is sends /*):
  // the export says so, and its command sends OPTIONS / as written.
  const httpie = await exportTo("httpie");
  assert.match(httpie.stderr, /Not carried: OPTIONS \*: the request-target \* \(HTTPie cannot/);
  const sent = await runProgram("bash", ["-c", httpie.stdout]);
  assert.equal(sent.code, 0, sent.stderr);
  assert.equal(server.requests[1]!.line, "OPTIONS / HTTP/1.1");
  for (const to of ["fetch", "har", "postman"]) {
    const other = await exportTo(to);
    assert.match(other.stderr, /Not carried: OPTIONS \*: the request-target \*/, to);
  }
  // Postman: the Host header's server (Newman reads a URL of `*` as a host named `*`).
  const postman = JSON.parse((await exportTo("postman")).stdout);
  assert.equal(postman.item[0].request.url, `http://127.0.0.1:${server.port}/`);
  // With redirects followed (the default), Python's export says urllib3 will not follow them.
  await Deno.writeTextFile(`${dir}/two.http`, `OPTIONS *\nHost: 127.0.0.1:${server.port}\n`);
  const follow = await dial(["export", `${dir}/two.http`, "--to", "python"]);
  assert.match(follow.stderr, /Not carried: OPTIONS \*: following a redirect of OPTIONS \*/);
});
