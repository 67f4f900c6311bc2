/**
 * `dial curl` takes the flags plain `dial` has with curl's spelling and meaning (`--digest`,
 * `--aws-sigv4`, `-n`/`--netrc-file`, `-C`, `--fail-with-body`, `--socks5*`, `--proxy-user`),
 * each run beside curl against the same server.
 * @module
 */
import assert from "node:assert/strict";
import { includes } from "../assert.ts";
import { dial } from "../_helpers.ts";
import { runProgram } from "../_process.ts";
import { startHttpbin } from "./_httpbin.ts";
import { headerValues, rawServer } from "./_raw_server.ts";
import { startSocks } from "./_socks.ts";

/** curl with no config file and only the environment given (no proxy variables of this machine). */
async function curl(args: string[], env: Record<string, string> = {}) {
  return await runProgram("curl", ["-q", "-sS", ...args], {
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...env },
  });
}

Deno.test("dial curl: --digest -u answers httpbin's Digest challenge, as curl", async () => {
  await using httpbin = await startHttpbin();
  const url = `${httpbin.origin}/digest-auth/auth/ann/s3cret`;
  const theirs = await curl(["-f", "--digest", "-u", "ann:s3cret", url]);
  assert.equal(theirs.code, 0, theirs.stderr);
  const ours = await dial(["curl", "-f", "--digest", "-u", "ann:s3cret", url]);
  assert.equal(ours.code, 0, ours.stderr);
  assert.deepEqual(JSON.parse(ours.stdout), JSON.parse(theirs.stdout));
  const wrong = await dial(["curl", "-f", "--digest", "-u", "ann:nope", url]);
  assert.equal(wrong.code, 4, wrong.stderr);
});

Deno.test("dial curl: netrc is read only with -n or --netrc-file, as curl (plain dial reads it always)", async () => {
  await using server = rawServer();
  const home = await Deno.makeTempDir();
  await Deno.writeTextFile(`${home}/.netrc`, "machine 127.0.0.1 login ann password pw\n", {
    mode: 0o600,
  });
  const url = `${server.origin}/n`;
  const env = { HOME: home };
  for (const args of [[url], ["-n", url], ["--netrc-file", `${home}/.netrc`, url]]) {
    assert.equal((await curl(["-o", "/dev/null", ...args], env)).code, 0);
    const ours = await dial(["curl", "-o", "/dev/null", ...args], { env });
    assert.equal(ours.code, 0, ours.stderr);
  }
  const sent = server.requests.map((r) => headerValues(r, "authorization").join());
  const basic = `Basic ${btoa("ann:pw")}`;
  // curl, dial; curl -n, dial -n; curl --netrc-file, dial --netrc-file.
  assert.deepEqual(sent, ["", "", basic, basic, basic, basic]);
});

Deno.test("dial curl: -C - resumes a partial -o file with a Range request, to the same bytes as curl", async () => {
  await using httpbin = await startHttpbin();
  const dir = await Deno.makeTempDir();
  const url = `${httpbin.origin}/range/1000`;
  const whole = await curl([url]);
  assert.equal(whole.stdout.length, 1000);
  for (const name of ["curl.bin", "dial.bin"]) {
    await Deno.writeTextFile(`${dir}/${name}`, whole.stdout.slice(0, 300));
  }
  assert.equal((await curl(["-C", "-", "-o", `${dir}/curl.bin`, url])).code, 0);
  const ours = await dial(["curl", "-C", "-", "-o", `${dir}/dial.bin`, url]);
  assert.equal(ours.code, 0, ours.stderr);
  assert.equal(await Deno.readTextFile(`${dir}/dial.bin`), whole.stdout);
  assert.equal(await Deno.readTextFile(`${dir}/curl.bin`), whole.stdout);
});

Deno.test("dial curl: --fail-with-body writes the error body to -o, -f leaves no file, as curl", async () => {
  await using httpbin = await startHttpbin();
  const dir = await Deno.makeTempDir();
  const url = `${httpbin.origin}/status/418`;
  const theirs = await curl(["--fail-with-body", "-o", `${dir}/curl.txt`, url]);
  assert.equal(theirs.code, 22);
  const ours = await dial(["curl", "--fail-with-body", "-o", `${dir}/dial.txt`, url]);
  assert.equal(ours.code, 4, ours.stderr);
  const teapot = await Deno.readTextFile(`${dir}/curl.txt`);
  includes(teapot, "teapot");
  assert.equal(await Deno.readTextFile(`${dir}/dial.txt`), teapot);
  assert.equal((await curl(["-f", "-o", `${dir}/curl-f.txt`, url])).code, 22);
  assert.equal((await dial(["curl", "-f", "-o", `${dir}/dial-f.txt`, url])).code, 4);
  for (const name of ["curl-f.txt", "dial-f.txt"]) {
    await assert.rejects(Deno.stat(`${dir}/${name}`), Deno.errors.NotFound);
  }
});

Deno.test("dial curl: --socks5-hostname and --proxy-user reach the SOCKS5 proxy as curl's do", async () => {
  await using server = rawServer();
  await using proxy = startSocks({
    login: "pu:pp",
    names: { "only-the-proxy.test": "127.0.0.1" },
  });
  const url = `http://only-the-proxy.test:${server.port}/s`;
  const args = ["--socks5-hostname", `127.0.0.1:${proxy.port}`, "--proxy-user", "pu:pp", url];
  const theirs = await curl(args);
  assert.equal(theirs.code, 0, theirs.stderr);
  const ours = await dial(["curl", ...args]);
  assert.equal(ours.code, 0, ours.stderr);
  assert.equal(ours.stdout, theirs.stdout);
  const connect = { type: "domain", host: "only-the-proxy.test", port: server.port };
  assert.deepEqual(proxy.connects, [connect, connect]);
  assert.deepEqual(proxy.logins, ["pu:pp", "pu:pp"]);
  assert.equal(server.requests[1]!.line, server.requests[0]!.line);
});

Deno.test("dial curl: --aws-sigv4 with -u signs for the region and service curl signs for", async () => {
  await using server = rawServer();
  const args = ["--aws-sigv4", "aws:amz:eu-west-1:s3", "-u", "AKIDEXAMPLE:secret"];
  const url = `${server.origin}/bucket/key`;
  assert.equal((await curl(["-o", "/dev/null", ...args, url])).code, 0);
  const ours = await dial(["curl", "-o", "/dev/null", ...args, url]);
  assert.equal(ours.code, 0, ours.stderr);
  const scopes = server.requests.map((r) =>
    /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/([^/]+\/[^/]+)\/aws4_request/
      .exec(headerValues(r, "authorization").join())?.[1]
  );
  assert.deepEqual(scopes, ["eu-west-1/s3", "eu-west-1/s3"]);
});
