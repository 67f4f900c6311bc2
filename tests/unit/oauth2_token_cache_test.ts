import assert from "node:assert/strict";
import { isFresh } from "../../src/auth/oauth2/access_token.ts";
import { browserCommand } from "../../src/auth/oauth2/browser.ts";
import { callbackHosts, escapeHtml } from "../../src/auth/oauth2/callback_server.ts";
import {
  fileTokenStore,
  listTokenEntries,
  normalizeScope,
  parseEntry,
  type TokenEntry,
} from "../../src/auth/oauth2/token_cache.ts";

const entry: TokenEntry = {
  flow: "client_credentials",
  tokenUrl: "http://127.0.0.1:1/token",
  clientId: "app",
  scope: "",
  username: "",
  accessToken: "at",
  tokenType: "bearer",
  obtainedAt: 1_000_000,
};

Deno.test("oauth2 cache: a token is fresh until 30 s before it expires", () => {
  const e = { ...entry, expiresAt: entry.obtainedAt + 3600_000 };
  assert.equal(isFresh(e, e.expiresAt - 30_001), true);
  assert.equal(isFresh(e, e.expiresAt - 30_000), false);
});

Deno.test("oauth2 cache: a short-lived token is fresh until a tenth of its lifetime is left", () => {
  const e = { ...entry, expiresAt: entry.obtainedAt + 10_000 };
  assert.equal(isFresh(e, e.expiresAt - 1_001), true);
  assert.equal(isFresh(e, e.expiresAt - 1_000), false);
});

Deno.test("oauth2 cache: the lifetime of a refreshed token counts from the refresh", () => {
  const e = { ...entry, refreshedAt: 5_000_000, expiresAt: 5_010_000 };
  assert.equal(isFresh(e, 5_008_999), true);
  assert.equal(isFresh(e, 5_009_000), false);
});

Deno.test("oauth2 cache: a token without expiry stays fresh", () => {
  assert.equal(isFresh(entry, Number.MAX_SAFE_INTEGER), true);
});

Deno.test("oauth2 cache: scopes are sorted and deduplicated for the key", () => {
  assert.equal(normalizeScope("  write read\tread "), "read write");
  assert.equal(normalizeScope(undefined), "");
});

Deno.test("oauth2 cache: entries read from disk are validated", () => {
  assert.deepEqual(parseEntry({ version: 1, ...entry }), entry);
  assert.equal(parseEntry({ ...entry }), undefined);
  assert.equal(parseEntry({ version: 1, ...entry, flow: "implicit" }), undefined);
  assert.equal(parseEntry({ version: 1, ...entry, accessToken: 5 }), undefined);
  assert.equal(parseEntry([]), undefined);
  assert.equal(parseEntry(null), undefined);
});

Deno.test("oauth2 cache: files are 0600 in a 0700 directory and replaced atomically", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.chmod(dir, 0o755);
    const store = fileTokenStore(dir);
    await store.write(entry);
    await store.write({ ...entry, accessToken: "at2" });
    assert.equal((await store.read(entry))?.accessToken, "at2");
    assert.equal((await Deno.stat(dir)).mode! & 0o777, 0o700);
    assert.equal((await Deno.stat(`${dir}/oauth2`)).mode! & 0o777, 0o700);
    const names = [...Deno.readDirSync(`${dir}/oauth2`)].map((e) => e.name);
    const json = names.filter((n) => n.endsWith(".json"));
    assert.equal(json.length, 1, `one entry file, no temp files: ${names}`);
    assert.equal((await Deno.stat(`${dir}/oauth2/${json[0]}`)).mode! & 0o777, 0o600);
    assert.deepEqual((await listTokenEntries(dir)).map((e) => e.accessToken), ["at2"]);
    await store.remove(entry);
    assert.equal(await store.read(entry), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("oauth2 cache: two writers at once leave one whole entry", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const a = fileTokenStore(dir);
    const b = fileTokenStore(dir);
    await Promise.all(
      Array.from(
        { length: 20 },
        (_, i) => (i % 2 ? a : b).write({ ...entry, accessToken: `token-${i}` }),
      ),
    );
    const read = await a.read(entry);
    assert.match(read?.accessToken ?? "", /^token-\d+$/);
    const names = [...Deno.readDirSync(`${dir}/oauth2`)].map((e) => e.name);
    assert.equal(names.filter((n) => n.endsWith(".tmp")).length, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("oauth2 browser: $BROWSER gets the URL appended or substituted for %s", () => {
  const url = new URL("https://id.example/authorize?a=1&b=2");
  assert.deepEqual(browserCommand(url, "firefox", "linux"), ["firefox", url.href]);
  assert.deepEqual(browserCommand(url, "deno run b.ts", "linux"), [
    "deno",
    "run",
    "b.ts",
    url.href,
  ]);
  assert.deepEqual(browserCommand(url, "w3m %s -dump:lynx", "linux"), ["w3m", url.href, "-dump"]);
});

Deno.test("oauth2 browser: without $BROWSER the platform opener is used", () => {
  const url = new URL("https://id.example/authorize?a=1&b=2");
  assert.deepEqual(browserCommand(url, undefined, "linux"), ["xdg-open", url.href]);
  assert.deepEqual(browserCommand(url, "", "darwin"), ["open", url.href]);
  assert.deepEqual(browserCommand(url, undefined, "windows"), [
    "cmd",
    "/c",
    "start",
    '""',
    "https://id.example/authorize?a=1^&b=2",
  ]);
});

Deno.test("oauth2 callback: localhost listens on both loopback addresses, others on one", () => {
  assert.deepEqual(callbackHosts(new URL("http://localhost:8484/")), ["127.0.0.1", "::1"]);
  assert.deepEqual(callbackHosts(new URL("http://127.0.0.1:8484/cb")), ["127.0.0.1"]);
  assert.deepEqual(callbackHosts(new URL("http://[::1]:8484/")), ["::1"]);
  assert.throws(() => callbackHosts(new URL("http://example.com:8484/")), /must name localhost/);
  assert.throws(() => callbackHosts(new URL("https://localhost:8484/")), /must use http/);
});

Deno.test("oauth2 callback: provider text is HTML-escaped", () => {
  assert.equal(
    escapeHtml(`<script>"x" & 'y'</script>`),
    "&#60;script&#62;&#34;x&#34; &#38; &#39;y&#39;&#60;/script&#62;",
  );
});
