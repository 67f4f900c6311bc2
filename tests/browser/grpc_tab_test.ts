/**
 * The gRPC tab in Chromium against the grpc-js greeter: methods loaded by reflection, a
 * template from the request type, the auth panel's token and metadata rows sent, replies of a
 * streaming method in the log, the status; `.proto` files of the workspace for a server
 * without reflection.
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { fileBrowser, openApp, openRequest, saveAs } from "./_browser.ts";
import { copyGreeterProtos, startGreeter } from "../e2e/_grpc.ts";

const browser = fileBrowser();
const GREETER = "greet.v1.Greeter";

Deno.test("browser: the gRPC tab loads methods by reflection, fills a template, sends the panel's token and metadata, streams replies into the log", async () => {
  await using greeter = await startGreeter();
  await using app = await openApp(browser());
  const { page } = app;
  await page.getByLabel("Auth", { exact: true }).selectOption("bearer");
  await page.getByLabel("Token", { exact: true }).fill("t0k");
  await page.getByRole("tab", { name: "gRPC" }).click();
  await page.getByLabel("Server").fill(greeter.address);
  await page.getByRole("button", { name: "Load methods" }).click();
  const picker = page.getByLabel("RPCs");
  await picker.waitFor();
  // The first method is picked, its request's template in the editor.
  assert.equal(
    await page.getByLabel("RPC", { exact: true }).inputValue(),
    `${GREETER}/SayHello`,
  );
  const editor = page.getByRole("textbox", { name: "gRPC message" });
  await editor.filter({ hasText: '"mood": "MOOD_UNSPECIFIED"' }).waitFor();

  await picker.selectOption(`${GREETER}/EchoMetadata`);
  await page.locator("summary:visible", { hasText: "Metadata" }).click();
  await page.getByLabel("Metadata name 1").fill("x-tenant");
  await page.getByLabel("Metadata value 1").fill("blue");
  await page.getByRole("button", { name: "Call", exact: true }).click();
  const status = page.getByTestId("grpc-status");
  await status.filter({ hasText: /^OK \(0\) · .* · 1 reply$/ }).waitFor();
  const log = page.getByRole("list", { name: "Replies" });
  await log.getByText("authorization=Bearer t0k").waitFor();
  await log.getByText("x-tenant=blue").waitFor();

  await picker.selectOption(`${GREETER}/StreamHellos`);
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.insertText('{"name": "s", "times": 3}');
  await page.getByRole("button", { name: "Call", exact: true }).click();
  await status.filter({ hasText: /3 replies$/ }).waitFor();
  for (const i of [0, 1, 2]) await log.getByText(`Hello s ${i}`).waitFor();

  await picker.selectOption(`${GREETER}/Missing`);
  await page.getByRole("button", { name: "Call", exact: true }).click();
  await status.filter({ hasText: "NOT_FOUND (5): no such greeting" }).waitFor();

  // Ctrl/Cmd+Enter calls from anywhere in the tab (here: the log's filter).
  await picker.selectOption(`${GREETER}/SayHello`);
  await page.getByLabel("Filter replies").press("ControlOrMeta+Enter");
  await log.getByText('"message":"Hello s"').waitFor();
  // Every call is in the tab's history; an entry puts its call back.
  await page.locator("summary:visible", { hasText: "History (4)" }).click();
  const history = page.getByRole("list", { name: "History" });
  await history.getByText("failed: NOT_FOUND (5): no such greeting").waitFor();
  // An OK call's line shows its status as the tab does, its size and time, like an HTTP one's.
  const echoed = history.getByRole("button", { name: /EchoMetadata/ });
  assert.match(
    await echoed.textContent() ?? "",
    new RegExp(`${GREETER}/EchoMetadata ${greeter.address} OK \\(0\\) · \\d+ B · \\d+ ms$`),
  );
  await page.getByLabel("Search history").fill("ok (0)");
  await history.getByText(/^failed/).waitFor({ state: "detached" });
  assert.equal(await history.getByRole("button").count(), 3);
  await page.getByLabel("Search history").fill("");
  await echoed.click();
  assert.equal(
    await page.getByLabel("RPC", { exact: true }).inputValue(),
    `${GREETER}/EchoMetadata`,
  );
  await editor.filter({ hasText: '"mood": "MOOD_UNSPECIFIED"' }).waitFor();
});

Deno.test("browser: the gRPC tab reads the workspace's .proto files for a server without reflection", async () => {
  await using greeter = await startGreeter("--no-reflection");
  const dir = await Deno.makeTempDir({ prefix: "dial-grpc-tab-" });
  try {
    await copyGreeterProtos(dir, "protos");
    await using app = await openApp(browser(), { workspace: dir });
    const { page } = app;
    await page.getByRole("tab", { name: "gRPC" }).click();
    await page.getByLabel("Server").fill(greeter.address);
    await page.getByRole("button", { name: "Load methods" }).click();
    await page.getByRole("alert").filter({ hasText: "does not offer reflection" }).waitFor();
    await page.locator("summary:visible", { hasText: "Proto files" }).click();
    await page.getByLabel(".proto files").fill("protos/greeter.proto");
    await page.getByLabel("Import paths").fill("protos");
    await page.getByRole("button", { name: "Load methods" }).click();
    await page.getByLabel("RPCs").waitFor();
    const editor = page.getByRole("textbox", { name: "gRPC message" });
    await editor.click();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.insertText('{"name": "ann"}');
    await page.getByRole("button", { name: "Call", exact: true }).click();
    await page.getByRole("list", { name: "Replies" }).getByText("Hello ann").waitFor();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("browser: a file's GRPC request opens in the gRPC tab with its proto < lines, is evaluated as dial run evaluates it, and saves back in place", async () => {
  await using greeter = await startGreeter("--no-reflection");
  const dir = await Deno.makeTempDir({ prefix: "dial-grpc-file-" });
  try {
    await copyGreeterProtos(dir, "protos");
    const original = `proto < ./protos/greeter.proto
includeDirs: ["./protos"]

### echo
< {% request.variables.set("sender", "the-script"); %}
GRPC {{addr}}/${GREETER}/EchoMetadata
Authorization: Bearer {{token}}
x-tenant: {{tenant}}
x-sender: {{sender}}

{"name": "ann"}
`;
    await Deno.writeTextFile(`${dir}/calls.http`, original);
    await Deno.writeTextFile(
      `${dir}/http-client.env.json`,
      JSON.stringify({ dev: { addr: greeter.address, tenant: "blue" } }),
    );
    await Deno.writeTextFile(
      `${dir}/http-client.private.env.json`,
      JSON.stringify({ dev: { token: "s3cr3t" } }),
    );
    await using app = await openApp(browser(), { workspace: dir });
    const { page } = app;
    await page.getByLabel("Environment").selectOption("dev");
    const sidebar = page.getByRole("navigation", { name: "Workspace" });
    await sidebar.getByRole("button", { name: "calls.http", exact: true }).click();
    await sidebar.getByRole("button", { name: "GRPC echo", exact: true }).click();
    await page.getByRole("tab", { name: "gRPC", selected: true }).waitFor();
    assert.equal(await page.getByLabel("Server").inputValue(), "{{addr}}");
    assert.equal(
      await page.getByLabel("RPC", { exact: true }).inputValue(),
      `${GREETER}/EchoMetadata`,
    );
    assert.equal(await page.getByLabel(".proto files").inputValue(), "protos/greeter.proto");
    assert.equal(await page.getByLabel("Import paths").inputValue(), "protos");
    await page.getByRole("button", { name: "Call", exact: true }).click();
    const log = page.getByRole("list", { name: "Replies" });
    await log.getByText("authorization=Bearer s3cr3t").waitFor();
    // Evaluated as dial run evaluates it: a variable of its pre-request script.
    await log.getByText("x-sender=the-script").waitFor();
    // The same metadata as dial run sends, every one of them (the greeter echoes them all).
    const fromUi = JSON.parse(await log.getByText("x-sender=the-script").innerText()).message;
    const fromRun = await dial(["run", `${dir}/calls.http`, "--env", "dev"]);
    assert.equal(fromRun.code, 0, fromRun.stderr);
    assert.equal(fromUi, JSON.parse(fromRun.stdout).message);

    const editor = page.getByRole("textbox", { name: "gRPC message" });
    await editor.click();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.insertText('{"name": "bo"}');
    await page.keyboard.press("ControlOrMeta+s");
    await page.getByText("Saved to calls.http").waitFor();
    const saved = await Deno.readTextFile(`${dir}/calls.http`);
    assert.equal(saved, original.replace('{"name": "ann"}', '{"name": "bo"}'));
    // Save as: a new file in another folder names the .proto files relative to itself.
    await Deno.mkdir(`${dir}/more`);
    await saveAs(page, "more/copy.http", "copy");
    assert.equal(
      await Deno.readTextFile(`${dir}/more/copy.http`),
      `### copy\n# @name copy\nproto < ../protos/greeter.proto\nincludeDirs: ["../protos"]\n` +
        `GRPC {{addr}}/${GREETER}/EchoMetadata\nAuthorization: Bearer {{token}}\n` +
        `x-tenant: {{tenant}}\nx-sender: {{sender}}\n\n{"name": "bo"}\n`,
    );
    const run = await dial([
      ...["run", `${dir}/more/copy.http`, "--env", "dev", "--allow-path", dir],
      ...["--var", "sender=cli"],
    ]);
    assert.equal(run.code, 0, run.stderr);
    // Save as writes the tab's request, not the file's pre-request script: the environment's value.
    assert.match(JSON.parse(run.stdout).message, /authorization=Bearer s3cr3t;.*x-tenant=blue/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("browser: the gRPC tab's Proto fields save as the request's proto < lines, and the file reopens in the same tab", async () => {
  await using greeter = await startGreeter("--no-reflection");
  const dir = await Deno.makeTempDir({ prefix: "dial-grpc-protos-" });
  try {
    await copyGreeterProtos(dir, "api", "shared");
    const original = `@addr = ${greeter.address}

### hello
GRPC {{addr}}/${GREETER}/SayHello

{"name": "ann"}

### other
GRPC {{addr}}/${GREETER}/SayHello
`;
    const file = `${dir}/calls.http`;
    await Deno.writeTextFile(file, original);
    const withProtos = original.replace(
      "### hello\n",
      `### hello\nproto < ./api/greeter.proto\nincludeDirs: ["./shared"]\n`,
    );
    {
      await using app = await openApp(browser(), { workspace: dir });
      const { page } = app;
      await openRequest(page, "calls.http", "GRPC hello");
      await page.getByText("calls.http #1 (hello)", { exact: true }).waitFor();
      // Reflection first: this server has none.
      await page.getByRole("button", { name: "Call", exact: true }).click();
      await page.getByRole("alert").filter({ hasText: "does not offer reflection" }).waitFor();
      await page.locator("summary:visible", { hasText: "Proto files" }).click();
      await page.getByLabel(".proto files").fill("api/greeter.proto");
      await page.getByLabel("Import paths").fill("shared");
      await page.getByText("calls.http #1 (hello) •").waitFor();
      // The edit is kept, and known as unsaved, across a reload.
      await page.reload();
      await page.getByText("calls.http #1 (hello) •").waitFor();
      assert.equal(await page.getByLabel(".proto files").inputValue(), "api/greeter.proto");
      // The call reads the files the tab shows.
      await page.getByRole("button", { name: "Call", exact: true }).click();
      await page.getByRole("list", { name: "Replies" }).getByText("Hello ann").waitFor();
      await page.getByRole("button", { name: "Save to calls.http" }).click();
      await page.getByRole("status").filter({ hasText: "Saved to calls.http" }).waitFor();
      await page.getByText("calls.http #1 (hello)", { exact: true }).waitFor();
      assert.equal(await Deno.readTextFile(file), withProtos);
    }
    // What was saved runs as the tab ran it.
    const run = await dial(["run", file, "hello"]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).message, "Hello ann");

    // A new page (its storage empty) reopens the file: the same fields, nothing unsaved.
    await using app = await openApp(browser(), { workspace: dir });
    const { page } = app;
    await openRequest(page, "calls.http", "GRPC hello");
    await page.getByText("calls.http #1 (hello)", { exact: true }).waitFor();
    assert.equal(await page.getByLabel(".proto files").inputValue(), "api/greeter.proto");
    assert.equal(await page.getByLabel("Import paths").inputValue(), "shared");
    // Back to reflection: the lines go, the file is as it was.
    await page.getByLabel(".proto files").fill("");
    await page.getByLabel("Import paths").fill("");
    await page.getByText("calls.http #1 (hello) •").waitFor();
    await page.getByRole("button", { name: "Save to calls.http" }).click();
    await page.getByText("calls.http #1 (hello)", { exact: true }).waitFor();
    assert.equal(await Deno.readTextFile(file), original);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("browser: a file's GRPC request called from the tab runs its handlers and tests as dial run does; a handler's global reaches the next call", async () => {
  await using greeter = await startGreeter();
  const dir = await Deno.makeTempDir({ prefix: "dial-grpc-tests-" });
  try {
    await Deno.writeTextFile(
      `${dir}/calls.http`,
      `@addr = ${greeter.address}

### hello
GRPC {{addr}}/${GREETER}/SayHello

{"name": "ann"}

> {%
  client.log("greeted " + response.body.message);
  client.test("greets ann", () => client.assert(response.body.message === "Hello ann"));
  client.test("a small number", () => client.assert(response.body.bigNumber === "1", "was " + response.body.bigNumber));
  client.global.set("greeting", response.body.message);
%}

### again
GRPC {{addr}}/${GREETER}/SayHello

{"name": "{{greeting}}"}

### chat
@who = zed
GRPC {{addr}}/${GREETER}/Chat

{"name": "from the file"}
`,
    );
    await using app = await openApp(browser(), { workspace: dir });
    const { page } = app;
    const sidebar = await openRequest(page, "calls.http", "GRPC hello");
    await page.getByRole("button", { name: "Call", exact: true }).click();
    await page.getByTestId("grpc-status").filter({ hasText: /^OK \(0\)/ }).waitFor();
    const tests = page.getByRole("region", { name: "Tests" });
    await tests.getByText("Tests: 1 passed, 1 failed").waitFor();
    await tests.getByText("✓ greets ann").waitFor();
    await tests.getByText("✗ a small number: was 9007199254740993").waitFor();
    await page.locator("summary", { hasText: "Log (1)" }).click();
    await page.getByLabel("Script log").getByText("greeted Hello ann").waitFor();
    // The global the handler set is the next call's, as in one dial run.
    await sidebar.getByRole("button", { name: "GRPC again" }).click();
    await page.getByRole("button", { name: "Call", exact: true }).click();
    await page.getByRole("list", { name: "Replies" }).getByText("Hello Hello ann").waitFor();
    // Open stream of a file's bidi request (its kind not loaded yet): the file's target, the
    // composer's messages with the file's variables; the file's own message is not sent.
    await sidebar.getByRole("button", { name: "GRPC chat" }).click();
    await page.getByRole("button", { name: "Open stream" }).click();
    const composer = page.getByRole("textbox", { name: "Stream message" });
    await composer.filter({ hasText: "from the file" }).waitFor();
    await composer.click();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.insertText('{"name": "{{who}}"}');
    await page.keyboard.press("ControlOrMeta+Enter");
    const log = page.getByRole("list", { name: "Replies" });
    await log.getByText("Hello zed").waitFor();
    await page.getByRole("button", { name: "End sending" }).click();
    await page.getByTestId("grpc-status").filter({ hasText: /· 1 sent · 1 reply$/ }).waitFor();
    assert.equal(await log.getByText("from the file").count(), 0);
    const run = await dial(["run", `${dir}/calls.http`]);
    assert.match(run.stdout, /"message": ?"Hello Hello ann"/);
    assert.match(run.stderr, /a small number/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
