/**
 * The HTTP tab's response filter in Chromium, against Debian's python3-httpbin: a JSONPath shows
 * what `dial --filter` prints, an invalid one says why, nothing selected says "No match", an
 * empty box shows the body again; "Add as assertion" adds `??` lines that Ctrl+S writes into the
 * file, and `dial test` of the saved file passes (and fails once the file's value is wrong).
 */
import assert from "node:assert/strict";
import { fileBrowser, openApp, openRequest } from "./_browser.ts";
import { startHttpbin } from "../e2e/_httpbin.ts";
import { dial } from "../_helpers.ts";

const browser = fileBrowser();
/** httpbin answers with the query's arguments as JSON (a repeated one as a list). */
const URL_PATH = "/get?author=Yours%20Truly&tag=a&tag=b";

Deno.test("browser: the response filter shows the --filter result and adds passing ?? lines", async () => {
  await using httpbin = await startHttpbin();
  const workspace = await Deno.makeTempDir({ prefix: "dial-ui-filter-" });
  const path = `${workspace}/api.http`;
  try {
    await Deno.writeTextFile(
      path,
      `### tags\n# @name tags\nGET ${httpbin.origin}${URL_PATH}\n`,
    );
    await using app = await openApp(browser(), { workspace });
    const { page } = app;
    await openRequest(page, "api.http", "GET tags");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.getByTestId("status").filter({ hasText: "200" }).waitFor();
    const filter = page.getByLabel("Filter (JSONPath)");
    const result = page.getByLabel("Filter result");

    const tags = "$.args.tag[*]";
    await filter.fill(tags);
    await result.waitFor();
    const cli = await dial(["GET", `${httpbin.origin}${URL_PATH}`, "--filter", tags], {
      process: true,
    });
    assert.equal(cli.code, 0, cli.stderr);
    assert.equal(await result.textContent(), cli.stdout.trimEnd());
    assert.equal(cli.stdout, '"a"\n"b"\n');

    await filter.fill("$.args[");
    await page.getByRole("alert").filter({ hasText: 'Invalid JSONPath "$.args["' }).waitFor();
    assert.equal(await page.getByRole("button", { name: "Add as assertion" }).count(), 0);
    await filter.fill("$.args.missing");
    await page.getByRole("status").filter({ hasText: "No match" }).waitFor();
    await filter.fill("");
    await page.getByLabel("Response body").getByText('"Yours Truly"').waitFor();

    await filter.fill("$.args.author");
    await result.filter({ hasText: '"Yours Truly"' }).waitFor();
    await page.getByRole("button", { name: "Add as assertion" }).click();
    await page.getByRole("status").filter({ hasText: "?? $.args.author == Yours Truly" })
      .waitFor();
    await page.locator(".request-tab-name", { hasText: "tags •" }).waitFor();
    await filter.fill("$.args.tag[*]");
    await result.filter({ hasText: '"b"' }).waitFor();
    await page.getByRole("button", { name: "Add as assertion" }).click();

    await filter.focus();
    await page.keyboard.press("Control+s");
    await page.getByText("Saved to api.http").waitFor();
    await page.locator(".request-tab-name", { hasText: "tags" }).filter({ hasNotText: "•" })
      .waitFor();
    const saved = await Deno.readTextFile(path);
    assert.equal(
      saved,
      `### tags\n# @name tags\nGET ${httpbin.origin}${URL_PATH}\n` +
        `?? $.args.author == Yours Truly\n?? $.args.tag[*] == ["a","b"]\n`,
    );

    const run = await dial(["test", "api.http"], { cwd: workspace });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout + run.stderr, /\$\.args\.author == Yours Truly/);
    // The lines are real checks: a wrong value in the file fails the run.
    await Deno.writeTextFile(path, saved.replace("Yours Truly", "Somebody Else"));
    const wrong = await dial(["test", "api.http"], { cwd: workspace });
    assert.notEqual(wrong.code, 0, wrong.stdout + wrong.stderr);
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});
