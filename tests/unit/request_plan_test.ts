/**
 * The request command's plan (`requestPlan`): flags checked and the request built with nothing
 * sent or printed (no server runs in these tests; the URLs name a closed port).
 * @module
 */
import assert from "node:assert/strict";
import { testContext } from "../_run_cli.ts";
import { parseArgv } from "../../src/cli/parse.ts";
import { ROOT } from "../../src/cli/program.ts";
import type { RequestFlagValues } from "../../src/cli/request.ts";
import { requestPlan } from "../../src/cli/request_plan.ts";
import { readFlagReferences } from "../../src/cli/secret_ref.ts";
import { UsageError } from "../../src/errors/mod.ts";

type Context = ReturnType<typeof testContext>;

/** The plan of `dial …argv`, and the context it read. */
async function plan(argv: string[], options: Parameters<typeof testContext>[0] = {}) {
  const invocation = parseArgv(ROOT, argv);
  if (invocation.kind !== "run") throw new Error(`not a run: ${argv.join(" ")}`);
  const { args, flags } = invocation.values as unknown as {
    args: { method?: string; url?: string; items: string[] };
    flags: RequestFlagValues;
  };
  const words = [args.method, args.url, ...args.items].filter((w) => w !== undefined);
  const context: Context = testContext(options);
  return { plan: await requestPlan(words, flags, context, invocation.values.order), context };
}

function text(body: unknown): string | undefined {
  return body && typeof body === "object" && "text" in body ? String(body.text) : undefined;
}

Deno.test("request plan: a POST from items, headers in the order given, nothing printed", async () => {
  const { plan: p, context } = await plan([
    "POST",
    "http://127.0.0.1:9/users",
    "name=Ann",
    "-H",
    "X-Trace: 1",
    "-A",
    "probe/1",
  ]);
  assert.equal(p.mode, "send");
  assert.equal(p.spec.method, "POST");
  assert.equal(p.spec.url.href, "http://127.0.0.1:9/users");
  assert.equal(text(p.spec.body), '{"name":"Ann"}');
  const names = p.spec.headers.map((h) => h.name);
  assert.ok(names.indexOf("X-Trace") < names.indexOf("User-Agent"), names.join(", "));
  assert.equal(context.stdout.text(), "");
  assert.equal(context.stderr.text(), "");
});

Deno.test("request plan: --offline, --curl and --export print instead of sending", async () => {
  const url = "http://127.0.0.1:9/x";
  assert.equal((await plan([url, "--offline"])).plan.mode, "offline");
  assert.equal((await plan([url, "--curl"])).plan.mode, "curl");
  assert.equal((await plan([url, "--export", "httpie"])).plan.mode, "export");
});

Deno.test("request plan: flags that need another flag are usage errors before stdin is read", async () => {
  for (
    const [argv, message] of [
      [["--export", "curl", "--offline"], /Give one of --export, --offline/],
      [["--with-secrets"], /--with-secrets needs --curl or --export FORMAT/],
      [["--name", "me"], /--name needs --save FILE.http/],
      [["-C"], /-C\/--continue needs a file to resume/],
      [["--filter", "$[oops"], /JSONPath/],
    ] as const
  ) {
    const context = testContext({ stdin: "body" });
    const invocation = parseArgv(ROOT, ["POST", "http://127.0.0.1:9/x", "-d", "@-", ...argv]);
    assert.equal(invocation.kind, "run");
    if (invocation.kind !== "run") continue;
    const flags = (invocation.values as unknown as { flags: RequestFlagValues }).flags;
    await assert.rejects(
      requestPlan(["POST", "http://127.0.0.1:9/x"], flags, context, invocation.values.order),
      (error: unknown) => {
        assert.ok(error instanceof UsageError, String(error));
        assert.match(error.message, message);
        return true;
      },
    );
    if (!String(message).includes("continue")) {
      assert.equal(context.stdinClaimedBy, undefined, `stdin read before: ${message}`);
    }
  }
});

Deno.test("request plan: curl's habits read as dial's flags (-o - is stdout, --fail-with-body implies -f)", async () => {
  const { plan: p } = await plan(["http://127.0.0.1:9/x", "-o", "-", "--fail-with-body"]);
  assert.equal(p.flags.output, undefined);
  assert.equal(p.flags.checkStatus, true);
});

Deno.test("request plan: a reference is read from the environment into a secret; -w's unknown variables are kept to warn about", async () => {
  const { plan: p, context } = await plan(
    ["http://127.0.0.1:9/x", "-B", "@env:TOKEN", "-w", "%{http_code} %{nope}\\n"],
    { env: { TOKEN: "s3cret" } },
  );
  const authorization = p.spec.auth.authorization;
  assert.equal(authorization?.kind, "bearer");
  assert.equal(authorization?.kind === "bearer" && authorization.token.reveal(), "s3cret");
  assert.deepEqual(p.writeOut?.unknown, ["nope"]);
  assert.equal(context.stderr.text(), "", "the warning is printed when the plan is acted on");
});

Deno.test("request plan: -C resumes a partial -o file with a Range from its size", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/part.bin`;
    await Deno.writeTextFile(path, "12345");
    const { plan: p } = await plan(["http://127.0.0.1:9/big", "-o", path, "-C"]);
    assert.equal(p.save?.resume?.offset, 5);
    const range = p.spec.headers.find((h) => h.name.toLowerCase() === "range");
    assert.equal(range?.value, "bytes=5-");
    await assert.rejects(
      plan(["http://127.0.0.1:9/big", "-o", path, "-C", "-H", "Range: bytes=0-1"]),
      /Conflicting -C\/--continue and -H Range/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("request plan: the auth flags' references are read in one pass: a header file, -u's password, a -K value", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/headers`, "# team headers\nX-Team: blue\n");
    const { plan: p } = await plan(
      [
        "http://127.0.0.1:9/x",
        "-H",
        `@${dir}/headers`,
        "-u",
        "ann:@env:PW",
        "-K",
        "key=@env:KEY",
      ],
      { env: { PW: "pa55", KEY: "k3y" } },
    );
    assert.ok(p.spec.headers.some((h) => h.name === "X-Team" && h.value === "blue"));
    const authorization = p.spec.auth.authorization;
    assert.equal(authorization?.kind, "basic");
    assert.equal(authorization?.kind === "basic" && authorization.password.reveal(), "pa55");
    assert.equal(p.spec.auth.queryKeys[0]?.value.reveal(), "k3y");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("flag references: a value given twice is read once (standard input has one reader); a literal is its own text", async () => {
  const context = testContext({ stdin: "tok\n" });
  const references = await readFlagReferences([
    { flag: "-B", value: "@-" },
    { flag: "-B", value: "@-" },
  ], context);
  assert.equal(references.text("@-", "-B"), "tok");
  assert.equal(references.text("plain", "-B"), "plain");
  assert.equal(references.text("@@at", "-B"), "@at");
  assert.throws(() => references.text("@env:OTHER", "-B"), /was not read/);
});

Deno.test("request plan: two flags that set Authorization are refused before any reference is read", async () => {
  await assert.rejects(
    plan(["http://127.0.0.1:9/x", "-u", "ann:@env:UNSET", "-H", "Authorization: Bearer t"]),
    (error: unknown) => {
      assert.ok(error instanceof UsageError, String(error));
      assert.match(error.message, /Conflicting flags -u and -H "Authorization: …"/);
      return true;
    },
  );
});
