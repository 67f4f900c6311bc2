/**
 * One trust store for every request and every body: each CA variable users set for curl,
 * OpenSSL, Python and Node is honoured for a GET, a file upload and a form alike.
 * @module
 */
import assert from "node:assert/strict";
import { includes } from "../assert.ts";
import { dial } from "../_helpers.ts";
import { makeCertificates, serveTls } from "./_tls.ts";

Deno.test("trust: SSL_CERT_FILE, SSL_CERT_DIR, CURL_CA_BUNDLE, REQUESTS_CA_BUNDLE, NODE_EXTRA_CA_CERTS and DENO_CERT each trust a CA for GET, -d @file and -F", async () => {
  const certs = await makeCertificates();
  const dir = `${certs.dir}/cadir`;
  await Deno.mkdir(dir);
  await Deno.copyFile(certs.ca, `${dir}/test-ca.pem`);
  await Deno.writeTextFile(`${certs.dir}/body.txt`, "trusted\n");
  await using server = serveTls(
    certs.leaf,
    certs.leafKey,
    async (request) => new Response(`${(await request.arrayBuffer()).byteLength}`),
  );
  const url = `https://localhost:${server.addr.port}/t`;
  const bodies = [[], ["-d", `@${certs.dir}/body.txt`], ["-F", `f=@${certs.dir}/body.txt`]];
  const variables: Record<string, string> = {
    SSL_CERT_FILE: certs.ca,
    SSL_CERT_DIR: dir,
    CURL_CA_BUNDLE: certs.ca,
    REQUESTS_CA_BUNDLE: certs.ca,
    NODE_EXTRA_CA_CERTS: certs.ca,
    DENO_CERT: certs.ca,
  };
  for (const [name, value] of Object.entries(variables)) {
    for (const body of bodies) {
      const result = await dial(["POST", url, ...body, "-s"], { env: { [name]: value } });
      assert.equal(result.code, 0, `${name} ${body.join(" ")}: ${result.stderr}`);
    }
  }
  // Without them the CA is unknown, and the check that failed is named.
  const untrusted = await dial(["POST", url, "-d", `@${certs.dir}/body.txt`]);
  assert.equal(untrusted.code, 60);
  includes(untrusted.stderr, "unknown issuer");
  // A variable naming a file that is not there is a usage error that names it, as curl's.
  const missing = await dial(["GET", url], { env: { CURL_CA_BUNDLE: `${certs.dir}/none.pem` } });
  assert.equal(missing.code, 2);
  includes(missing.stderr, 'Cannot read CURL_CA_BUNDLE "');
  await Deno.remove(certs.dir, { recursive: true });
});
