import assert from "node:assert/strict";
import { startUiServer, type UiServer } from "../../src/ui/server.ts";
import { closeTransports } from "../../src/http/client.ts";
import { makeCertificates, serveTls } from "../e2e/_tls.ts";

const ASSETS = { js: "/* app */", css: "/* css */" };

async function send(server: UiServer, url: string): Promise<{ status: number; json: unknown }> {
  const entry = await fetch(server.url, { redirect: "manual" });
  await entry.body?.cancel();
  const cookie = (entry.headers.get("set-cookie") ?? "").split(";")[0]!;
  const response = await fetch(new URL("/api/http", server.url), {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: cookie },
    body: JSON.stringify({ method: "GET", url }),
  });
  return { status: response.status, json: await response.json() };
}

Deno.test("ui server: a certificate failure reaches the app in words; dial ui --cacert trusts the CA", async () => {
  const certs = await makeCertificates();
  const target = serveTls(certs.leaf, certs.leafKey, () => new Response("secure"));
  const url = `https://localhost:${target.addr.port}/`;
  try {
    {
      await using server = await startUiServer({ assets: ASSETS });
      const failed = await send(server, url);
      assert.equal(failed.status, 502);
      assert.deepEqual(failed.json, {
        error: {
          message:
            `Cannot verify the TLS certificate of localhost:${target.addr.port}: unknown issuer (not signed by a trusted certificate authority)`,
          hint:
            "trust its CA (or the self-signed certificate itself) with --cacert file.pem, or skip verification for this run with -k (insecure)",
          code: "transport",
        },
      });
    }
    {
      await using server = await startUiServer({
        assets: ASSETS,
        transport: { caCerts: [await Deno.readTextFile(certs.ca)] },
      });
      const trusted = await send(server, url);
      assert.equal(trusted.status, 200);
      assert.equal((trusted.json as { status: number; body: string }).status, 200);
      assert.equal((trusted.json as { body: string }).body, "secure");
    }
  } finally {
    closeTransports();
    await target.shutdown();
    await Deno.remove(certs.dir, { recursive: true });
  }
});
