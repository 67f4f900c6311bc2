import assert from "node:assert/strict";
import { serve, waitFor } from "../_helpers.ts";
import { fileBrowser, openApp } from "./_browser.ts";

const browser = fileBrowser();

/** What a request carried, as the server saw it. */
async function seen(request: Request) {
  const url = new URL(request.url);
  return {
    method: request.method,
    target: `${url.pathname}${url.search}`,
    authorization: request.headers.get("authorization"),
    contentType: request.headers.get("content-type"),
    custom: request.headers.get("x-custom"),
    body: await request.text(),
  };
}

Deno.test("browser: a pasted curl command sends what curl itself sends", async () => {
  await using target = serve(() => Response.json({ ok: true }));
  const commands = [
    `curl -X PUT '${target.origin}/items/7?x=1' \\\n  -H 'X-Custom: a b' -u ann:s3cret --json '{"name": "ann"}'`,
    `curl ${target.origin}/search -G --data-urlencode 'q=two words' -d page=2 --oauth2-bearer tok-1`,
    `$ curl -d 'a=1&b=2' ${target.origin}/form -H "X-Custom: form"`,
    `curl ${target.origin}/json -H 'Content-Type: application/json' -d '{"n": 1}'`,
  ];
  /** The body type each paste shows: a JSON Content-Type makes it JSON without --json. */
  const kinds = ["json", "none", "text", "json"];
  await using app = await openApp(browser());
  const { page } = app;
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  for (const command of commands) {
    // curl first, on the same server.
    const args = command.replace(/^\$ /, "").replace(/\\\n/g, " ");
    const run = await new Deno.Command("sh", {
      args: ["-c", `${args} -s -o /dev/null`],
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin" },
      clearEnv: true,
    }).output();
    assert.ok(run.success, new TextDecoder().decode(run.stderr));
    const byCurl = await seen(target.requests.at(-1)!);
    // Then the paste into the URL field, and Send.
    await page.evaluate(`navigator.clipboard.writeText(${JSON.stringify(command)})`);
    const url = page.getByLabel("URL", { exact: true });
    await url.fill("");
    await url.focus();
    await page.keyboard.press("Control+V");
    await page.getByRole("status").filter({ hasText: "Pasted a curl command" }).waitFor();
    // That note may be the paste before's: the emptied URL fills when this one is read.
    await waitFor(async () => await url.inputValue() !== "", { message: "the paste read" });
    assert.equal(
      await page.getByRole("tabpanel", { name: "HTTP" }).getByLabel("Body type").inputValue(),
      kinds[commands.indexOf(command)],
      command,
    );
    const before = target.requests.length;
    await page.getByRole("button", { name: "Send", exact: true }).click();
    // The status line may still show the previous command's 200: wait for the server instead.
    await waitFor(() => target.requests.length > before, {
      message: () => `no request after Send of ${command}`,
    });
    await page.getByTestId("status").filter({ hasText: "200" }).waitFor();
    assert.equal(target.requests.length, before + 1);
    const byDial = await seen(target.requests.at(-1)!);
    assert.deepEqual(byDial, byCurl, command);
  }
});
