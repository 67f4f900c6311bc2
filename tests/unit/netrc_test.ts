import { assertEquals } from "../assert.ts";
import { netrcLookup, parseNetrc } from "../../src/auth/netrc.ts";

const view = (text: string, host: string) => {
  const entry = netrcLookup(parseNetrc(text), host);
  return entry && [entry.login, entry.password.reveal()];
};

Deno.test("netrc: machine entries, one per line or spread over lines", () => {
  const text =
    "machine a.test login ann password one\nmachine b.test\n  login bob\n  password two\n";
  assertEquals(view(text, "a.test"), ["ann", "one"]);
  assertEquals(view(text, "B.TEST"), ["bob", "two"]);
  assertEquals(view(text, "c.test"), undefined);
});

Deno.test("netrc: default applies to any other host, wherever it is written", () => {
  const text = "default login dee password d\nmachine a.test login ann password one\n";
  assertEquals(view(text, "a.test"), ["ann", "one"]);
  assertEquals(view(text, "z.test"), ["dee", "d"]);
});

Deno.test("netrc: quoted tokens, comments, account and macdef bodies are handled", () => {
  const text = [
    "# a comment with machine x.test login no password no",
    "macdef init",
    "machine evil.test login mac password def",
    "",
    'machine a.test account acct login "ann lee" password "p\\"w d"',
  ].join("\n");
  assertEquals(view(text, "a.test"), ["ann lee", 'p"w d']);
  assertEquals(view(text, "evil.test"), undefined);
  assertEquals(view(text, "x.test"), undefined);
});
