/**
 * The HTTP tab's OpenAPI side (issue 40, item 6): a request of a workspace file whose file or
 * environment names a description shows its operation's summary and schemas beside the
 * request; a Send's violations are failed tests, and each value of the response body they
 * point at is marked in the viewer. A description a file names follows the trust rule.
 */
import assert from "node:assert/strict";
import { petServer, PETSTORE_30, SCHEMAS_30 } from "../e2e/_openapi_pets.ts";
import { project } from "../e2e/_files.ts";
import { fileBrowser, openApp, openRequest } from "./_browser.ts";

const browser = fileBrowser();

const REQUESTS = `# @openapi ./spec/openapi.yaml
# @name pet
GET {{base}}/pets/1

###
# @name lost
GET {{base}}/pets/1?drift=enum

###
# @name nameless
GET {{base}}/pets/1?drift=missing

###
# @name nowhere
GET {{base}}/toys
`;

Deno.test("browser: a file's OpenAPI description shows the request's operation and marks the response's violations", async () => {
  await using server = petServer();
  const workspace = await project({
    "spec/openapi.yaml": PETSTORE_30.replace(
      "  /pets/{id}:\n    get:\n",
      "  /pets/{id}:\n    get:\n      summary: One pet by its id\n",
    ),
    "spec/schemas.yaml": SCHEMAS_30,
    "api.http": REQUESTS,
    "http-client.env.json": JSON.stringify({ dev: { base: `${server.origin}/v1` } }),
  });
  await using app = await openApp(browser(), { workspace });
  const { page } = app;
  const sidebar = await openRequest(page, "api.http", "GET lost", "dev");
  // Beside the request: the operation its URL matches, {{base}} standing for origin and base.
  const panel = page.getByRole("group", { name: "OpenAPI" });
  await panel.getByText("OpenAPI: GET /pets/{id} — One pet by its id").waitFor();
  await panel.getByText("path id (required)").click();
  const id = panel.locator("details", { hasText: "path id (required)" }).locator("pre");
  assert.match(await id.textContent() ?? "", /"format": "int32"/);
  await id.waitFor();
  await panel.getByText("200 one pet").click();
  // The response schema, its cross-file $ref followed.
  const pet = panel.locator("details", { hasText: "200 one pet" }).locator("pre");
  await pet.waitFor();
  assert.match(await pet.textContent() ?? "", /"enum": \[\s*"available",\s*"sold"\s*\]/);

  await page.getByRole("button", { name: "Send", exact: true }).click();
  const check = page.getByRole("region", { name: "OpenAPI check" });
  await check.getByText("OpenAPI: 1 violation of the description (api.http:1)").waitFor();
  const tests = page.getByRole("region", { name: "Tests" });
  await tests.getByText(
    '✗ GET /pets/{id}: /status: must be one of ["available","sold"], got "lost" (response 200 body)',
  ).waitFor();
  // The value the violation points at is marked in the body, its message as its title.
  const mark = page.getByLabel("Response body").locator(".cm-openapi-violation");
  await mark.waitFor();
  assert.equal(await mark.textContent(), '"lost"');
  assert.equal(await mark.getAttribute("data-pointer"), "/status");
  assert.match(await mark.getAttribute("title") ?? "", /must be one of/);
  assert.equal(server.requests.length, 1);

  // A missing property is marked at the object that lacks it.
  await sidebar.getByRole("button", { name: "GET nameless" }).click();
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await check.getByRole("button", { name: "/name" }).click();
  const missing = page.getByLabel("Response body").locator(".cm-openapi-violation.missing");
  await missing.first().waitFor();
  assert.match(await missing.first().getAttribute("title") ?? "", /required property missing/);

  // A request that keeps the description says so; one that matches no operation says that.
  await sidebar.getByRole("button", { name: "GET pet" }).click();
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await check.getByText("OpenAPI: the exchange keeps the description").waitFor();
  await sidebar.getByRole("button", { name: "GET nowhere" }).click();
  await panel.getByText(/OpenAPI: no operation matches GET \{\{base\}\}\/toys/).waitFor();
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await tests.getByText(/✗ GET \/v1\/toys: undocumented: no operation of/).waitFor();
  // ▶ Run checks each request as dial run does: three of the four break the description.
  await sidebar.getByRole("button", { name: "Run api.http" }).click();
  const runner = page.getByRole("region", { name: "Runner" });
  await runner.getByText("1 passed, 3 failed").waitFor();
});

Deno.test("browser: a description a file names outside the workspace is refused, nothing sent", async () => {
  await using server = petServer();
  const root = await project({
    "outside/openapi.yaml": PETSTORE_30,
    "outside/schemas.yaml": SCHEMAS_30,
    "repo/api.http":
      `# @openapi ../outside/openapi.yaml\n# @name pet\nGET ${server.origin}/v1/pets/1\n`,
  });
  await using app = await openApp(browser(), { workspace: `${root}/repo` });
  const { page } = app;
  await openRequest(page, "api.http", "GET pet");
  const refusal = page.getByRole("region", { name: "OpenAPI" }).getByRole("alert");
  await refusal.getByText(/Refused the OpenAPI description named by .*api\.http:1/).waitFor();
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await page.getByRole("alert").getByText(/outside/).first().waitFor();
  assert.equal(server.requests.length, 0, "nothing was sent");
});

Deno.test("browser: an environment's openapi entry applies when that environment is picked", async () => {
  await using server = petServer();
  const workspace = await project({
    "spec/openapi.yaml": PETSTORE_30,
    "spec/schemas.yaml": SCHEMAS_30,
    "api.http": `# @name lost\nGET {{base}}/pets/1?drift=null\n`,
    "http-client.env.json": JSON.stringify({
      dev: { base: `${server.origin}/v1`, openapi: "spec/openapi.yaml" },
      bare: { base: `${server.origin}/v1` },
    }),
  });
  await using app = await openApp(browser(), { workspace });
  const { page } = app;
  const sidebar = await openRequest(page, "api.http", "GET lost", "dev");
  const panel = page.getByRole("group", { name: "OpenAPI" });
  await panel.getByText("OpenAPI: GET /pets/{id}").waitFor();
  await page.getByRole("button", { name: "Send", exact: true }).click();
  const check = page.getByRole("region", { name: "OpenAPI check" });
  await check.getByText(/OpenAPI: 1 violation of the description \(http-client\.env\.json/)
    .waitFor();
  const mark = page.getByLabel("Response body").locator(".cm-openapi-violation");
  assert.equal(await mark.textContent(), "null");
  // Another environment names no description: the panel goes, and a Send is not checked.
  await sidebar.getByLabel("Environment").selectOption("bare");
  await panel.waitFor({ state: "detached" });
  await page.getByRole("button", { name: "Send", exact: true }).click();
  // The new response, without a check, replaces the checked one.
  await check.waitFor({ state: "detached" });
  assert.equal(server.requests.length, 2);
});
