import assert from "node:assert/strict";
import { netrcLookup, parseNetrc } from "../../src/auth/netrc.ts";

const view = (text: string, host: string) => {
  const entry = netrcLookup(parseNetrc(text), host);
  return entry && [entry.login, entry.password.reveal()];
};

Deno.test("netrc: machine entries, one per line or spread over lines", () => {
  const text =
    "machine a.test login ann password one\nmachine b.test\n  login bob\n  password two\n";
  assert.deepEqual(view(text, "a.test"), ["ann", "one"]);
  assert.deepEqual(view(text, "B.TEST"), ["bob", "two"]);
  assert.equal(view(text, "c.test"), undefined);
});

Deno.test("netrc: default applies to any other host, wherever it is written", () => {
  const text = "default login dee password d\nmachine a.test login ann password one\n";
  assert.deepEqual(view(text, "a.test"), ["ann", "one"]);
  assert.deepEqual(view(text, "z.test"), ["dee", "d"]);
});

Deno.test("netrc: quoted tokens, comments, account and macdef bodies are handled", () => {
  const text = [
    "# a comment with machine x.test login no password no",
    "macdef init",
    "machine evil.test login mac password def",
    "",
    'machine a.test account acct login "ann lee" password "p\\"w d"',
  ].join("\n");
  assert.deepEqual(view(text, "a.test"), ["ann lee", 'p"w d']);
  assert.equal(view(text, "evil.test"), undefined);
  assert.equal(view(text, "x.test"), undefined);
});
