import assert from "node:assert/strict";

const SCRIPT = new URL("../../scripts/compile.ts", import.meta.url).pathname;
const DENO_DIR = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;

async function compile(args: string[], env: Record<string, string>) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", SCRIPT, ...args],
    stdout: "piped",
    stderr: "piped",
    env,
  }).output();
  return { code: output.code, stderr: new TextDecoder().decode(output.stderr) };
}

Deno.test("compile: fails clearly when the target's runtime cannot be downloaded", async () => {
  // A Deno cache without downloaded runtimes (npm packages shared) and a proxy that refuses
  // every connection: the download fails here whether or not this machine has network.
  const denoDir = await Deno.makeTempDir({ prefix: "dial-compile-" });
  await Deno.symlink(`${DENO_DIR}/npm`, `${denoDir}/npm`);
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const proxy = `http://127.0.0.1:${listener.addr.port}`;
  listener.close();
  const outDir = await Deno.makeTempDir();
  try {
    const result = await compile(["--target", "macos-arm64", "--out-dir", outDir, "--no-bundle"], {
      DENO_DIR: denoDir,
      HTTPS_PROXY: proxy,
      HTTP_PROXY: proxy,
      DENORT_BIN: "",
    });
    assert.equal(result.code, 1, result.stderr);
    assert.match(
      result.stderr,
      /^Compiling .*dial-macos-arm64 \(aarch64-apple-darwin\)\nerror: Cannot get the Deno runtime \(denort\) for macos-arm64: .*[Cc]onnection refused.*\nhint: deno compile downloads denort-aarch64-apple-darwin\.zip .* DENORT_BIN=\/path\/to\/denort deno task compile --target macos-arm64\n$/,
    );
    assert.deepEqual([...Deno.readDirSync(outDir)], []);
  } finally {
    await Deno.remove(denoDir, { recursive: true });
    await Deno.remove(outDir, { recursive: true });
  }
});

Deno.test("compile: a missing DENORT_BIN fails before anything is built", async () => {
  const result = await compile(["--target", "linux-x64", "--no-bundle"], {
    DENORT_BIN: "/nonexistent/denort",
  });
  assert.equal(result.code, 1);
  assert.equal(
    result.stderr,
    'error: Cannot find DENORT_BIN "/nonexistent/denort": no such file\nhint: set DENORT_BIN to an unzipped denort binary, or unset it to download\n',
  );
});
