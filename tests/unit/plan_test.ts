import assert from "node:assert/strict";
import {
  describePlan,
  planFor,
  selfSignedPlan,
  type TransportOptions,
} from "../../src/http/plan.ts";
import { makeCertificates } from "../e2e/_tls.ts";

const env = (vars: Record<string, string>) => (name: string) => vars[name];
const none = env({});

/** What a plan decides, flattened for a table. */
function summary(url: string, options: TransportOptions, kind?: "fetch" | "websocket"): string {
  const plan = planFor(new URL(url), { env: none, ...options }, kind);
  const at = plan.endpoint.kind === "unix"
    ? `unix:${plan.endpoint.path}`
    : `${plan.endpoint.hostname}:${plan.endpoint.port}`;
  return [
    at,
    plan.proxy ? `${plan.proxy.mode}(${plan.proxy.source} ${plan.proxy.authority})` : "direct",
    plan.tls ? `${plan.tls.connector}${plan.tls.why ? `:${plan.tls.why}` : ""}` : "plain",
    plan.tls ? plan.tls.alpn.join(",") : "-",
    plan.connectTimeoutMs ?? "-",
  ].join(" ");
}

Deno.test("plan: one table of how each flag and variable routes a request", async () => {
  const certs = await makeCertificates();
  const self = Deno.readTextFileSync(certs.self);
  const ca = Deno.readTextFileSync(certs.ca);
  const cases: Array<[string, TransportOptions, string, ("fetch" | "websocket")?]> = [
    ["http://a.test/", {}, "a.test:80 direct plain - -"],
    ["https://a.test/", {}, "a.test:443 direct deno h2,http/1.1 -"],
    ["https://a.test:8443/", { caCerts: [ca] }, "a.test:8443 direct deno h2,http/1.1 -"],
    // A self-signed certificate is looked for only when Deno's TLS refuses it (selfSignedPlan).
    ["https://localhost/", { caCerts: [self] }, "localhost:443 direct deno h2,http/1.1 -"],
    ["https://other.test/", { caCerts: [self] }, "other.test:443 direct deno h2,http/1.1 -"],
    ["https://a.test/", { insecure: true }, "a.test:443 direct node:insecure h2,http/1.1 -"],
    ["http://a.test/", { insecure: true }, "a.test:80 direct plain - -"],
    [
      "https://a.test/",
      { cert: "c", key: { reveal: () => "k" } as never },
      "a.test:443 direct node:client-certificate h2,http/1.1 -",
    ],
    ["https://a.test/", { connectTimeoutMs: 500 }, "a.test:443 direct deno h2,http/1.1 500"],
    [
      "http://a.test/x",
      { proxy: "p.test:3128" },
      "p.test:3128 forward(--proxy a.test:80) plain - -",
    ],
    [
      "https://a.test/",
      { proxy: "http://p.test:3128" },
      "p.test:3128 tunnel(--proxy a.test:443) deno h2,http/1.1 -",
    ],
    [
      "http://a.test/",
      { proxy: "", env: env({ http_proxy: "http://p:1" }) },
      "a.test:80 direct plain - -",
    ],
    // One precedence for the variables: lower case first, an empty value counts as unset.
    [
      "http://a.test/",
      { env: env({ HTTP_PROXY: "", http_proxy: "http://low:1" }) },
      "low:1 forward(HTTP_PROXY a.test:80) plain - -",
    ],
    [
      "http://a.test/",
      { env: env({ HTTP_PROXY: "http://up:2", http_proxy: "http://low:1" }) },
      "low:1 forward(HTTP_PROXY a.test:80) plain - -",
    ],
    [
      "https://a.test/",
      { env: env({ HTTPS_PROXY: "http://up:2" }) },
      "up:2 tunnel(HTTPS_PROXY a.test:443) deno h2,http/1.1 -",
    ],
    // --noproxy and NO_PROXY apply to a proxy from the environment too.
    [
      "http://127.0.0.1:8080/",
      { noProxy: "127.0.0.1", env: env({ HTTP_PROXY: "http://p:1" }) },
      "127.0.0.1:8080 direct plain - -",
    ],
    [
      "http://127.0.0.1:8080/",
      { env: env({ http_proxy: "http://p:1", NO_PROXY: "127.0.0.1" }) },
      "127.0.0.1:8080 direct plain - -",
    ],
    [
      "http://127.0.0.1:8080/",
      { env: env({ http_proxy: "http://p:1", no_proxy: "", NO_PROXY: "127.0.0.1" }) },
      "127.0.0.1:8080 direct plain - -",
    ],
    // Address overrides change where the socket goes, not the host the request names.
    [
      "https://a.test/",
      { resolve: ["a.test:443:127.0.0.1"] },
      "127.0.0.1:443 direct deno h2,http/1.1 -",
    ],
    [
      "https://a.test/",
      { resolve: ["a.test:80:127.0.0.1"] },
      "a.test:443 direct deno h2,http/1.1 -",
    ],
    ["http://a.test/", { resolve: ["*:80:[::1]"] }, "::1:80 direct plain - -"],
    ["http://a.test/", { connectTo: ["a.test:80:b.test:8080"] }, "b.test:8080 direct plain - -"],
    ["http://a.test/", { connectTo: ["::127.0.0.1:"] }, "127.0.0.1:80 direct plain - -"],
    ["http://a.test/", { unixSocket: "/run/x.sock" }, "unix:/run/x.sock direct plain - -"],
    [
      "https://a.test/",
      { unixSocket: "/run/x.sock" },
      "unix:/run/x.sock direct node:unix-socket h2,http/1.1 -",
    ],
    [
      "http://a.test/",
      { unixSocket: "/run/x.sock", env: env({ HTTP_PROXY: "http://p:1" }) },
      "unix:/run/x.sock direct plain - -",
    ],
    [
      "https://a.test/",
      { proxy: "http://p:1", connectTo: ["a.test:443:b.test:9443"] },
      "p:1 tunnel(--proxy b.test:9443) deno h2,http/1.1 -",
    ],
    // A WebSocket handshake is HTTP/1.1.
    ["wss://a.test/", {}, "a.test:443 direct deno http/1.1 -", "websocket"],
  ];
  const failures: string[] = [];
  for (const [url, options, expected, kind] of cases) {
    const actual = summary(url, options, kind);
    if (actual !== expected) {
      failures.push(`${url} ${JSON.stringify(options)}\n  got  ${actual}\n  want ${expected}`);
    }
  }
  assert.deepEqual(failures, []);
  await Deno.remove(certs.dir, { recursive: true });
});

Deno.test("plan: a self-signed certificate refused by Deno's TLS moves only the hosts it names to node:tls", async () => {
  const certs = await makeCertificates();
  const self = Deno.readTextFileSync(certs.self);
  const again = selfSignedPlan(
    planFor(new URL("https://localhost/"), { caCerts: [self], env: none }),
  );
  assert.equal(again?.tls?.connector, "node");
  assert.equal(again?.tls?.why, "self-signed");
  assert.deepEqual(describePlan(again!), [
    "* TLS to localhost:443 with node:tls (self-signed --cacert)",
  ]);
  const other = planFor(new URL("https://other.test/"), { caCerts: [self], env: none });
  assert.equal(selfSignedPlan(other), undefined);
  // Only the user's own files are searched: the OS store holds roots.
  assert.equal(selfSignedPlan(planFor(new URL("https://localhost/"), { env: none })), undefined);
  await Deno.remove(certs.dir, { recursive: true });
});

Deno.test("plan: curl's --resolve and --connect-to syntax is checked before anything is sent", () => {
  for (const resolve of ["a.test:443", "a.test:x:1.2.3.4", "a.test::1.2.3.4"]) {
    assert.throws(
      () => planFor(new URL("http://a.test/"), { resolve: [resolve], env: none }),
      /--resolve/,
    );
  }
  assert.throws(
    () => planFor(new URL("http://a.test/"), { connectTo: ["a.test:80:b"], env: none }),
    /--connect-to/,
  );
});

Deno.test("plan: -v names the proxy, the override and why node:tls is used", () => {
  const lines = (url: string, options: TransportOptions) =>
    describePlan(planFor(new URL(url), { env: none, ...options }));
  assert.deepEqual(lines("http://a.test/", {}), []);
  assert.deepEqual(lines("https://a.test/", { proxy: "http://user:pw@p:1" }), [
    "* Proxy http://p:1 (--proxy) for a.test:443: tunnel (CONNECT a.test:443)",
  ]);
  assert.deepEqual(lines("http://a.test/", { resolve: ["a.test:80:127.0.0.1"] }), [
    "* Connect to 127.0.0.1:80 for a.test:80 (--resolve)",
  ]);
  assert.deepEqual(lines("https://a.test/", { insecure: true }), [
    "* TLS to a.test:443 with node:tls (-k, certificate not verified)",
  ]);
});
