/**
 * Imports never write secrets into shareable files: credential-named collection variables and
 * environment values, headers (`X-Authy-API-Key`, `X-Auth-Key` …), query parameters
 * (`access_token`, `api_key`), form fields, URL user information and a Basic user name with an
 * empty password (Stripe's key) go to `http-client.private.env.json`, each listed in the
 * report; the imported files still send what Newman and curl send to one recording server.
 * @module
 */
import assert from "node:assert/strict";
import { insomnia, insomniaExport } from "../_insomnia.ts";
import { dial } from "../_helpers.ts";
import { newman, postmanCollection, postmanEnvironment, seenHeaders } from "./_newman.ts";
import { headerValues, rawServer } from "./_raw_server.ts";

const decoder = new TextDecoder();

const SECRETS = [
  "EFpaypalSecret1",
  "authyKey123",
  "cfKey456",
  "sk_test_stripe789",
  "qsToken321",
  "formSecret654",
  "envTok987",
  "bearerRaw111",
];

const seen = seenHeaders({
  authorization: "authorization",
  authy: "x-authy-api-key",
  cf: "x-auth-key",
});

function collection(origin: string) {
  return postmanCollection("Vendors", {
    variable: [
      { key: "base", value: origin },
      { key: "client_secret", value: "EFpaypalSecret1" },
      { key: "token_url", value: `${origin}/token` },
    ],
    item: [
      {
        name: "Twilio",
        item: [{
          name: "Verify",
          request: {
            method: "GET",
            header: [{ key: "X-Authy-API-Key", value: "authyKey123" }],
            url: "{{base}}/verify?access_token=qsToken321&page=2",
          },
        }],
      },
      {
        name: "Cloudflare zones",
        request: {
          method: "GET",
          header: [{ key: "X-Auth-Key", value: "cfKey456" }],
          url: "{{base}}/zones",
        },
      },
      {
        name: "Stripe charge",
        request: {
          method: "POST",
          auth: {
            type: "basic",
            basic: [{ key: "username", value: "sk_test_stripe789" }, {
              key: "password",
              value: "",
            }],
          },
          body: {
            mode: "urlencoded",
            urlencoded: [{ key: "amount", value: "100" }, {
              key: "client_secret",
              value: "formSecret654",
            }],
          },
          url: "{{base}}/v1/charges",
        },
      },
      {
        name: "PayPal token",
        request: {
          method: "POST",
          header: [{ key: "Authorization", value: "Bearer bearerRaw111" }],
          body: { mode: "raw", raw: "secret={{client_secret}}&env={{envToken}}" },
          url: "{{base}}/v1/oauth2/token",
        },
      },
    ],
  });
}

const ENV = postmanEnvironment("dev", [
  { key: "envToken", value: "envTok987", type: "default", enabled: true },
]);

Deno.test("import: secrets of a Postman collection and environment go to the private env file, listed, and the requests match Newman's", async () => {
  await using server = rawServer();
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/c.json`, JSON.stringify(collection(server.origin)));
  await Deno.writeTextFile(`${dir}/e.json`, JSON.stringify(ENV));
  await newman([`${dir}/c.json`, "-e", `${dir}/e.json`], { pass: true });
  const byNewman = server.requests.splice(0).map(seen);
  assert.equal(byNewman.length, 4);

  const imported = await dial(["import", "c.json", "e.json", "--out", "api"], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  const shared = [...Deno.readDirSync(`${dir}/api`)].map((e) => e.name)
    .filter((n) => n !== "http-client.private.env.json");
  assert.ok(shared.length >= 3, shared.join());
  for (const name of shared) {
    const text = await Deno.readTextFile(`${dir}/api/${name}`);
    for (const secret of SECRETS) assert.ok(!text.includes(secret), `${secret} in ${name}`);
  }
  const priv = await Deno.readTextFile(`${dir}/api/http-client.private.env.json`);
  for (const secret of SECRETS) assert.ok(priv.includes(secret), `${secret} not private`);
  // The report names each one moved.
  for (
    const what of [
      'variable "client_secret"',
      'variable "envToken"',
      'header "X-Authy-API-Key"',
      'header "X-Auth-Key"',
      'query parameter "access_token"',
      'form field "client_secret"',
      "Basic user name",
      'header "Authorization"',
    ]
  ) assert.ok(imported.stderr.includes(what), `${what} not reported:\n${imported.stderr}`);
  // Not a credential: stays in the shared file.
  assert.match(await Deno.readTextFile(`${dir}/api/02-vendors.http`), /@token_url = /);

  const files = ["01-twilio.http", "02-vendors.http"];
  for (const file of files) {
    const ran = await dial(["run", `api/${file}`, "--env", "dev"], { cwd: dir });
    assert.equal(ran.code, 0, ran.stderr);
  }
  const byDial = server.requests.splice(0).map(seen);
  const order = (a: { line: string }, b: { line: string }) => a.line.localeCompare(b.line);
  assert.deepEqual(byDial.sort(order), byNewman.sort(order));
});

Deno.test("import: a curl command's key, Basic user and token query go to the private env file and the import sends curl's request", async () => {
  await using server = rawServer();
  const dir = await Deno.makeTempDir();
  const command =
    `curl -sS -o /dev/null -u sk_live_abc123: -H 'X-Api-Key: hdrKey42' '${server.origin}/v1/items?api_key=qKey77&q=1'`;
  const out = await new Deno.Command("bash", { args: ["-c", command] }).output();
  assert.equal(out.code, 0, decoder.decode(out.stderr));
  await Deno.writeTextFile(`${dir}/cmd.sh`, command);
  const imported = await dial(["import", "cmd.sh", "--out", "."], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  const http = [...Deno.readDirSync(dir)].map((e) => e.name).find((n) => n.endsWith(".http"))!;
  const text = await Deno.readTextFile(`${dir}/${http}`);
  for (const secret of ["sk_live_abc123", "hdrKey42", "qKey77"]) {
    assert.ok(!text.includes(secret), text);
    assert.ok(imported.stderr.includes("Moved to http-client.private.env.json"), imported.stderr);
  }
  const ran = await dial(["run", http, "--env", "imported"], { cwd: dir });
  assert.equal(ran.code, 0, ran.stderr);
  const [fromCurl, fromDial] = server.requests.map((r) => ({
    line: r.line,
    authorization: headerValues(r, "authorization"),
    key: headerValues(r, "x-api-key"),
  }));
  assert.deepEqual(fromDial, fromCurl);
});

Deno.test("import: a HAR's API key header and access_token query, and an Insomnia environment's token, go to the private env file", async () => {
  const dir = await Deno.makeTempDir();
  const har = {
    log: {
      version: "1.2",
      creator: { name: "Chromium", version: "1" },
      entries: [{
        request: {
          method: "GET",
          url: "http://127.0.0.1:9/api/me?access_token=harTok1&x=1",
          headers: [
            { name: "X-Api-Key", value: "harKey2" },
            { name: "Accept", value: "*/*" },
            { name: "Cookie", value: "sid=harSid3" },
          ],
        },
      }],
    },
  };
  await Deno.writeTextFile(`${dir}/page.har`, JSON.stringify(har));
  const fromHar = await dial(["import", "page.har", "--out", "har", "--dry-run"], { cwd: dir });
  assert.equal(fromHar.code, 0, fromHar.stderr);
  const sharedHar = fromHar.stdout.split("==> http-client.private.env.json <==")[0]!;
  assert.ok(!/harTok1|harKey2|harSid3/.test(sharedHar), sharedHar);
  // The session cookie the API needs is kept, its value private.
  assert.match(sharedHar, /^Cookie: \{\{cookie\}\}$/m);
  assert.match(fromHar.stdout, /"cookie": "sid=harSid3"/);
  assert.match(fromHar.stdout, /"access_token": "harTok1"/);
  assert.match(fromHar.stdout, /"x_api_key": "harKey2"/);
  assert.match(fromHar.stdout, /\?access_token=\{\{access_token\}\}&x=1/);

  const shop = insomniaExport("Shop", [
    insomnia("environment", "env", "wrk_1", { data: { host: "http://127.0.0.1:9" } }),
    insomnia("environment", "env2", "env", { name: "Prod", data: { api_token: "insTok3" } }),
    insomnia("request", "req", "wrk_1", {
      name: "Me",
      method: "GET",
      url: "{{ _.host }}/me",
      headers: [{ name: "Authorization", value: "Token {{ _.api_token }}" }],
    }),
  ]);
  await Deno.writeTextFile(`${dir}/ins.json`, JSON.stringify(shop));
  const fromIns = await dial(["import", "ins.json", "--dry-run"], { cwd: dir });
  assert.equal(fromIns.code, 0, fromIns.stderr);
  const sharedIns = fromIns.stdout.split("==> http-client.private.env.json <==")[0]!;
  assert.ok(!sharedIns.includes("insTok3"), sharedIns);
  assert.match(fromIns.stdout, /"api_token": "insTok3"/);
  assert.match(fromIns.stderr, /variable "api_token"/);
});

Deno.test("export: credentials a request file holds literally are written as environment lookups unless --with-secrets, and the command still sends them", async () => {
  await using server = rawServer();
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${dir}/a.http`,
    [
      "### me",
      `GET ${server.origin}/me?api_key=qk123&page=2`,
      "Authorization: Bearer lit-token-123",
      "X-Api-Key: hk456",
      "",
    ].join("\n"),
  );
  const ran = await dial(["run", "a.http"], { cwd: dir });
  assert.equal(ran.code, 0, ran.stderr);
  for (const to of ["curl", "python", "http", "postman", "har", "fetch", "httpie"]) {
    const out = await dial(["export", "a.http", "--to", to], { cwd: dir });
    assert.equal(out.code, 0, out.stderr);
    assert.ok(!/qk123|lit-token-123|hk456/.test(out.stdout), `${to}: ${out.stdout}`);
  }
  const curl = await dial(["export", "a.http", "--to", "curl"], { cwd: dir });
  assert.match(curl.stderr, /reads \$API_KEY, \$TOKEN, \$X_API_KEY from the environment/);
  const command = curl.stdout.split("\n").find((l) => l.startsWith("curl "))!;
  const env = {
    PATH: Deno.env.get("PATH")!,
    API_KEY: "qk123",
    TOKEN: "lit-token-123",
    X_API_KEY: "hk456",
  };
  const sent = await new Deno.Command("bash", { args: ["-c", `${command} -sS -o /dev/null`], env })
    .output();
  assert.equal(sent.code, 0, decoder.decode(sent.stderr));
  const [byDial, byCurl] = server.requests.map((r) => ({
    line: r.line,
    authorization: headerValues(r, "authorization"),
    key: headerValues(r, "x-api-key"),
  }));
  assert.deepEqual(byCurl, byDial);
  // Asked for: the values as written.
  const plain = await dial(["export", "a.http", "--to", "curl", "--with-secrets"], { cwd: dir });
  assert.match(plain.stdout, /lit-token-123/);
});
