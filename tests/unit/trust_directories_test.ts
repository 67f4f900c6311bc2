import assert from "node:assert/strict";
import { trustFor } from "../../src/http/trust.ts";

const block = (body: string) => `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`;

Deno.test("trust: SSL_CERT_DIR is read only when asked (an unknown issuer), each certificate once", async () => {
  const root = await Deno.makeTempDir({ prefix: "dial-trust-" });
  try {
    const bundle = `${root}/bundle.pem`;
    await Deno.writeTextFile(bundle, block("QUFB") + block("QkJC"));
    const dir = `${root}/certs`;
    await Deno.mkdir(dir);
    // Debian's layout: the bundle's certificates again, one per file, and one more.
    await Deno.writeTextFile(`${dir}/a.pem`, block("QUFB"));
    await Deno.writeTextFile(`${dir}/c.pem`, block("Q0ND").replaceAll("\n", "\r\n"));
    const variables: Record<string, string> = { SSL_CERT_FILE: bundle, SSL_CERT_DIR: dir };
    const store = trustFor({ env: (name) => variables[name], caCerts: [block("RERE")] });
    // The same certificate named by two variables counts once; the directory is not read yet.
    assert.equal(store.pems.length, 3);
    assert.deepEqual(store.sources.map((s) => s.origin), ["SSL_CERT_FILE", "--cacert"]);
    assert.equal(store.addDirectories(), true);
    assert.equal(store.pems.length, 4);
    assert.ok(store.pems.some((pem) => pem.includes("Q0ND")));
    // --cacert stays last; a second call reads nothing.
    assert.equal(store.sources.at(-1)?.origin, "--cacert");
    assert.equal(store.addDirectories(), false);
    // A directory that adds nothing new: the caller does not connect again.
    const same = trustFor({
      env: (name) => ({ ...variables, SSL_CERT_DIR: `${root}/none` })[name],
    });
    assert.equal(same.addDirectories(), false);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
