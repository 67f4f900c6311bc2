import assert from "node:assert/strict";
import {
  Confinement,
  literalValue,
  Reference,
  whenResolved,
} from "../../../src/files/trust_rule.ts";

const place = (written: string) => ({ what: "the body file of t.http:1", written });

Deno.test("trust rule: paths resolve after symlinks; new files, dangling links and .. are judged by where they land", async () => {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "dial-trust-" }));
  try {
    await Deno.mkdir(`${base}/root/in`, { recursive: true });
    await Deno.mkdir(`${base}/other`);
    await Deno.writeTextFile(`${base}/root/in/a.txt`, "a");
    await Deno.writeTextFile(`${base}/other/b.txt`, "b");
    await Deno.symlink(`${base}/other`, `${base}/root/out`);
    await Deno.symlink(`${base}/root/in`, `${base}/root/alias`);
    await Deno.symlink(`${base}/nowhere`, `${base}/root/dangling`);
    const jail = await Confinement.of(`${base}/root`);
    assert.equal(
      await jail.reading(`${base}/root/alias/a.txt`, place("alias/a.txt")),
      `${base}/root/in/a.txt`,
    );
    // A file that does not exist yet, through a link inside, stays inside.
    assert.equal(
      await jail.writing(`${base}/root/alias/new.json`, place("x")),
      `${base}/root/in/new.json`,
    );
    for (
      const path of [
        `${base}/root/out/b.txt`,
        `${base}/root/out/new.txt`,
        `${base}/root/in/../../other/b.txt`,
        `${base}/root/dangling`,
        "/etc/hostname",
      ]
    ) {
      await assert.rejects(jail.writing(path, place(path)), /is outside the run's folder/, path);
    }
    // --allow-path widens it.
    const wide = await Confinement.of(`${base}/root`, [`${base}/other`]);
    assert.equal(
      await wide.reading(`${base}/root/out/b.txt`, place("out/b.txt")),
      `${base}/other/b.txt`,
    );
    await assert.rejects(Confinement.of(`${base}/root`, [`${base}/missing`]), /Cannot allow/);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("trust rule: a reference is read once, when asked for; a shared @exec: is refused without running", async () => {
  const reads: string[] = [];
  const policy = {
    read: (value: string) => {
      reads.push(value);
      return Promise.resolve(`value of ${value}`);
    },
  };
  const own = new Reference(
    "@exec:helper",
    { file: "p.json", key: "k", trust: "own", dir: "." },
    policy,
  );
  assert.deepEqual(reads, []);
  assert.equal(String(own), "(redacted)");
  assert.equal(await whenResolved(() => `${own.reveal()}!`), "value of @exec:helper!");
  assert.equal(await whenResolved(() => own.reveal()), "value of @exec:helper");
  assert.deepEqual(reads, ["@exec:helper"]);
  assert.throws(
    () =>
      new Reference("@exec:rm", { file: "e.json", key: "s", trust: "shared", dir: "." }, policy),
    /Refused "s" in e\.json: a shared file cannot run commands \(@exec:\)/,
  );
  const env = new Reference("@env:X", { file: "e.json", key: "x", trust: "shared", dir: "." }, {
    ...policy,
    sharedEnv: false,
  });
  await assert.rejects(env.resolve(), /read only from the private env file/);
  assert.deepEqual(reads, ["@exec:helper"]);
  assert.equal(literalValue("@exec:x"), "@@exec:x");
  assert.equal(literalValue("plain"), "plain");
});
