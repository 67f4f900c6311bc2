import assert from "node:assert/strict";
import { startUiServer, type UiServer } from "../../src/ui/server.ts";
import { makeCertificates, serveTls } from "../e2e/_tls.ts";
import { apiHeaders, sessionOf } from "./_session.ts";

const ASSETS = { js: "/* app */", css: "/* css */" };

async function send(server: UiServer, url: string): Promise<{ status: number; json: unknown }> {
  const response = await fetch(new URL("/api/http", server.url), {
    method: "POST",
    headers: apiHeaders(await sessionOf(server)),
    body: JSON.stringify({ method: "GET", url }),
  });
  // One NDJSON line: the response, or the error.
  const event = JSON.parse(await response.text());
  return event.type === "response"
    ? { status: event.response.status, json: event.response }
    : { status: 502, json: { error: event.error } };
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
          code: "transport",
          message:
            `Cannot verify the TLS certificate of localhost:${target.addr.port}: unknown issuer (not signed by a trusted certificate authority)`,
          hint:
            "add its CA as a CA file in TLS and proxy settings, or tick Skip certificate checks there (insecure)",
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
      assert.equal((trusted.json as { body: string }).body, "secure");
      // The protocol the server's TLS chose (Deno.serve offers HTTP/2) reaches the app.
      assert.equal((trusted.json as { version: string }).version, "HTTP/2");
    }
  } finally {
    await target.shutdown();
    await Deno.remove(certs.dir, { recursive: true });
  }
});
