/**
 * Another user on the same machine: cannot read an `-o` download while it is written, cannot
 * plant a token in the cache dial uses, and gets nothing from a missing HOME. The tests that
 * need a second Unix user create one with useradd when the tests run as root.
 */
import assert from "node:assert/strict";
import { dial, dialEnv, serve } from "../_helpers.ts";
import { installed, runProgram } from "../_process.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const OTHER = "dialother";

/** Whether a second user can be made and used here (root, useradd and runuser present). */
const canSwitchUser = Deno.build.os === "linux" && Deno.uid() === 0 &&
  installed("/usr/sbin/useradd", "/usr/sbin/runuser");
const SKIPPED = canSwitchUser ? "" : " (skipped: creating a second user needs root and useradd)";

/** Creates the second user once (no home, no login shell). */
async function otherUser(): Promise<void> {
  if ((await runProgram("/usr/bin/id", ["-u", OTHER])).code === 0) return;
  const made = await runProgram("/usr/sbin/useradd", ["--system", "--no-create-home", OTHER]);
  assert.ok(made.code === 0 || made.code === 9, made.stderr); // 9: made meanwhile
}

/**
 * A directory the second user can reach (`/tmp` may be private to root): proven by the other
 * user reading a 0644 file in it, so a refusal later is the file's mode, not the path's.
 */
async function sharedDir(mode: number): Promise<string> {
  const dir = await Deno.makeTempDir({ dir: "/var/tmp", prefix: "dial-users-" });
  await Deno.chmod(dir, mode);
  await Deno.writeTextFile(`${dir}/control.txt`, "readable\n");
  await Deno.chmod(`${dir}/control.txt`, 0o644);
  const control = await asOther(["/bin/cat", `${dir}/control.txt`]);
  assert.equal(control.stdout, "readable\n", control.stderr);
  await Deno.remove(`${dir}/control.txt`);
  return dir;
}

/** Runs a command as the second user. */
function asOther(args: string[], stdin?: string) {
  return runProgram(
    "/usr/sbin/runuser",
    ["-u", OTHER, "--", ...args],
    stdin === undefined ? {} : { stdin },
  );
}

/** Waits (on file system events, not a timer) until a `.dial-part` file holds some bytes. */
async function partialFile(dir: string): Promise<string> {
  const watcher = Deno.watchFs(dir);
  try {
    const found = async () => {
      for await (const entry of Deno.readDir(dir)) {
        if (!entry.name.endsWith(".dial-part")) continue;
        const path = `${dir}/${entry.name}`;
        if ((await Deno.stat(path)).size > 0) return path;
      }
      return undefined;
    };
    let path = await found();
    for await (const _event of watcher) {
      if (path) break;
      path = await found();
      if (path) break;
    }
    return path!;
  } finally {
    watcher.close();
  }
}

Deno.test(`users: another user cannot read an -o temporary over a 0600 file${SKIPPED}`, {
  ignore: !canSwitchUser,
}, async () => {
  await otherUser();
  const { promise: released, resolve: release } = Promise.withResolvers<void>();
  await using server = serve(() =>
    new Response(
      new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode("secret part one\n"));
          await released;
          controller.enqueue(new TextEncoder().encode("secret part two\n"));
          controller.close();
        },
      }),
    )
  );
  const dir = await sharedDir(0o755);
  const target = `${dir}/private.txt`;
  await Deno.writeTextFile(target, "old\n", { mode: 0o600 });
  await Deno.chmod(target, 0o600);
  const running = dial(["GET", `${server.origin}/`, "-o", target]);
  try {
    const temp = await partialFile(dir);
    assert.equal((await Deno.stat(temp)).mode! & 0o777, 0o600);
    const peek = await asOther(["/bin/cat", temp]);
    assert.notEqual(peek.code, 0, "another user cannot read the partial file");
    assert.doesNotMatch(peek.stdout, /secret/);
  } finally {
    release();
  }
  const result = await running;
  assert.equal(result.code, 0, result.stderr);
  assert.equal(await Deno.readTextFile(target), "secret part one\nsecret part two\n");
  assert.equal((await Deno.stat(target)).mode! & 0o777, 0o600);
  await Deno.remove(dir, { recursive: true });
});

Deno.test(`users: a token planted by another user in the cache is refused, not used${SKIPPED}`, {
  ignore: !canSwitchUser,
}, async () => {
  await otherUser();
  await using server = serve(() =>
    Response.json({ access_token: "good-token", token_type: "Bearer", expires_in: 3600 })
  );
  const shared = await sharedDir(0o777);
  const env = { XDG_CACHE_HOME: `${shared}/cache` };
  const args = ["auth", "token", "--oauth2", `client_credentials:${server.origin}/token:app:s`];
  const first = await dial(args, { env });
  assert.equal(first.stdout, "good-token\n", first.stderr);
  const oauthDir = `${shared}/cache/dial/oauth2`;
  const [name] = (await Array.fromAsync(Deno.readDir(oauthDir)))
    .map((e) => e.name).filter((n) => n.endsWith(".json"));
  const planted = (await Deno.readTextFile(`${oauthDir}/${name}`)).replace(
    '"good-token"',
    '"evil-token"',
  );
  // The other user makes the cache directory first (the victim's is gone) and plants the entry.
  await Deno.remove(`${shared}/cache`, { recursive: true });
  const plant = await asOther(
    ["/bin/sh", "-c", `umask 000 && mkdir -p "${oauthDir}" && cat > "${oauthDir}/${name}"`],
    planted,
  );
  assert.equal(plant.code, 0, plant.stderr);
  const second = await dial(args, { env });
  assert.equal(second.code, 1, second.stderr);
  assert.doesNotMatch(second.stdout, /evil/);
  assert.match(
    second.stderr,
    /Refusing the token cache file .*: owned by another user \(uid \d+\)/,
  );
  await Deno.remove(shared, { recursive: true });
});

Deno.test("users: a cache file writable by others is refused", async () => {
  await using server = serve(() =>
    Response.json({ access_token: "good-token", token_type: "Bearer", expires_in: 3600 })
  );
  const home = await Deno.makeTempDir();
  const args = ["auth", "token", "--oauth2", `client_credentials:${server.origin}/token:app:s`];
  assert.equal((await dial(args, { env: { HOME: home } })).code, 0);
  const oauthDir = `${home}/.cache/dial/oauth2`;
  for await (const entry of Deno.readDir(oauthDir)) {
    if (entry.name.endsWith(".json")) await Deno.chmod(`${oauthDir}/${entry.name}`, 0o666);
  }
  const result = await dial(args, { env: { HOME: home } });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /Refusing the token cache file .*: writable by every user/);
  await Deno.remove(home, { recursive: true });
});

Deno.test("users: without HOME the token cache is not ./.cache: dial fails with a hint", async () => {
  const calls: string[] = [];
  await using server = serve((request) => {
    calls.push(new URL(request.url).pathname);
    return Response.json({ access_token: "fresh", token_type: "Bearer", expires_in: 3600 });
  });
  const cwd = await Deno.makeTempDir();
  // A token planted in the working directory, where the old fallback looked.
  await Deno.mkdir(`${cwd}/.cache/dial/oauth2`, { recursive: true });
  const env = dialEnv();
  for (const name of ["HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_RUNTIME_DIR"]) {
    delete env[name];
  }
  const child = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--quiet",
      MAIN,
      "auth",
      "token",
      "--oauth2",
      `client_credentials:${server.origin}/token:app:s`,
    ],
    cwd,
    clearEnv: true,
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(child.stderr);
  assert.equal(child.code, 1, stderr);
  assert.equal(new TextDecoder().decode(child.stdout), "");
  assert.match(stderr, /^error: Cannot find dial's cache directory: HOME is not set\n/);
  assert.match(stderr, /hint: set HOME \(or XDG_CACHE_HOME\)/);
  assert.deepEqual(calls, []);
  assert.deepEqual(await Array.fromAsync(Deno.readDir(`${cwd}/.cache/dial/oauth2`)), []);
  await Deno.remove(cwd, { recursive: true });
});
