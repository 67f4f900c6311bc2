import assert from "node:assert/strict";
import { selfSignedServerCertificates } from "../../src/http/certificates.ts";
import { planFor, selfSignedPlan } from "../../src/http/plan.ts";
import { bypasses, chooseProxy } from "../../src/http/proxy.ts";
import { proxyError, tlsError } from "../../src/http/transport_error.ts";
import { makeCertificates } from "../e2e/_tls.ts";
import { cliHint } from "../../src/cli/cli_remedies.ts";

const env = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("proxy: HTTPS_PROXY for https and wss, HTTP_PROXY for http and ws, lower case first", () => {
  const vars = env({ HTTP_PROXY: "http://plain:1", https_proxy: "secure:2", HTTPS_PROXY: "x:3" });
  assert.equal(chooseProxy(new URL("http://a.test/"), { env: vars })?.url.href, "http://plain:1/");
  assert.equal(chooseProxy(new URL("ws://a.test/"), { env: vars })?.source, "HTTP_PROXY");
  assert.equal(chooseProxy(new URL("wss://a.test/"), { env: vars })?.url.href, "http://secure:2/");
  assert.equal(chooseProxy(new URL("https://a.test/"), { env: env({}) }), undefined);
});

Deno.test('proxy: --proxy wins over the environment, and "" means none', () => {
  const vars = env({ HTTP_PROXY: "http://env:1" });
  const url = new URL("http://a.test/");
  assert.equal(chooseProxy(url, { proxy: "http://flag:2", env: vars })?.source, "--proxy");
  assert.equal(chooseProxy(url, { proxy: "", env: vars }), undefined);
  assert.equal(chooseProxy(url, { proxy: "socks5h://s:1" })?.url.href, "socks5h://s:1");
  assert.throws(
    () => chooseProxy(url, { proxy: "socks4://s:1" }),
    /only http:\/\/, https:\/\/, socks5:\/\/ and socks5h:\/\/ proxies/,
  );
  // ALL_PROXY when the scheme's own variable is unset (curl's order).
  const all = env({ ALL_PROXY: "socks5://all:3", HTTPS_PROXY: "http://secure:2" });
  assert.equal(chooseProxy(url, { env: all })?.source, "ALL_PROXY");
  assert.equal(chooseProxy(new URL("https://a.test/"), { env: all })?.source, "HTTPS_PROXY");
});

Deno.test("proxy: a run's options read each variable once, not at every request", () => {
  const reads: string[] = [];
  const options = {
    env: (name: string) => {
      reads.push(name);
      return name === "HTTP_PROXY" ? "http://env:1" : undefined;
    },
  };
  for (let i = 0; i < 3; i++) {
    assert.equal(planFor(new URL("http://a.test/"), options).proxy?.url.href, "http://env:1/");
    assert.equal(planFor(new URL("https://b.test/"), options).proxy, undefined);
  }
  // Each once (the CA variables of https too: once per process, trust.ts).
  assert.equal(new Set(reads).size, reads.length);
  assert.deepEqual(reads.filter((name) => /proxy/i.test(name)).toSorted(), [
    "ALL_PROXY",
    "HTTPS_PROXY",
    "HTTP_PROXY",
    "NO_PROXY",
    "all_proxy",
    "http_proxy",
    "https_proxy",
    "no_proxy",
  ]);
  // Other options (another run, or a program that changed its environment) read again.
  const before = reads.length;
  planFor(new URL("http://a.test/"), { env: options.env });
  assert.ok(reads.length > before);
});

Deno.test("proxy: --noproxy and NO_PROXY match hosts, subdomains, ports and *", () => {
  const url = new URL("https://api.example.com:8443/");
  assert.ok(bypasses(url, "example.com"));
  assert.ok(bypasses(url, ".example.com"));
  assert.ok(bypasses(url, "other.test, api.example.com:8443"));
  assert.ok(!bypasses(url, "api.example.com:443"));
  assert.ok(!bypasses(url, "ample.com"));
  assert.ok(bypasses(url, "*"));
  assert.ok(bypasses(new URL("http://[::1]:8080/"), "::1"));
  const vars = env({ HTTPS_PROXY: "http://p:1", NO_PROXY: "example.com" });
  assert.equal(chooseProxy(url, { env: vars }), undefined);
  assert.ok(chooseProxy(url, { env: vars, noProxy: "other.test" }), "--noproxy replaces NO_PROXY");
});

Deno.test("certificates: only a self-signed CA:TRUE certificate with a subjectAltName is a self-signed server certificate", async () => {
  const certs = await makeCertificates();
  const read = (path: string) => Deno.readTextFileSync(path);
  assert.equal(selfSignedServerCertificates([read(certs.self)]).length, 1);
  assert.equal(selfSignedServerCertificates([read(certs.ca)]).length, 0);
  assert.equal(selfSignedServerCertificates([read(certs.leaf)]).length, 0);
  assert.equal(selfSignedServerCertificates([read(certs.ca) + read(certs.self)]).length, 1);
  assert.deepEqual(selfSignedServerCertificates(["not a certificate"]), []);
  assert.deepEqual(selfSignedServerCertificates([read(certs.self)])[0]?.names, [
    "localhost",
    "127.0.0.1",
  ]);
  // Only the hosts the self-signed certificate names take node:tls.
  const options = { caCerts: [read(certs.self)], env: env({}) };
  const why = (url: string) => selfSignedPlan(planFor(new URL(url), options))?.tls?.why;
  assert.equal(why("https://localhost:8443/"), "self-signed");
  assert.equal(why("wss://127.0.0.1/"), "self-signed");
  assert.equal(why("https://example.com/"), undefined);
  await Deno.remove(certs.dir, { recursive: true });
});

Deno.test("tls errors: each failed check in words, with the flag that helps", () => {
  // The exit codes are curl's: 60 for a certificate that cannot be verified, 35 for a handshake.
  const cases: Array<[string, RegExp, RegExp, number]> = [
    ["invalid peer certificate: UnknownIssuer", /unknown issuer/, /--cacert/, 60],
    [
      "invalid peer certificate: Other(OtherError(CaUsedAsEndEntity))",
      /self-signed/,
      /--cacert/,
      60,
    ],
    ["invalid peer certificate: Expired", /certificate expired/, /clock/, 60],
    [
      'invalid peer certificate: certificate not valid for name "a.test"; certificate is only valid for DnsName("b.test")',
      /name mismatch/,
      /host name the certificate names/,
      60,
    ],
    ["received fatal alert: CertificateRequired", /requires a client certificate/, /--cert/, 35],
  ];
  for (const [message, words, hint, exit] of cases) {
    const error = tlsError(
      new TypeError("fetch failed", { cause: new Error(message) }),
      "a.test:443",
    );
    assert.ok(error, message);
    assert.equal(error.exitCode, exit);
    assert.match(error.message, words);
    assert.match(cliHint(error) ?? "", hint);
  }
  assert.equal(
    tlsError(new Error("tcp connect error: Connection refused"), "a.test:443"),
    undefined,
  );
});

Deno.test("proxy errors: refusal and unknown host name the proxy, not the origin", () => {
  const proxy = { url: new URL("http://user:pw@proxy.test:3128"), source: "--proxy" as const };
  const refused = proxyError(
    new Error("client error (Connect): tcp connect error: Connection refused"),
    proxy,
  );
  assert.equal(
    refused?.message,
    "Cannot reach proxy http://proxy.test:3128 (--proxy): connection refused",
  );
  assert.doesNotMatch(refused?.message ?? "", /pw/);
  assert.equal(proxyError(new Error("something else"), proxy), undefined);
  const tunnel = proxyError(
    new Error("unsuccessful tunnel: the proxy answered CONNECT with HTTP 403 Forbidden"),
    proxy,
    "a.test:80",
  );
  assert.equal(
    tunnel?.message,
    "Proxy http://proxy.test:3128 (--proxy) refused to tunnel to a.test:80: HTTP 403 Forbidden",
  );
});
