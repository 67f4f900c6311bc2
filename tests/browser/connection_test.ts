import assert from "node:assert/strict";
import { dial, serve } from "../_helpers.ts";
import { fileBrowser, openApp, uiConfigDir } from "./_browser.ts";
import { makeCertificates, serveTls, startProxy } from "../e2e/_tls.ts";
import type { Page } from "playwright-core";

const browser = fileBrowser();

const certs = await makeCertificates();

/** A workspace holding copies of the test CA, client certificate and key under `certs/`. */
async function workspace(): Promise<{ dir: string } & AsyncDisposable> {
  const base = await Deno.makeTempDir({ prefix: "dial-ui-conn-" });
  const dir = `${base}/ws`;
  await Deno.mkdir(`${dir}/certs`, { recursive: true });
  await Deno.copyFile(certs.ca, `${dir}/certs/ca.pem`);
  // Outside the workspace, and a link to it from inside: neither may be read.
  await Deno.copyFile(certs.ca, `${base}/outside.pem`);
  await Deno.symlink(`${base}/outside.pem`, `${dir}/certs/link.pem`);
  return { dir, [Symbol.asyncDispose]: () => Deno.remove(base, { recursive: true }) };
}

async function sendTo(page: Page, url: string): Promise<void> {
  await page.getByLabel("URL", { exact: true }).fill(url);
  await page.getByRole("button", { name: "Send", exact: true }).click();
}

async function saveConnection(page: Page, fields: Record<string, string>): Promise<void> {
  const panel = page.getByRole("region", { name: "TLS and proxy settings" });
  for (const [label, value] of Object.entries(fields)) {
    await panel.getByLabel(label, { exact: true }).fill(value);
  }
  await panel.getByRole("button", { name: "Save connection settings" }).click();
}

Deno.test("browser: the workspace's TLS and proxy settings (CA, insecure, proxy) go through the CLI's transport", async (t) => {
  const tls = serveTls(
    certs.leaf,
    certs.leafKey,
    (r) => Response.json({ path: new URL(r.url).pathname }),
  );
  await using plain = serve((r) => Response.json({ path: new URL(r.url).pathname }));
  const origin = `https://localhost:${tls.addr.port}`;
  try {
    await t.step(
      "a CA file trusts a private CA as dial --cacert does, and survives a restart",
      async () => {
        await using ws = await workspace();
        {
          await using app = await openApp(browser(), { workspace: ws.dir });
          const { page } = app;
          await sendTo(page, `${origin}/a`);
          const alert = page.getByRole("alert").filter({
            hasText: "Cannot verify the TLS certificate",
          });
          await alert.filter({ hasText: "unknown issuer" }).waitFor();
          await alert.filter({ hasText: "add its CA as a CA file in TLS and proxy settings" })
            .waitFor();
          await page.getByRole("button", { name: "TLS and proxy", exact: true }).click();
          const panel = page.getByRole("region", { name: "TLS and proxy settings" });
          // Files outside the workspace, directly or through a link, are refused.
          await saveConnection(page, { "CA files": "../outside.pem" });
          await panel.getByRole("alert").filter({ hasText: "outside the workspace" }).waitFor();
          await saveConnection(page, { "CA files": "certs/link.pem" });
          await panel.getByRole("alert").filter({ hasText: "outside the workspace" }).waitFor();
          await saveConnection(page, { "CA files": "certs/ca.pem" });
          await panel.getByRole("status").filter({ hasText: "Saved" }).waitFor();
          await panel.getByText("dial --cacert certs/ca.pem").waitFor();
          await page.getByRole("button", { name: "Send", exact: true }).click();
          await page.getByTestId("status").filter({ hasText: "200" }).waitFor();
          await page.getByLabel("Response body").getByText('"/a"').waitFor();
        }
        // The same flags on the command line, from the workspace, give the same answer.
        const cli = await dial([`${origin}/a`, "--cacert", `${ws.dir}/certs/ca.pem`]);
        assert.equal(cli.code, 0, cli.stderr);
        assert.deepEqual(JSON.parse(cli.stdout), { path: "/a" });
        // Kept in the person's config, not the workspace: paths only, no certificate text,
        // owner-only, under the workspace's real path.
        const real = await Deno.realPath(ws.dir);
        const files = await Array.fromAsync(Deno.readDir(`${uiConfigDir()}/workspaces`));
        const mine = [];
        for (const file of files) {
          const path = `${uiConfigDir()}/workspaces/${file.name}`;
          const json = JSON.parse(await Deno.readTextFile(path));
          if (json.folder === real) mine.push({ path, json });
        }
        assert.equal(mine.length, 1);
        assert.deepEqual(mine[0]!.json.settings, { cacert: ["certs/ca.pem"] });
        assert.equal((await Deno.stat(mine[0]!.path)).mode! & 0o777, 0o600);
        assert.equal(await Deno.lstat(`${ws.dir}/.dial/connection.json`).catch(() => null), null);
        // A restart on another port uses them at once.
        await using again = await openApp(browser(), { workspace: ws.dir });
        await sendTo(again.page, `${origin}/b`);
        await again.page.getByLabel("Response body").getByText('"/b"').waitFor();
        const stored = String(await again.page.evaluate("JSON.stringify(localStorage)"));
        assert.ok(!stored.includes("ca.pem"), "nothing of the settings in browser storage");
      },
    );

    await t.step("Skip certificate checks works and warns at the top while it is on", async () => {
      await using ws = await workspace();
      await using app = await openApp(browser(), { workspace: ws.dir });
      const { page } = app;
      const warning = page.getByRole("alert").filter({
        hasText: "TLS certificates are not verified (insecure)",
      });
      assert.equal(await warning.count(), 0);
      await page.getByRole("button", { name: "TLS and proxy", exact: true }).click();
      const panel = page.getByRole("region", { name: "TLS and proxy settings" });
      await panel.getByLabel("Skip certificate checks (insecure)").check();
      await panel.getByRole("button", { name: "Save connection settings" }).click();
      await warning.waitFor();
      await panel.getByText("dial -k").waitFor();
      await sendTo(page, `${origin}/k`);
      await page.getByLabel("Response body").getByText('"/k"').waitFor();
      await panel.getByLabel("Skip certificate checks (insecure)").uncheck();
      await panel.getByRole("button", { name: "Save connection settings" }).click();
      await warning.waitFor({ state: "detached" });
      await page.getByRole("button", { name: "Send", exact: true }).click();
      await page.getByRole("alert").filter({ hasText: "Cannot verify the TLS certificate" })
        .waitFor();
    });

    await t.step(
      "a proxy tunnels HTTPS and forwards HTTP; No proxy bypasses it; no credentials kept",
      async () => {
        await using ws = await workspace();
        const proxy = startProxy();
        try {
          await using app = await openApp(browser(), { workspace: ws.dir });
          const { page } = app;
          await page.getByRole("button", { name: "TLS and proxy", exact: true }).click();
          const panel = page.getByRole("region", { name: "TLS and proxy settings" });
          await saveConnection(page, { "Proxy": "http://user:pw@127.0.0.1:1" });
          await panel.getByRole("alert").filter({ hasText: "not kept in the workspace" }).waitFor();
          await saveConnection(page, {
            "Proxy": `http://127.0.0.1:${proxy.port}`,
            "CA files": "certs/ca.pem",
          });
          await panel.getByRole("status").filter({ hasText: "Saved" }).waitFor();
          await sendTo(page, `${origin}/tunnel`);
          await page.getByLabel("Response body").getByText('"/tunnel"').waitFor();
          await sendTo(page, `${plain.origin}/forward`);
          await page.getByLabel("Response body").getByText('"/forward"').waitFor();
          assert.deepEqual(proxy.log, [
            `CONNECT localhost:${tls.addr.port} HTTP/1.1`,
            `GET ${plain.origin}/forward HTTP/1.1`,
          ]);
          // dial with the same flags takes the same route.
          const cli = await dial(
            [
              `${origin}/tunnel`,
              "--proxy",
              `http://127.0.0.1:${proxy.port}`,
              "--cacert",
              `${ws.dir}/certs/ca.pem`,
            ],
          );
          assert.equal(cli.code, 0, cli.stderr);
          assert.equal(proxy.log.at(-1), `CONNECT localhost:${tls.addr.port} HTTP/1.1`);
          const before = proxy.log.length;
          await saveConnection(page, { "No proxy": "127.0.0.1" });
          await panel.getByRole("status").filter({ hasText: "Saved" }).waitFor();
          await sendTo(page, `${plain.origin}/direct`);
          await page.getByLabel("Response body").getByText('"/direct"').waitFor();
          assert.equal(proxy.log.length, before, "bypassed the proxy");
        } finally {
          await proxy.close();
        }
      },
    );
  } finally {
    await tls.shutdown();
  }
});

globalThis.addEventListener("unload", () => Deno.removeSync(certs.dir, { recursive: true }));
