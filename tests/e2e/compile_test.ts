/**
 * `deno task compile` (scripts/compile.ts) end to end: it compiles the self-contained build,
 * and the binary holds every chunk and the UI bundle. The Deno runtime a binary is made of
 * (`denort`) cannot be downloaded here, so DENORT_BIN names a stand-in executable of this
 * platform: the binary is written (the stand-in plus dial's files) but cannot run as dial.
 */
import assert from "node:assert/strict";
import { builtCli } from "./_built.ts";
import { unusedPort } from "../_ports.ts";

const SCRIPT = new URL("../../scripts/compile.ts", import.meta.url).pathname;
/** The target this machine's executables are built for. */
const HOST_TARGET = Deno.build.arch === "aarch64" ? "linux-arm64" : "linux-x64";

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
  // An empty Deno cache (no runtimes) and a proxy that refuses every connection: the download
  // fails here whether or not this machine has network. The build needs nothing from the cache.
  const { dir } = await builtCli();
  const denoDir = await Deno.makeTempDir({ prefix: "dial-compile-" });
  const proxy = `http://127.0.0.1:${unusedPort()}`;
  const outDir = await Deno.makeTempDir();
  try {
    const result = await compile(
      ["--target", "macos-arm64", "--out-dir", outDir, "--build", dir],
      { DENO_DIR: denoDir, HTTPS_PROXY: proxy, HTTP_PROXY: proxy, DENORT_BIN: "" },
    );
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
  const result = await compile(["--target", "linux-x64"], {
    DENORT_BIN: "/nonexistent/denort",
  });
  assert.equal(result.code, 1);
  assert.equal(
    result.stderr,
    'error: Cannot find DENORT_BIN "/nonexistent/denort": no such file\nhint: set DENORT_BIN to an unzipped denort binary, or unset it to download\n',
  );
});

Deno.test("compile: the binary embeds every chunk of the build and the UI bundle", async () => {
  const { dir, files } = await builtCli();
  const outDir = await Deno.makeTempDir({ prefix: "dial-compiled-" });
  try {
    // A stand-in runtime: any executable of this platform (deno compile appends dial's files).
    const runtime = `${outDir}/denort`;
    await Deno.copyFile("/usr/bin/true", runtime);
    const result = await compile(["--target", HOST_TARGET, "--out-dir", outDir, "--build", dir], {
      DENORT_BIN: runtime,
      NO_COLOR: "1",
    });
    assert.equal(result.code, 0, result.stderr);
    // deno compile's listing: each chunk by name, the UI bundle's folder with its size.
    const listing = result.stderr.slice(result.stderr.indexOf("Embedded Files"));
    const chunks = files.filter((f) => !f.startsWith("web/"));
    // The entry, and the lazily loaded commands as chunks of their own.
    assert.ok(chunks.includes("dial.js"), chunks.join(" "));
    assert.ok(chunks.some((c) => /^graphql_run-.+\.js$/.test(c)), chunks.join(" "));
    for (const chunk of chunks) {
      assert.match(listing, new RegExp(`── ${chunk.replace(".", "\\.")} \\(`));
    }
    let uiBytes = 0;
    for (const file of files.filter((f) => f.startsWith("web/"))) {
      uiBytes += (await Deno.stat(`${dir}/${file}`)).size;
    }
    const [, size, unit] = /── web\/\* \(([\d.]+)(B|KB|MB)\)/.exec(listing) ?? [];
    assert.ok(size && unit, listing);
    const listed = Number(size) * { B: 1, KB: 1024, MB: 1024 * 1024 }[unit as "B"];
    assert.ok(Math.abs(listed - uiBytes) < uiBytes / 100, `${size}${unit} listed, ${uiBytes} B`);
    // …and the binary holds each file's bytes.
    const latin1 = (bytes: Uint8Array) => new TextDecoder("latin1").decode(bytes);
    const binary = latin1(await Deno.readFile(`${outDir}/dial-${HOST_TARGET}`));
    const missing: string[] = [];
    for (const file of files) {
      if (!binary.includes(latin1(await Deno.readFile(`${dir}/${file}`)))) missing.push(file);
    }
    assert.deepEqual(missing, []);
  } finally {
    await Deno.remove(outDir, { recursive: true });
  }
});
