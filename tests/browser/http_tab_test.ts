import assert from "node:assert/strict";
import { serve } from "../_helpers.ts";
import { fileBrowser, openApp } from "./_browser.ts";

const browser = fileBrowser();

Deno.test("browser: the HTTP tab sends with Basic auth, a query parameter and a header, and shows the response", async () => {
  await using target = serve((request) =>
    request.headers.get("authorization") === `Basic ${btoa("ann:s3cret")}`
      ? Response.json({ path: new URL(request.url).search, trace: request.headers.get("x-trace") })
      : new Response("no", { status: 401 })
  );
  await using app = await openApp(browser());
  const { page } = app;
  await page.getByLabel("Auth", { exact: true }).selectOption("basic");
  await page.getByLabel("Username").fill("ann");
  await page.getByLabel("Password").fill("s3cret");
  await page.getByLabel("URL", { exact: true }).fill(`${target.origin}/users`);
  await page.getByText("Query parameters").click();
  await page.getByLabel("Query parameters name 1").fill("page");
  await page.getByLabel("Query parameters value 1").fill("2");
  await page.getByLabel("Headers name 1", { exact: true }).fill("X-Trace");
  await page.getByLabel("Headers value 1", { exact: true }).fill("abc");
  await page.getByRole("button", { name: "Send" }).click();
  await page.getByTestId("status").filter({ hasText: "200" }).waitFor();
  const body = await page.getByLabel("Response body").textContent();
  assert.match(body ?? "", /"path": "\?page=2"/);
  assert.match(body ?? "", /"trace": "abc"/);
  assert.match(await page.getByTestId("size").textContent() ?? "", /\d+ B/);
  assert.equal(await page.getByTestId("protocol").textContent(), "HTTP/1.1");
  assert.equal(target.requests.length, 1);
});

Deno.test("browser: the HTTP tab puts an API key in the query and copies the request as curl", async () => {
  await using target = serve((request) => Response.json({ query: new URL(request.url).search }));
  await using app = await openApp(browser());
  const { page } = app;
  await page.getByLabel("Auth", { exact: true }).selectOption("apikey");
  await page.getByLabel("Add to").selectOption("query");
  await page.getByLabel("Key name").fill("api_key");
  await page.getByLabel("Key value").fill("k 1");
  await page.getByLabel("URL", { exact: true }).fill(`${target.origin}/data`);
  await page.getByRole("button", { name: "Send" }).click();
  await page.getByTestId("status").filter({ hasText: "200" }).waitFor();
  assert.match(await page.getByLabel("Response body").textContent() ?? "", /api_key=k%201/);
  await page.getByRole("button", { name: "Copy as curl" }).click();
  const curl = await page.getByLabel("curl command (copied)").inputValue();
  assert.equal(
    curl,
    `curl '${target.origin}/data?api_key=k%201' -H 'User-Agent: dial/0.1.0' -L --max-redirs 10 -b ''`,
  );
});

Deno.test("browser: the HTTP tab shows a bad URL in words and sends nothing", async () => {
  await using app = await openApp(browser());
  const { page } = app;
  await page.getByLabel("URL", { exact: true }).fill("ftp://example.com/x");
  await page.getByRole("button", { name: "Send" }).click();
  const alert = page.getByRole("alert");
  await alert.waitFor();
  assert.match(
    await alert.textContent() ?? "",
    /Invalid URL "ftp:\/\/example.com\/x": scheme must be http: or https:/,
  );
});

Deno.test("browser: an undefined {{variable}} is named with where it is used, as dial run names it, without a made-up position; nothing is sent", async () => {
  await using target = serve(() => Response.json({}));
  const workspace = await Deno.makeTempDir({ prefix: "dial-ui-undefined-" });
  await Deno.writeTextFile(
    `${workspace}/http-client.env.json`,
    JSON.stringify({ dev: { base: target.origin } }),
  );
  try {
    await using app = await openApp(browser(), { workspace });
    const { page } = app;
    await page.getByLabel("URL", { exact: true }).fill("{{base}}/x");
    await page.getByLabel("Headers name 1", { exact: true }).fill("X-A");
    await page.getByLabel("Headers value 1", { exact: true }).fill("{{nope}}");
    await page.getByRole("button", { name: "Send" }).click();
    const alert = page.getByRole("alert").filter({ hasText: "Undefined variable" });
    assert.equal(
      await alert.textContent(),
      'Undefined variable "nope" in header "X-A": define it in http-client.env.json, or as @nope = … in the file',
    );
    assert.equal(target.requests.length, 0);
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});
