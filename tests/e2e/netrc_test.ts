/** netrc: ~/.netrc, $NETRC, --netrc-file, --no-netrc, and cross-origin stripping. */
import assert from "node:assert/strict";
import { excludes, includes } from "../assert.ts";
import { dial, serve } from "../_helpers.ts";

const basic = (user: string, password: string) =>
  `Basic ${new TextEncoder().encode(`${user}:${password}`).toBase64()}`;

function echo() {
  return serve(() => new Response("ok"));
}

/** A HOME holding a 0600 .netrc with the given text. */
async function homeWithNetrc(text: string, mode = 0o600): Promise<string> {
  const home = await Deno.makeTempDir({ prefix: "dial-netrc-home-" });
  await Deno.writeTextFile(`${home}/.netrc`, text, { mode });
  await Deno.chmod(`${home}/.netrc`, mode);
  return home;
}

Deno.test("netrc: ~/.netrc supplies Basic for the matching machine, like curl --netrc", async () => {
  await using server = echo();
  const home = await homeWithNetrc(
    `machine other.example login x password y\n\nmachine 127.0.0.1\n  login ann\n  password "s3 cret"\n`,
  );
  const result = await dial(["GET", `${server.origin}/me`], { env: { HOME: home } });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, "");
  const curl = await new Deno.Command("curl", {
    args: ["-s", "-o", "/dev/null", "--netrc-file", `${home}/.netrc`, `${server.origin}/me`],
  }).output();
  assert.equal(curl.code, 0);
  assert.deepEqual(server.requests.map((r) => r.headers.get("authorization")), [
    basic("ann", "s3 cret"),
    basic("ann", "s3 cret"),
  ]);
});

Deno.test("netrc: the default entry, $NETRC and --netrc-file", async () => {
  await using server = echo();
  const home = await homeWithNetrc(
    "machine elsewhere login a password b\ndefault login dee password fault\n",
  );
  const other = await Deno.makeTempFile();
  await Deno.writeTextFile(other, "machine 127.0.0.1 login env password file\n");
  await Deno.chmod(other, 0o600);
  const explicit = await Deno.makeTempFile();
  await Deno.writeTextFile(explicit, "machine 127.0.0.1 login flag password file\n");
  await Deno.chmod(explicit, 0o600);
  for (
    const run of [
      await dial(["GET", server.origin], { env: { HOME: home } }),
      await dial(["GET", server.origin], { env: { HOME: home, NETRC: other } }),
      await dial(["GET", server.origin, "--netrc-file", explicit], {
        env: { HOME: home, NETRC: other },
      }),
    ]
  ) {
    assert.equal(run.code, 0, run.stderr);
  }
  assert.deepEqual(server.requests.map((r) => r.headers.get("authorization")), [
    basic("dee", "fault"),
    basic("env", "file"),
    basic("flag", "file"),
  ]);
});

Deno.test("netrc: --no-netrc turns it off and an explicit auth flag wins", async () => {
  await using server = echo();
  const home = await homeWithNetrc("machine 127.0.0.1 login ann password pw\n");
  const env = { HOME: home };
  for (
    const run of [
      await dial(["GET", server.origin, "--no-netrc"], { env }),
      await dial(["GET", server.origin, "-u", "bob:other"], { env }),
      await dial(["GET", server.origin, "-B", "tok"], { env }),
      await dial(["GET", server.origin, "-H", "Authorization: Custom x"], { env }),
    ]
  ) {
    assert.equal(run.code, 0, run.stderr);
  }
  assert.deepEqual(server.requests.map((r) => r.headers.get("authorization")), [
    null,
    basic("bob", "other"),
    "Bearer tok",
    "Custom x",
  ]);
});

Deno.test("netrc: credentials are not sent on a cross-origin redirect", async () => {
  await using other = echo();
  await using server = serve(() =>
    new Response(null, {
      status: 302,
      headers: { location: `${other.origin.replace("127.0.0.1", "localhost")}/end` },
    })
  );
  const home = await homeWithNetrc("default login ann password pw\n");
  const result = await dial(["GET", `${server.origin}/start`, "-L"], { env: { HOME: home } });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(server.requests[0]!.headers.get("authorization"), basic("ann", "pw"));
  assert.equal(other.requests[0]!.headers.get("authorization"), null);
});

Deno.test("netrc: a file readable by others is used with a warning; a missing --netrc-file is exit 2", async () => {
  await using server = echo();
  const home = await homeWithNetrc("machine 127.0.0.1 login ann password S3CRET\n", 0o644);
  const open = await dial(["GET", server.origin], { env: { HOME: home } });
  assert.equal(open.code, 0, open.stderr);
  includes(open.stderr, `netrc file ${home}/.netrc is readable by others`);
  excludes(open.stderr, "S3CRET");
  assert.equal(server.requests[0]!.headers.get("authorization"), basic("ann", "S3CRET"));
  const missing = await dial(["GET", server.origin, "--netrc-file", "/nonexistent/netrc"]);
  assert.equal(missing.code, 2);
  includes(missing.stderr, "Cannot read --netrc-file /nonexistent/netrc: no such file");
  assert.equal(server.requests.length, 1);
});
