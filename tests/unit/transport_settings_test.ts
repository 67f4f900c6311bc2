import assert from "node:assert/strict";
import { readTransportSettings } from "../../src/http/transport_settings.ts";
import { transportSettingFlags } from "../../src/ui/api/connection_api.ts";
import { UsageError } from "../../src/errors/mod.ts";

const NAMES = { cacert: "CA file", cert: "Client certificate", key: "Client key", proxy: "Proxy" };
const PEM = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";

function files(map: Record<string, string>) {
  return (path: string) =>
    path in map ? Promise.resolve(map[path]!) : Promise.reject(new Deno.errors.NotFound(path));
}

Deno.test("transport settings: files are read into the plan's options, named as the face names them", async () => {
  const options = await readTransportSettings(
    { cacert: ["a.pem"], cert: "c.pem", key: "k.pem", insecure: true, proxy: "http://p:3128" },
    NAMES,
    files({ "a.pem": PEM, "c.pem": PEM, "k.pem": "-----BEGIN PRIVATE KEY-----\nx\n" }),
  );
  assert.deepEqual(options.caCerts, [PEM]);
  assert.equal(options.cert, PEM);
  assert.equal(String(options.key), "(redacted)");
  assert.equal(options.insecure, true);
  assert.equal(options.proxy, "http://p:3128");
  await assert.rejects(
    () => readTransportSettings({ cacert: ["gone.pem"] }, NAMES, files({})),
    (e) => e instanceof UsageError && e.message === 'Cannot read CA file "gone.pem": no such file',
  );
  await assert.rejects(
    () => readTransportSettings({ cacert: ["a.der"] }, NAMES, files({ "a.der": "0\x82" })),
    /Invalid CA file "a.der": not a PEM file/,
  );
  await assert.rejects(
    () => readTransportSettings({ proxy: "ftp://p" }, NAMES),
    /Invalid Proxy "ftp:\/\/p": only http:\/\/, https:\/\/, socks5:\/\/ and socks5h:\/\/ proxies/,
  );
});

Deno.test("transport settings: an encrypted key is refused (no passphrase is asked for or kept)", async () => {
  for (
    const key of [
      "-----BEGIN ENCRYPTED PRIVATE KEY-----\nx\n",
      "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n",
    ]
  ) {
    await assert.rejects(
      () =>
        readTransportSettings(
          { cert: "c.pem", key: "k.pem" },
          NAMES,
          files({ "c.pem": PEM, "k.pem": key }),
        ),
      /Cannot use Client key "k\.pem": it is encrypted/,
    );
  }
});

Deno.test("transport settings: the dial flags that give the same settings", () => {
  assert.deepEqual(
    transportSettingFlags({
      cacert: ["a.pem", "b.pem"],
      cert: "c.pem",
      key: "k.pem",
      insecure: true,
      proxy: "http://p:1",
      noproxy: "localhost",
    }),
    [
      "--cacert",
      "a.pem",
      "--cacert",
      "b.pem",
      "--cert",
      "c.pem",
      "--key",
      "k.pem",
      "-k",
      "--proxy",
      "http://p:1",
      "--noproxy",
      "localhost",
    ],
  );
});
