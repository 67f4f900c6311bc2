/**
 * `--digest` against Debian's python3-httpbin, side by side with `curl --digest`: MD5 and
 * SHA-256, qop=auth, one extra round trip shown under -v, after a redirect too.
 */
import assert from "node:assert/strict";
import { dial, serve } from "../_helpers.ts";
import { startHttpbin } from "./_httpbin.ts";
import { parseChallenges } from "../../src/auth/digest.ts";

async function curl(args: string[]) {
  const output = await new Deno.Command("curl", {
    args: ["-sS", ...args],
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  return {
    code: output.code,
    stdout: new TextDecoder().decode(output.stdout),
    stderr: new TextDecoder().decode(output.stderr),
  };
}

/** The parameter names of the Digest Authorization a -v trace of curl shows. */
function curlDigestParams(trace: string): string[] {
  const line = /^> Authorization: (Digest .*)$/m.exec(trace)?.[1] ?? "";
  return Object.keys(parseChallenges([line])[0]?.params ?? {}).sort();
}

for (const algorithm of ["MD5", "SHA-256"]) {
  Deno.test(`digest: ${algorithm} at httpbin, two exchanges under -v, as curl --digest`, async () => {
    await using httpbin = await startHttpbin();
    const url = `${httpbin.origin}/digest-auth/auth/user/passwd/${algorithm}`;
    const result = await dial(["GET", url, "--digest", "-u", "user:passwd", "-v"]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), { authenticated: true, user: "user" });
    // -v shows both exchanges: the challenge and the answer (its value redacted).
    assert.equal(result.stderr.match(/^GET \/digest-auth\//gm)?.length, 2, result.stderr);
    assert.match(result.stderr, /^HTTP\/1\.1 401 UNAUTHORIZED$/m);
    assert.match(
      result.stderr,
      new RegExp(`^Www-Authenticate: Digest .*algorithm=${algorithm}`, "mi"),
    );
    assert.match(result.stderr, /^Authorization: \(redacted\)$/m);
    assert.match(result.stderr, /^HTTP\/1\.1 200 OK$/m);
    const theirs = await curl(["-v", "--digest", "-u", "user:passwd", url]);
    assert.equal(theirs.code, 0, theirs.stderr);
    assert.deepEqual(JSON.parse(theirs.stdout), { authenticated: true, user: "user" });
    assert.equal(theirs.stderr.match(/^> GET \/digest-auth\//gm)?.length, 2);
    assert.deepEqual(curlDigestParams(theirs.stderr), [
      "algorithm",
      "cnonce",
      "nc",
      "nonce",
      "opaque",
      "qop",
      "realm",
      "response",
      "uri",
      "username",
    ]);
  });
}

Deno.test("digest: after a redirect the new URL's challenge is answered (-L), as curl -L --digest", async () => {
  await using httpbin = await startHttpbin();
  const target = "/digest-auth/auth/user/passwd/SHA-256";
  const url = `${httpbin.origin}/redirect-to?url=${encodeURIComponent(target)}`;
  const result = await dial(["GET", url, "-L", "--digest", "-u", "user:passwd", "-v"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(JSON.parse(result.stdout), { authenticated: true, user: "user" });
  assert.deepEqual(result.stderr.match(/^HTTP\/1\.1 \d{3} .*$/gm), [
    "HTTP/1.1 302 FOUND",
    "HTTP/1.1 401 UNAUTHORIZED",
    "HTTP/1.1 200 OK",
  ]);
  const theirs = await curl(["-L", "--digest", "-u", "user:passwd", url]);
  assert.deepEqual(JSON.parse(theirs.stdout), { authenticated: true, user: "user" });
});

Deno.test("digest: a wrong password gets one answer, not a loop; exit 0 with the 401 as curl", async () => {
  await using httpbin = await startHttpbin();
  const url = `${httpbin.origin}/digest-auth/auth/user/passwd/MD5`;
  const result = await dial(["GET", url, "--digest", "-u", "user:wrong", "-v"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr.match(/^GET /gm)?.length, 2);
  assert.deepEqual(result.stderr.match(/^HTTP\/1\.1 \d{3} .*$/gm), [
    "HTTP/1.1 401 UNAUTHORIZED",
    "HTTP/1.1 401 UNAUTHORIZED",
  ]);
  const checked = await dial(["GET", url, "--digest", "-u", "user:wrong", "--check-status"]);
  assert.equal(checked.code, 4, checked.stderr);
  const theirs = await curl([
    "-o",
    "/dev/null",
    "-w",
    "%{http_code}",
    "--digest",
    "-u",
    "user:wrong",
    url,
  ]);
  assert.equal(theirs.stdout, "401");
});

Deno.test("digest: -u without --digest against a Digest endpoint says to add --digest", async () => {
  await using httpbin = await startHttpbin();
  const result = await dial([
    "GET",
    `${httpbin.origin}/digest-auth/auth/user/passwd/MD5`,
    "-u",
    "user:passwd",
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /The server asks for Digest authentication: add --digest/);
});

Deno.test("digest: a known nonce is reused with nc counting on the next same-origin hop; another origin gets nothing", async () => {
  const seen: Array<{ path: string; authorization: string | null }> = [];
  await using other = serve((request) => {
    seen.push({
      path: `other${new URL(request.url).pathname}`,
      authorization: request.headers.get("authorization"),
    });
    return Response.json({ ok: true });
  });
  await using server = serve((request) => {
    const url = new URL(request.url);
    const authorization = request.headers.get("authorization");
    seen.push({ path: url.pathname, authorization });
    if (!authorization) {
      return new Response(null, {
        status: 401,
        headers: { "www-authenticate": 'Digest realm="r", nonce="n1", qop="auth", algorithm=MD5' },
      });
    }
    if (url.pathname === "/a") {
      return new Response(null, { status: 302, headers: { location: "/b" } });
    }
    if (url.pathname === "/b") {
      return new Response(null, { status: 302, headers: { location: `${other.origin}/c` } });
    }
    return Response.json({ ok: true });
  });
  const result = await dial(["GET", `${server.origin}/a`, "-L", "--digest", "-u", "u:p"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(seen.map((s) => s.path), ["/a", "/a", "/b", "other/c"]);
  const nc = (i: number) => parseChallenges([seen[i]!.authorization ?? ""])[0]?.params.nc;
  assert.equal(nc(1), "00000001");
  assert.equal(nc(2), "00000002");
  assert.match(seen[2]!.authorization ?? "", /uri="\/b"/);
  assert.equal(seen[3]!.authorization, null);
});

Deno.test("digest: --digest needs -u, and conflicts with -B", async () => {
  const alone = await dial(["GET", "http://127.0.0.1:9/", "--digest", "--no-netrc"]);
  assert.equal(alone.code, 2);
  assert.match(alone.stderr, /--digest needs -u USER:PASSWORD/);
  const both = await dial(["GET", "http://127.0.0.1:9/", "--digest", "-B", "t"]);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /Conflicting flags --digest and -B/);
});

Deno.test("digest: --curl gives curl --digest with the same user", async () => {
  const args = ["GET", "http://127.0.0.1:9/x", "--digest", "-u", "ann:s3cret", "--curl"];
  const result = await dial(args);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /--digest -u ann:"\$\{PASSWORD\}"/);
  assert.ok(!result.stdout.includes("s3cret"), result.stdout);
  const shown = await dial([...args, "--with-secrets"]);
  assert.match(shown.stdout, /--digest -u ann:s3cret/);
});

Deno.test("digest: a request file's Authorization: Digest user password is answered as --digest", async () => {
  await using httpbin = await startHttpbin();
  const dir = await Deno.makeTempDir({ prefix: "dial-files-" });
  await Deno.writeTextFile(
    `${dir}/digest.http`,
    `GET ${httpbin.origin}/digest-auth/auth/user/passwd/SHA-256\nAuthorization: Digest user passwd\n`,
  );
  const result = await dial(["run", `${dir}/digest.http`]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /"authenticated": ?true/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("digest: a challenge offering only qop=auth-int is answered (httpbin), as curl answers it", async () => {
  await using httpbin = await startHttpbin();
  for (const algorithm of ["MD5", "SHA-256"]) {
    const url = `${httpbin.origin}/digest-auth/auth-int/user/passwd/${algorithm}`;
    const theirs = await curl(["--digest", "-u", "user:passwd", url]);
    assert.equal(theirs.code, 0, theirs.stderr);
    assert.deepEqual(JSON.parse(theirs.stdout), { authenticated: true, user: "user" });
    const result = await dial(["GET", url, "--digest", "-u", "user:passwd", "-v"]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), { authenticated: true, user: "user" });
    const wrong = await dial(["GET", url, "--digest", "-u", "user:nope", "-f"]);
    assert.equal(wrong.code, 4);
  }
});
