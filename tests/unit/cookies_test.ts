import assert from "node:assert/strict";
import { CookieJar, loadPublicSuffixList, parseSetCookie } from "../../src/http/cookies.ts";

await loadPublicSuffixList();

const at = (url: string) => new URL(url);

Deno.test("cookies: Domain must be the host or a parent of it, never another site", () => {
  const url = at("https://a.example.com/x/y");
  assert.equal(parseSetCookie("s=1; Domain=evil.test", url), undefined);
  assert.equal(parseSetCookie("s=1; Domain=com", url), undefined);
  assert.equal(parseSetCookie("s=1; Domain=b.example.com", url), undefined);
  assert.equal(parseSetCookie("s=1; Domain=.example.com", url)?.domain, "example.com");
  assert.equal(parseSetCookie("s=1; Domain=10.0.0.1", at("http://10.0.0.2/")), undefined);
  const hostOnly = parseSetCookie("s=1", url)!;
  assert.deepEqual([hostOnly.domain, hostOnly.hostOnly, hostOnly.path], [
    "a.example.com",
    true,
    "/x",
  ]);
});

Deno.test("cookies: Secure is set and sent over https only", async () => {
  assert.equal(parseSetCookie("s=1; Secure", at("http://a.test/")), undefined);
  const jar = new CookieJar();
  await jar.store(at("https://a.test/"), ["s=1; Secure", "p=2"]);
  assert.equal(jar.header(at("https://a.test/")), "s=1; p=2");
  assert.equal(jar.header(at("http://a.test/")), "p=2");
});

Deno.test("cookies: path and domain matching, subdomains, expiry deletes", async () => {
  const jar = new CookieJar();
  await jar.store(at("http://example.com/"), ["d=1; Domain=example.com", "h=2", "p=3; Path=/api"]);
  assert.equal(jar.header(at("http://www.example.com/api/x")), "d=1");
  assert.equal(jar.header(at("http://example.com/api/x")), "p=3; d=1; h=2");
  assert.equal(jar.header(at("http://example.com/apix")), "d=1; h=2");
  await jar.store(at("http://example.com/"), ["h=; Max-Age=0"]);
  assert.equal(jar.header(at("http://example.com/")), "d=1");
});

Deno.test("cookies: the Netscape file round-trips, HttpOnly kept", async () => {
  const jar = new CookieJar();
  await jar.store(at("http://example.com/"), [
    "a=1; HttpOnly; Max-Age=600",
    "b=2; Domain=example.com",
  ]);
  const again = new CookieJar();
  again.load(jar.serialize());
  assert.deepEqual(again.cookies, jar.cookies);
  assert.equal(jar.serialize().includes("#HttpOnly_example.com\tFALSE\t/\tFALSE\t"), true);
  assert.equal(jar.serialize().includes(".example.com\tTRUE\t/\tFALSE\t0\tb\t2"), true);
});

Deno.test("cookies: a public suffix is no cookie domain (co.uk, github.io), as with libpsl", () => {
  const uk = at("https://www.example.co.uk/");
  assert.equal(parseSetCookie("s=1; Domain=co.uk", uk), undefined);
  assert.equal(parseSetCookie("s=1; Domain=.uk", uk), undefined);
  assert.equal(parseSetCookie("s=1; Domain=example.co.uk", uk)?.domain, "example.co.uk");
  const pages = at("https://alice.github.io/");
  assert.equal(parseSetCookie("s=1; Domain=github.io", pages), undefined);
  assert.equal(parseSetCookie("s=1; Domain=alice.github.io", pages)?.hostOnly, false);
  // Set by the suffix's own host, it stays with that host (RFC 6265 section 5.3 step 5).
  const own = parseSetCookie("s=1; Domain=github.io", at("https://github.io/"))!;
  assert.deepEqual([own.domain, own.hostOnly], ["github.io", true]);
});
