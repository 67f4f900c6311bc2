import assert from "node:assert/strict";
import {
  checkDenortBin,
  compileArgs,
  CompileError,
  compileFailure,
  outputPath,
  parseCompileArgs,
} from "../../scripts/compile.ts";

Deno.test("compile: all five targets by default, into dist/, from a new build", () => {
  assert.deepEqual(parseCompileArgs([]), {
    targets: ["linux-x64", "linux-arm64", "macos-x64", "macos-arm64", "windows-x64"],
    outDir: "dist",
  });
});

Deno.test("compile: --target takes friendly names or triples; --out-dir and --build", () => {
  assert.deepEqual(
    parseCompileArgs([
      "--target",
      "macos-arm64",
      "--target",
      "x86_64-pc-windows-msvc",
      "--out-dir",
      "build",
      "--build",
      "dist/cli/",
    ]),
    { targets: ["macos-arm64", "windows-x64"], outDir: "build", build: "dist/cli" },
  );
});

Deno.test("compile: an unknown target is a usage error naming the choices", () => {
  assert.throws(() => parseCompileArgs(["--target", "amiga"]), (error: unknown) => {
    assert.ok(error instanceof CompileError);
    assert.equal(error.message, 'Unknown target "amiga"');
    assert.equal(error.hint, "one of linux-x64, linux-arm64, macos-x64, macos-arm64, windows-x64");
    assert.equal(error.exitCode, 2);
    return true;
  });
  assert.throws(() => parseCompileArgs(["--target"]), /Missing value after --target/);
  assert.throws(() => parseCompileArgs(["--fast"]), /Unknown argument "--fast"/);
});

Deno.test("compile: deno compile arguments per target: the build, its whole folder embedded", () => {
  assert.deepEqual(compileArgs("windows-x64", { outDir: "dist", build: "dist/cli" }), [
    "compile",
    "--allow-all",
    "--no-config",
    "--v8-flags=--liftoff-only,--invocation-count-for-maglev=50,--minimum-invocations-after-ic-update=20",
    "--target",
    "x86_64-pc-windows-msvc",
    "--output",
    "dist/dial-windows-x64.exe",
    "--include",
    "dist/cli",
    "dist/cli/dial.js",
  ]);
  assert.equal(outputPath("macos-x64", "dist"), "dist/dial-macos-x64");
});

const OFFLINE = `\x1b[0m\x1b[32mCompile\x1b[0m main.ts to dist/dial-macos-arm64
Download https://example.invalid/release/v2.9.6/denort-aarch64-apple-darwin.zip
error: Writing deno compile executable to temporary file 'dist/dial-macos-arm64.tmp-1'

Caused by:
    0: Setting up base binary.
    1: error sending request for url: client error (Connect): dns error
    2: failed to lookup address information: Name or service not known

Stack backtrace:
   0: <unknown>
`;

Deno.test("compile: a runtime that cannot be downloaded is explained with what to do", () => {
  const error = compileFailure("macos-arm64", OFFLINE);
  assert.equal(
    error.message,
    "Cannot get the Deno runtime (denort) for macos-arm64: failed to lookup address information: Name or service not known",
  );
  assert.match(error.hint ?? "", /denort-aarch64-apple-darwin\.zip/);
  assert.match(
    error.hint ?? "",
    /DENORT_BIN=\/path\/to\/denort deno task compile --target macos-arm64/,
  );
});

Deno.test("compile: a bad DENORT_BIN is named; other failures keep deno's cause", () => {
  const bad = compileFailure(
    "linux-x64",
    "error: Writing deno compile executable\n\nCaused by:\n    0: Could not find denort at '/x'\n    1: Is a directory (os error 21)\n",
    "/x",
  );
  assert.equal(
    bad.message,
    'Cannot use DENORT_BIN "/x" for linux-x64: Is a directory (os error 21)',
  );
  const other = compileFailure("linux-x64", 'error: Module not found "file:///main.ts".\n');
  assert.equal(
    other.message,
    'deno compile failed for linux-x64: error: Module not found "file:///main.ts".',
  );
});

Deno.test("compile: DENORT_BIN must exist and serve exactly one target", async () => {
  const one = parseCompileArgs(["--target", "linux-x64"]);
  await assert.rejects(checkDenortBin(parseCompileArgs([]), Deno.execPath()), {
    message: "DENORT_BIN names one runtime, but several targets were asked for",
  });
  await assert.rejects(checkDenortBin(one, "/nonexistent/denort"), {
    message: 'Cannot find DENORT_BIN "/nonexistent/denort": no such file',
  });
  await assert.rejects(checkDenortBin(one, "/"), { message: 'DENORT_BIN "/" is not a file' });
  await checkDenortBin(one, Deno.execPath());
});
