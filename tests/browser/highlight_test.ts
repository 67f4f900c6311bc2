import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { fileBrowser, openApp, pickBodyType, replaceEditorText } from "./_browser.ts";
import { setEditorText } from "./_gql_app.ts";

const browser = fileBrowser();

const DOCUMENT = `# the viewer
query Q($login: String!, $n: Int = 10) {
  user(login: $login) @include(if: true) {
    id
    ... on User { bio(size: 1.5, plain: false, note: "x", state: OPEN) }
  }
}
fragment F on Repository { name }`;

/** Every token of the query editor with its computed colour. */
async function tokenColours(page: Page): Promise<(text: string) => string | undefined> {
  await page.locator(".query-editor .cm-line span").first().waitFor();
  const colours: Array<[string, string]> = await page.evaluate(`
    [...document.querySelectorAll(".query-editor .cm-line span")]
      .map((s) => [s.textContent, getComputedStyle(s).color])
  `);
  return (text) => colours.find(([t]) => t === text)?.[1];
}

/** The WCAG contrast ratio of an element's text against its background. */
function contrastOf(page: Page, selector: string): Promise<number> {
  return page.evaluate(`(() => {
    const style = getComputedStyle(document.querySelector(${JSON.stringify(selector)}));
    const luminance = (css) => {
      const [r, g, b] = css.match(/[\\d.]+/g).slice(0, 3).map((v) => {
        const c = Number(v) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const [a, b] = [luminance(style.color), luminance(style.backgroundColor)]
      .sort((x, y) => y - x);
    return (a + 0.05) / (b + 0.05);
  })()`);
}

Deno.test("browser: editor colours and themes", async (t) => {
  await t.step("the query editor colours every GraphQL token kind", async () => {
    await using app = await openApp(browser());
    const { page } = app;
    await page.getByRole("tab", { name: "GraphQL" }).click();
    await setEditorText(page, "Query", DOCUMENT);
    const colourOf = await tokenColours(page);
    const plain = await page.evaluate(
      `getComputedStyle(document.querySelector(".query-editor .cm-content")).color`,
    );
    const expected: Array<[string, string, string]> = [
      ["query", "rgb(122, 62, 157)", "operation keyword"],
      ["fragment", "rgb(122, 62, 157)", "fragment keyword"],
      ["on", "rgb(122, 62, 157)", "on keyword"],
      ["String", "rgb(11, 110, 116)", "type name"],
      ["User", "rgb(11, 110, 116)", "type name after on"],
      ["# the viewer", "rgb(106, 115, 125)", "comment"],
      ['"x"', "rgb(163, 58, 18)", "string"],
      ["10", "rgb(28, 107, 72)", "integer"],
      ["1.5", "rgb(28, 107, 72)", "float"],
      ["false", "rgb(176, 48, 106)", "boolean"],
      ["OPEN", "rgb(176, 48, 106)", "enum value"],
      ["$login", "rgb(160, 48, 125)", "variable"],
      ["user", "rgb(31, 95, 168)", "field"],
      ["login", "rgb(138, 90, 0)", "argument"],
    ];
    for (const [text, colour, what] of expected) {
      assert.equal(colourOf(text), colour, `${what} "${text}"`);
      assert.notEqual(colourOf(text), plain, `${what} is coloured`);
    }
    assert.ok(colourOf("@include") === "rgb(46, 125, 50)" || colourOf("include"), "directive");
  });

  await t.step(
    "the dark scheme themes editors, and the primary button reads at 4.5:1",
    async () => {
      await using app = await openApp(browser(), {}, { colorScheme: "dark" });
      const { page } = app;
      await pickBodyType(page, "json");
      await replaceEditorText(page.getByLabel("Request body"), '{"a": true}');
      const [editorBg, gutterBg, keyColour] = await page.evaluate(`[
      getComputedStyle(document.querySelector(".body-editor .cm-editor")).backgroundColor,
      getComputedStyle(document.querySelector(".body-editor .cm-gutters")).backgroundColor,
      getComputedStyle([...document.querySelectorAll(".body-editor .cm-line span")]
        .find((s) => s.textContent === '"a"')).color,
    ]`) as string[];
      const dark = (css: string) => css.match(/\d+/g)!.slice(0, 3).every((v) => Number(v) < 60);
      assert.ok(dark(editorBg!), `editor background ${editorBg}`);
      assert.ok(dark(gutterBg!), `gutter background ${gutterBg}`);
      assert.equal(keyColour, "rgb(121, 176, 255)", "a JSON key in the dark field colour");
      const dim = await contrastOf(page, "button.primary");
      assert.ok(dim >= 4.5, `primary button contrast ${dim.toFixed(2)}:1 in the dark scheme`);
    },
  );

  await t.step("the primary button reads at 4.5:1 in the light scheme", async () => {
    await using app = await openApp(browser(), {}, { colorScheme: "light" });
    const ratio = await contrastOf(app.page, "button.primary");
    assert.ok(ratio >= 4.5, `primary button contrast ${ratio.toFixed(2)}:1`);
  });
});
