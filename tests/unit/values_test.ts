import { assertEquals, assertThrows } from "../assert.ts";
import {
  parseHeaderFlag as parseHeader,
  parseQueryKey,
  parseSeconds,
} from "../../src/cli/flag_values.ts";
import { parseHeader as parseCoreHeader, parseMethod, parseUrl } from "../../src/http/values.ts";
import { UsageError } from "../../src/errors.ts";
import { Secret } from "../../src/secret.ts";

Deno.test("values: -H keeps colons in the value and trims whitespace", () => {
  const h = parseHeader("  X-Trace :  a:b:c  ");
  assertEquals(h, { name: "X-Trace", value: "a:b:c" });
});

Deno.test("values: -H with a credential-looking name wraps the value as a secret", () => {
  const h = parseHeader("X-Api-Key: k1");
  assertEquals(h.value instanceof Secret, true);
  assertEquals(String(h.value), "(redacted)");
  assertEquals((h.value as Secret).reveal(), "k1");
});

Deno.test("values: -H without a colon is a usage error", () => {
  assertThrows(() => parseHeader("X-Foo"), UsageError, 'Cannot parse -H header: missing ":"');
});

Deno.test("values: -H with an invalid name is a usage error", () => {
  assertThrows(() => parseHeader("Bad(Name): x"), UsageError, 'invalid header name "Bad(Name)"');
  // A name with spaces is likely a value typed without its colon: not echoed.
  assertThrows(
    () => parseHeader("Authorization Bearer S3CRET: x"),
    UsageError,
    "Cannot parse -H header: invalid header name",
  );
});

Deno.test("values: -K splits at the first =", () => {
  const key = parseQueryKey("sig=a=b");
  assertEquals(key.name, "sig");
  assertEquals(key.value.reveal(), "a=b");
});

Deno.test("values: -K without = is a usage error", () => {
  assertThrows(() => parseQueryKey("apikey"), UsageError, "expected <name>=<value>");
  assertThrows(() => parseQueryKey("=v"), UsageError, "expected <name>=<value>");
});

Deno.test("values: URLs must be absolute http(s)", () => {
  assertEquals(parseUrl("https://x.test/a").href, "https://x.test/a");
  assertThrows(
    () => parseUrl("x.test/a"),
    UsageError,
    'Invalid URL "x.test/a": not an absolute URL',
  );
  assertThrows(() => parseUrl("ftp://x.test/"), UsageError, "scheme must be http: or https:");
});

Deno.test("values: methods are HTTP tokens kept as written", () => {
  assertEquals(parseMethod("PROPFIND"), "PROPFIND");
  assertEquals(parseMethod("purge"), "purge");
  assertThrows(() => parseMethod("GE T"), UsageError, "not an HTTP token");
});

Deno.test("values: --timeout takes decimal seconds", () => {
  assertEquals(parseSeconds("0.25", "--timeout"), 250);
  assertThrows(() => parseSeconds("-1", "--timeout"), UsageError, "positive number of seconds");
  assertThrows(() => parseSeconds("abc", "--timeout"), UsageError);
});

Deno.test("values: the core header parser names no flag; the CLI's names -H", () => {
  assertThrows(() => parseCoreHeader("X-Foo"), UsageError, 'Cannot parse header: missing ":"');
  const core = assertThrows(() => parseCoreHeader("Bad(Name): x"), UsageError) as UsageError;
  assertEquals(core.hint, 'write "Name: value"; a name has no spaces or separators');
  const cli = assertThrows(() => parseHeader("Bad(Name): x"), UsageError) as UsageError;
  assertEquals(cli.hint, 'write -H "Name: value"; a name has no spaces or separators');
});
