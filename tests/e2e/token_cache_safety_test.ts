/**
 * The token cache under trouble: special files in place of an entry, oversized entries, a
 * cache that cannot be written during a refresh, and a lock held by another process.
 */
import assert from "node:assert/strict";
import { includes } from "../assert.ts";
import { bearerApi, dial, expireCachedTokens } from "../_helpers.ts";
import { passwordGrant, startMockServer } from "./_oauth_servers.ts";

/** Primes a fresh HOME with one password-flow token; returns the entry path and the args. */
async function primed(tokenUrl: string, origin: string) {
  const home = await Deno.makeTempDir({ prefix: "dial-cache-home-" });
  const args = [
    `${origin}/me`,
    ...passwordGrant(tokenUrl),
  ];
  const first = await dial(args, { env: { HOME: home } });
  assert.equal(first.code, 0, first.stderr);
  const dir = `${home}/.cache/dial/oauth2`;
  const name = (await Array.fromAsync(Deno.readDir(dir))).find((i) => i.name.endsWith(".json"))!
    .name;
  return {
    home,
    args,
    dir,
    entry: `${dir}/${name}`,
    lock: `${dir}/${name.replace(/json$/, "lock")}`,
  };
}

Deno.test("token cache: an entry replaced by a FIFO, a link or a huge file is refused at once", async () => {
  await using mock = await startMockServer();
  await using target = bearerApi();
  const cases: Array<[string, (entry: string) => Promise<void>, string]> = [
    ["fifo", async (entry) => {
      await new Deno.Command("mkfifo", { args: [entry] }).output();
    }, "it is a FIFO, socket or device, not a regular file"],
    ["link", (entry) => Deno.symlink("/dev/zero", entry), "it is a symbolic link"],
    ["huge", (entry) => Deno.writeTextFile(entry, " ".repeat((1 << 20) + 1)), "larger than 1 MiB"],
  ];
  for (const [label, replace, message] of cases) {
    const { home, args, entry } = await primed(mock.tokenUrl, target.origin);
    await Deno.remove(entry);
    await replace(entry);
    const started = performance.now();
    const result = await dial(args, { env: { HOME: home } });
    assert.equal(result.code, 1, `${label}: ${result.stderr}`);
    includes(result.stderr, `Refusing the token cache file ${entry}: ${message}`);
    assert.equal(performance.now() - started < 10_000, true, label);
  }
  assert.equal(target.requests.length, 3);
});

/** Makes a directory unwritable, even for root (chattr +i), and returns the undo. */
async function freeze(dir: string): Promise<() => Promise<void>> {
  if (Deno.uid() === 0) {
    const done = await new Deno.Command("chattr", { args: ["+i", dir] }).output();
    if (!done.success) throw new Error("chattr +i failed");
    return async () => void await new Deno.Command("chattr", { args: ["-i", dir] }).output();
  }
  await Deno.chmod(dir, 0o500);
  return () => Deno.chmod(dir, 0o700);
}

Deno.test("token cache: a refreshed token that cannot be saved is reported with the path; exit 1 after the request", async () => {
  await using mock = await startMockServer();
  await using target = bearerApi();
  const { home, args, dir, entry } = await primed(mock.tokenUrl, target.origin);
  assert.equal(await expireCachedTokens(home), 1);
  const thaw = await freeze(dir);
  try {
    const result = await dial(args, { env: { HOME: home } });
    assert.equal(result.code, 1, result.stderr);
    includes(result.stderr, `Cannot write the token cache file ${entry}:`);
    includes(result.stderr, "not permitted");
    includes(result.stderr, "spent refresh token");
    assert.equal(result.stdout.trim(), '{"ok":true}');
  } finally {
    await thaw();
  }
  assert.deepEqual(mock.tokenRequests.map((r) => r.body.get("grant_type")), [
    "password",
    "refresh_token",
  ]);
  assert.equal(target.requests.length, 2);
});

Deno.test("token cache: --timeout bounds the wait for another process's lock, which is announced once", async () => {
  await using mock = await startMockServer();
  await using target = bearerApi();
  const { home, args, lock } = await primed(mock.tokenUrl, target.origin);
  assert.equal(await expireCachedTokens(home), 1);
  using held = await Deno.open(lock, { write: true });
  await held.lock(true);
  const started = performance.now();
  const result = await dial([...args, "--timeout", "1"], { env: { HOME: home } });
  const elapsed = performance.now() - started;
  await held.unlock();
  assert.equal(result.code, 8, result.stderr);
  const waits = result.stderr.split("Waiting for another dial process").length - 1;
  assert.equal(waits, 1, result.stderr);
  includes(
    result.stderr,
    "error: Timed out waiting for another dial process to finish getting an OAuth 2.0 token",
  );
  assert.equal(elapsed < 8_000, true, `took ${elapsed} ms`);
  assert.equal(target.requests.length, 1);
});
