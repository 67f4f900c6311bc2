import assert from "node:assert/strict";
import {
  parseHeaderFlag as parseHeader,
  parseQueryKey,
  parseSeconds,
} from "../../src/cli/flag_values.ts";
import { parseHeader as parseCoreHeader, parseMethod, parseUrl } from "../../src/http/values.ts";
import { UsageError, wordRemedy } from "../../src/errors/mod.ts";
import { cliHint } from "../../src/cli/cli_remedies.ts";
import { UI_REMEDIES } from "../../src/ui/api/ui_remedies.ts";
import { Secret } from "../../src/secret.ts";

Deno.test("values: -H keeps colons in the value and trims whitespace", () => {
  const h = parseHeader("  X-Trace :  a:b:c  ");
  assert.deepEqual(h, { name: "X-Trace", value: "a:b:c" });
});

Deno.test("values: -H with a credential-looking name wraps the value as a secret", () => {
  const h = parseHeader("X-Api-Key: k1");
  assert.equal(h.value instanceof Secret, true);
  assert.equal(String(h.value), "(redacted)");
  assert.equal((h.value as Secret).reveal(), "k1");
});

Deno.test("values: -H without a colon is a usage error", () => {
  assert.throws(
    () => parseHeader("X-Foo"),
    (error: unknown) =>
      error instanceof UsageError && error.message.includes('Cannot parse -H header: missing ":"'),
  );
});

Deno.test("values: -H with an invalid name is a usage error", () => {
  assert.throws(
    () => parseHeader("Bad(Name): x"),
    (error: unknown) =>
      error instanceof UsageError && error.message.includes('invalid header name "Bad(Name)"'),
  );
  // A name with spaces is likely a value typed without its colon: not echoed.
  assert.throws(
    () => parseHeader("Authorization Bearer S3CRET: x"),
    (error: unknown) =>
      error instanceof UsageError &&
      error.message.includes("Cannot parse -H header: invalid header name"),
  );
});

Deno.test("values: -K splits at the first =", () => {
  const key = parseQueryKey("sig=a=b");
  assert.equal(key.name, "sig");
  assert.equal(key.value.reveal(), "a=b");
});

Deno.test("values: -K without = is a usage error", () => {
  assert.throws(
    () => parseQueryKey("apikey"),
    (error: unknown) =>
      error instanceof UsageError && error.message.includes("expected <name>=<value>"),
  );
  assert.throws(
    () => parseQueryKey("=v"),
    (error: unknown) =>
      error instanceof UsageError && error.message.includes("expected <name>=<value>"),
  );
});

Deno.test("values: URLs must be absolute http(s)", () => {
  assert.equal(parseUrl("https://x.test/a").href, "https://x.test/a");
  assert.throws(
    () => parseUrl("x.test/a"),
    (error: unknown) =>
      error instanceof UsageError &&
      error.message.includes('Invalid URL "x.test/a": not an absolute URL'),
  );
  assert.throws(
    () => parseUrl("ftp://x.test/"),
    (error: unknown) =>
      error instanceof UsageError && error.message.includes("scheme must be http: or https:"),
  );
});

Deno.test("values: a scheme or host that cannot be one is a usage error before any lookup", () => {
  const cases: Array<[string, RegExp]> = [
    ["ht!tp://x", /"ht!tp" is not a scheme/],
    ["http://http://x", /the scheme is not written as scheme:\/\//],
    ["http//x.test", /the scheme is not written as scheme:\/\//],
    ["http:x.test", /the scheme is not written as scheme:\/\//],
    ["https:/x.test", /the scheme is not written as scheme:\/\//],
    ["http://a_b!.test/", /"a_b!.test" cannot be a host name/],
    ["http://exa mple.com/", /not a valid URL/],
  ];
  for (const [text, pattern] of cases) {
    assert.throws(
      () => parseUrl(text, undefined, true),
      (error: unknown) =>
        error instanceof UsageError && pattern.test(error.message) &&
        !`${error.hint}`.includes("http://http"),
      text,
    );
  }
  for (
    const text of ["localhost:8080/x", "http://xn--caf-dma.test/", "http://[::1]:9/", "a_b.test"]
  ) {
    assert.ok(parseUrl(text, undefined, true), text);
  }
});

Deno.test("values: methods are HTTP tokens kept as written", () => {
  assert.equal(parseMethod("PROPFIND"), "PROPFIND");
  assert.equal(parseMethod("purge"), "purge");
  assert.throws(
    () => parseMethod("GE T"),
    (error: unknown) => error instanceof UsageError && error.message.includes("not an HTTP token"),
  );
});

Deno.test("values: --timeout takes decimal seconds", () => {
  assert.equal(parseSeconds("0.25", "--timeout"), 250);
  assert.throws(
    () => parseSeconds("-1", "--timeout"),
    (error: unknown) =>
      error instanceof UsageError && error.message.includes("positive number of seconds"),
  );
  assert.throws(() => parseSeconds("abc", "--timeout"), UsageError);
});

Deno.test("values: the core header parser names no flag; the CLI's names -H", () => {
  assert.throws(
    () => parseCoreHeader("X-Foo"),
    (error: unknown) =>
      error instanceof UsageError && error.message.includes('Cannot parse header: missing ":"'),
  );
  assert.throws(() => parseCoreHeader("Bad(Name): x"), (error: unknown) => {
    assert.ok(error instanceof UsageError, `expected a UsageError, got ${error}`);
    assert.deepEqual(error.remedy, { write: "header_name" });
    assert.equal(
      wordRemedy(error.remedy, error.details, UI_REMEDIES),
      "a header name has no spaces or separators",
    );
    return true;
  });
  assert.throws(() => parseHeader("Bad(Name): x"), (error: unknown) => {
    assert.ok(error instanceof UsageError, `expected a UsageError, got ${error}`);
    assert.equal(cliHint(error), 'write -H "Name: value"; a name has no spaces or separators');
    return true;
  });
});
