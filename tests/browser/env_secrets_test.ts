import assert from "node:assert/strict";
import { serve } from "../_helpers.ts";
import { fileBrowser, openApp, openRequest } from "./_browser.ts";

const browser = fileBrowser();

async function git(dir: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    args: ["-C", dir, "-c", "user.email=t@example.test", "-c", "user.name=t", ...args],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
}

/** Every file of the workspace's `.dial/` folder (the drafts were saved there), as text. */
async function dialFolder(dir: string): Promise<string> {
  let text = "";
  for await (const entry of Deno.readDir(`${dir}/.dial`)) {
    if (entry.isFile) text += await Deno.readTextFile(`${dir}/.dial/${entry.name}`);
  }
  return text;
}

Deno.test("browser: secrets entered in the UI go to the private env file only", async (t) => {
  await using target = serve((r) => Response.json({ auth: r.headers.get("authorization") }));
  const setup = async () => {
    const dir = await Deno.makeTempDir({ prefix: "dial-ui-secret-" });
    const publicText = JSON.stringify({ dev: { base: target.origin } }, null, 2);
    await Deno.writeTextFile(`${dir}/http-client.env.json`, publicText);
    await Deno.writeTextFile(
      `${dir}/api.http`,
      "### me\nGET {{base}}/me\nAuthorization: Bearer {{token}}\n",
    );
    await git(dir, "init", "-q");
    await Deno.writeTextFile(`${dir}/.gitignore`, "http-client.private.env.json\n.dial/\n");
    await git(dir, "add", ".");
    await git(dir, "commit", "-qm", "start");
    return { dir, publicText };
  };

  await t.step(
    "a value: saved 0600 in the private file, sent, never in storage or .dial/",
    async () => {
      const { dir, publicText } = await setup();
      try {
        await using app = await openApp(browser(), { workspace: dir });
        const { page } = app;
        await openRequest(page, "api.http", "GET me", "dev");
        const line = page.getByLabel("Variables", { exact: true });
        await line.getByText("{{token}} is undefined in dev").waitFor();
        await line.getByRole("button", { name: "Set token" }).click();
        const form = page.getByRole("region", { name: "Set a secret" });
        assert.equal(await form.getByLabel("Variable").inputValue(), "token");
        await form.getByLabel("Secret value").fill("s3cr3t-v1");
        await form.getByRole("button", { name: "Save to private env file" }).click();
        await form.getByRole("status").filter({
          hasText: "Saved {{token}} to http-client.private.env.json",
        })
          .waitFor();
        await line.getByText("{{token}} = (private)").waitFor();
        assert.equal(
          await form.getByLabel("Secret value").inputValue(),
          "",
          "the field is emptied",
        );
        await page.getByRole("button", { name: "Send", exact: true }).click();
        await page.getByLabel("Response body").getByText("Bearer s3cr3t-v1").waitFor();
        const privatePath = `${dir}/http-client.private.env.json`;
        assert.deepEqual(JSON.parse(await Deno.readTextFile(privatePath)), {
          dev: { token: "s3cr3t-v1" },
        });
        assert.equal((await Deno.stat(privatePath)).mode! & 0o777, 0o600);
        assert.equal(await Deno.readTextFile(`${dir}/http-client.env.json`), publicText);
        // Wait for the drafts to be written, then look everywhere the page keeps things.
        await page.locator('html[data-drafts="saved"]').waitFor({ state: "attached" });
        const stored = String(await page.evaluate("JSON.stringify(localStorage)"));
        assert.ok(!stored.includes("s3cr3t"), "not in browser storage");
        assert.ok(!(await dialFolder(dir)).includes("s3cr3t"), "not in .dial/");
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    },
  );

  await t.step(
    "references: @env:NAME of dial ui's environment and @path inside the workspace",
    async () => {
      const { dir } = await setup();
      try {
        await Deno.mkdir(`${dir}/secrets`);
        await Deno.writeTextFile(`${dir}/secrets/token.txt`, "from-file\n");
        await using app = await openApp(browser(), {
          workspace: dir,
          transport: { env: (name) => name === "API_TOKEN" ? "from-env" : undefined },
        });
        const { page } = app;
        await openRequest(page, "api.http", "GET me", "dev");
        await page.getByRole("button", { name: "Set a secret" }).click();
        const form = page.getByRole("region", { name: "Set a secret" });
        await form.getByLabel("Variable").fill("token");
        await form.getByLabel("Kept as").selectOption("env");
        await form.getByLabel("Variable name").fill("API_TOKEN");
        await form.getByRole("button", { name: "Save to private env file" }).click();
        await form.getByRole("status").filter({ hasText: "Saved" }).waitFor();
        const privatePath = `${dir}/http-client.private.env.json`;
        assert.deepEqual(JSON.parse(await Deno.readTextFile(privatePath)).dev, {
          token: "@env:API_TOKEN",
        });
        const send = page.getByRole("button", { name: "Send", exact: true });
        await send.click();
        await page.getByLabel("Response body").getByText("Bearer from-env").waitFor();
        await form.getByLabel("Kept as").selectOption("path");
        await form.getByLabel("File path").fill("../outside.txt");
        await form.getByRole("button", { name: "Save to private env file" }).click();
        await form.getByRole("alert").filter({ hasText: "outside the workspace" }).waitFor();
        await form.getByLabel("File path").fill("secrets/token.txt");
        await form.getByRole("button", { name: "Save to private env file" }).click();
        await form.getByRole("status").filter({ hasText: "Saved" }).waitFor();
        await send.click();
        await page.getByLabel("Response body").getByText("Bearer from-file").waitFor();
        // A command reference written by hand is refused in the UI: the page must not run commands.
        await Deno.writeTextFile(privatePath, JSON.stringify({ dev: { token: "@exec:echo hi" } }));
        await send.click();
        await page.getByRole("alert").filter({ hasText: "the UI resolves @env: and @file only" })
          .waitFor();
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    },
  );

  await t.step(
    "a private file tracked by git is refused: the secret would be committed",
    async () => {
      const { dir } = await setup();
      try {
        await Deno.writeTextFile(`${dir}/http-client.private.env.json`, "{}\n");
        await git(dir, "add", "-f", "http-client.private.env.json");
        await using app = await openApp(browser(), { workspace: dir });
        const { page } = app;
        await openRequest(page, "api.http", "GET me", "dev");
        await page.getByRole("button", { name: "Set a secret" }).click();
        const form = page.getByRole("region", { name: "Set a secret" });
        await form.getByLabel("Variable").fill("token");
        await form.getByLabel("Secret value").fill("s3cr3t-v2");
        await form.getByRole("button", { name: "Save to private env file" }).click();
        await form.getByRole("alert").filter({ hasText: "is tracked by git" }).waitFor();
        assert.equal(await Deno.readTextFile(`${dir}/http-client.private.env.json`), "{}\n");
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    },
  );
});
