import assert from "node:assert/strict";

// Canary for src/files/script_sandbox.ts: request-file scripts run in QuickJS because a Worker
// with `deno: { permissions: "none" }` still needs --unstable-worker-options. When this test
// fails, Deno has made the option stable: the sandbox can become a permission-less Worker.
Deno.test('canary: a Worker with permissions "none" still needs --unstable-worker-options', async () => {
  const code = `
    const worker = new Worker("data:text/javascript,self.postMessage(1)", {
      type: "module",
      deno: { permissions: "none" },
    });
    worker.onmessage = () => { worker.terminate(); };
  `;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-config", code],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.notEqual(output.code, 0, "Worker permissions work without the flag: switch the sandbox");
  assert.match(stderr, /--unstable-worker-options/);
});
