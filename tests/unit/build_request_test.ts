import assert from "node:assert/strict";
import {
  buildRequest,
  displayUrl,
  redirectRequest,
  requestHeaders,
  requestUrl,
  withQueryKeys,
} from "../../src/http/build_request.ts";
import type { PreparedRequest, RequestSpec } from "../../src/http/request_spec.ts";
import { Secret } from "../../src/secret.ts";

const key = (name: string, value: string) => ({ name, value: new Secret(value) });

Deno.test("build: -K keys are percent-encoded and appended to an existing query", () => {
  const url = withQueryKeys(new URL("https://api.test/x?a=1&b=two%20words"), [
    key("api key", "a b&c=d/é"),
  ]);
  assert.equal(url.href, "https://api.test/x?a=1&b=two%20words&api%20key=a%20b%26c%3Dd%2F%C3%A9");
});

Deno.test("build: -K keys are not added twice when the URL already has them", () => {
  const url = withQueryKeys(new URL("https://api.test/x?k=v"), [key("k", "v")]);
  assert.equal(url.href, "https://api.test/x?k=v");
});

Deno.test("build: displayUrl redacts key values", () => {
  const prepared = buildRequest(spec({ queryKeys: [key("token", "s3cret")] }));
  assert.equal(displayUrl(prepared), "https://api.test/items?page=2&token=(redacted)");
  assert.equal(requestUrl(prepared).href, "https://api.test/items?page=2&token=s3cret");
});

Deno.test("build: Authorization goes first, then -H, then body type and User-Agent", () => {
  const prepared = buildRequest(
    spec({
      headers: [{ name: "X-One", value: "1" }],
      body: { kind: "text", text: "{}", contentType: "application/json" },
    }),
    new Secret("Bearer t"),
  );
  const lines = requestHeaders(prepared);
  assert.deepEqual(lines.slice(0, 2).map(([name]) => name), ["Authorization", "X-One"]);
  const headers = new Headers(lines);
  assert.equal(headers.get("authorization"), "Bearer t");
  assert.equal(headers.get("x-one"), "1");
  assert.equal(headers.get("content-type"), "application/json");
  assert.equal(headers.get("user-agent")?.startsWith("dial/"), true);
});

Deno.test("build: a -H Content-Type wins over the body's type", () => {
  const prepared = buildRequest(spec({
    headers: [{ name: "content-type", value: "text/csv" }],
    body: { kind: "text", text: "a,b", contentType: "application/x-www-form-urlencoded" },
  }));
  assert.equal(new Headers(requestHeaders(prepared)).get("content-type"), "text/csv");
});

function credentialed(): PreparedRequest {
  return {
    method: "POST",
    url: new URL("https://api.test/start"),
    queryKeys: [key("api_key", "k")],
    headers: [
      { name: "Authorization", value: new Secret("Bearer t") },
      { name: "Proxy-Authorization", value: new Secret("Basic p") },
      { name: "Cookie", value: "sid=1" },
      { name: "X-Api-Key", value: new Secret("k2") },
      { name: "X-Auth-Token", value: new Secret("k3") },
      { name: "X-Session-Id", value: "s" },
      { name: "X-Client-Secret", value: "cs" },
      { name: "X-Password", value: "pw" },
      { name: "X-Signature", value: "sig" },
      { name: "X-Jwt", value: "jwt" },
      { name: "X-Credentials", value: "cred" },
      { name: "Accept", value: "application/json" },
      { name: "Content-Type", value: "application/json" },
    ],
    body: { kind: "text", text: "{}" },
  };
}

Deno.test("redirect: a cross-origin hop drops every credential and the -K keys", () => {
  const next = redirectRequest(credentialed(), 307, "https://elsewhere.test/next")!;
  assert.deepEqual(next.headers.map((h) => h.name), ["Accept", "Content-Type"]);
  assert.deepEqual(next.queryKeys, []);
  assert.equal(requestUrl(next).href, "https://elsewhere.test/next");
  assert.equal(next.method, "POST");
});

Deno.test("redirect: another port or scheme is another origin", () => {
  for (const target of ["https://api.test:8443/x", "http://api.test/x"]) {
    const next = redirectRequest(credentialed(), 308, target)!;
    assert.deepEqual(next.queryKeys, [], target);
    assert.equal(next.headers.some((h) => h.name === "Authorization"), false, target);
  }
});

Deno.test("redirect: a same-origin hop keeps credentials and re-appends -K keys", () => {
  const next = redirectRequest(credentialed(), 307, "/next?x=1")!;
  assert.equal(next.headers.length, credentialed().headers.length);
  assert.equal(requestUrl(next).href, "https://api.test/next?x=1&api_key=k");
});

Deno.test("redirect: 303 and 302-after-POST become GET without a body", () => {
  for (const status of [302, 303]) {
    const next = redirectRequest(credentialed(), status, "/done")!;
    assert.equal(next.method, "GET");
    assert.equal(next.body, undefined);
    assert.equal(next.headers.some((h) => h.name === "Content-Type"), false);
  }
});

Deno.test("redirect: 307 and 308 keep method and body", () => {
  for (const status of [307, 308]) {
    const next = redirectRequest(credentialed(), status, "/again")!;
    assert.equal(next.method, "POST");
    assert.deepEqual(next.body, { kind: "text", text: "{}" });
  }
});

Deno.test("redirect: other statuses and a missing Location are not followed", () => {
  assert.equal(redirectRequest(credentialed(), 304, "/x"), undefined);
  assert.equal(redirectRequest(credentialed(), 302, null), undefined);
});

function spec(parts: Partial<RequestSpec> & { queryKeys?: RequestSpec["auth"]["queryKeys"] }) {
  return {
    method: "GET",
    url: new URL("https://api.test/items?page=2"),
    headers: parts.headers ?? [],
    auth: { queryKeys: parts.queryKeys ?? [] },
    ...(parts.body ? { body: parts.body } : {}),
  } satisfies RequestSpec;
}

Deno.test("redirect: a header an auth option added is a credential whatever its name", () => {
  const request: PreparedRequest = {
    method: "GET",
    url: new URL("https://api.test/x"),
    queryKeys: [],
    headers: [
      { name: "X-Partner-Id", value: new Secret("p-1"), credential: true },
      { name: "X-Trace", value: "t-1" },
    ],
  };
  const away = redirectRequest(request, 302, "https://elsewhere.test/y")!;
  assert.deepEqual(away.headers.map((h) => h.name), ["X-Trace"]);
  const here = redirectRequest(request, 302, "/y")!;
  assert.deepEqual(here.headers.map((h) => h.name), ["X-Partner-Id", "X-Trace"]);
});
