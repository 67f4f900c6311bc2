import assert from "node:assert/strict";
import { parseOAuth2Value } from "../../src/auth/oauth2/parse_value.ts";
import { UsageError } from "../../src/errors/mod.ts";

const good: Array<[string, { flow: string; tokenUrl: string; clientId: string; secret?: string }]> =
  [
    ["client_credentials:https://id.example.com/oauth/token:my-app:my-secret", {
      flow: "client_credentials",
      tokenUrl: "https://id.example.com/oauth/token",
      clientId: "my-app",
      secret: "my-secret",
    }],
    ["client_credentials:https://host:8443/oauth/token:app:s3cr:et", {
      flow: "client_credentials",
      tokenUrl: "https://host:8443/oauth/token",
      clientId: "app",
      secret: "s3cr:et",
    }],
    ["password:http://[::1]:9000/token:cli", {
      flow: "password",
      tokenUrl: "http://[::1]:9000/token",
      clientId: "cli",
    }],
    ["password:http://[::1]/token:cli:x", {
      flow: "password",
      tokenUrl: "http://[::1]/token",
      clientId: "cli",
      secret: "x",
    }],
    ["authorization_code:https://id.example.com:443/authorize/token:public", {
      flow: "authorization_code",
      tokenUrl: "https://id.example.com/authorize/token",
      clientId: "public",
    }],
    ["authorization_code:http://localhost:8080:cli", {
      flow: "authorization_code",
      tokenUrl: "http://localhost:8080/",
      clientId: "cli",
    }],
    ["client_credentials:https://id.example.com:app::::", {
      flow: "client_credentials",
      tokenUrl: "https://id.example.com/",
      clientId: "app",
      secret: ":::",
    }],
    ["client_credentials:https://id.example.com/t?x=1:app:sec", {
      flow: "client_credentials",
      tokenUrl: "https://id.example.com/t?x=1",
      clientId: "app",
      secret: "sec",
    }],
  ];

for (const [value, want] of good) {
  Deno.test(`oauth2 value: parses ${value}`, () => {
    const got = parseOAuth2Value(value);
    assert.equal(got.flow, want.flow);
    assert.equal(got.tokenUrl.href, want.tokenUrl);
    assert.equal(got.clientId, want.clientId);
    assert.equal(got.clientSecret?.reveal(), want.secret);
    assert.equal(String(got.clientSecret ?? ""), want.secret ? "(redacted)" : "");
  });
}

const bad: Array<[string, string, RegExp]> = [
  [
    "unknown flow",
    "implicit:https://id.example.com/token:app",
    /Unknown OAuth 2.0 flow "implicit"/,
  ],
  ["empty value", "", /Unknown OAuth 2.0 flow ""/],
  ["flow only", "password", /Invalid token URL/],
  ["relative token URL", "password:/token:app", /Invalid token URL/],
  ["non-http scheme", "password:ftp://id.example.com/token:app", /Invalid token URL/],
  ["missing client id", "client_credentials:https://id.example.com/token", /Missing client id/],
  [
    "empty client id",
    "client_credentials:https://id.example.com/token::secret",
    /Missing client id/,
  ],
  ["missing host", "password:http:///token:app", /Invalid token URL/],
];

for (const [name, value, message] of bad) {
  Deno.test(`oauth2 value: ${name} is a usage error`, () => {
    assert.throws(() => parseOAuth2Value(value), (error: unknown) => {
      assert.ok(error instanceof UsageError);
      assert.equal(error.exitCode, 2);
      assert.match(error.message, message);
      return true;
    });
  });
}
