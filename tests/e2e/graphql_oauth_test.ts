import { equal, ok } from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { githubServer } from "./_graphql_servers.ts";
import { startMockServer } from "./_oauth_servers.ts";

Deno.test("graphql: OAuth 2.0 tokens are refreshed for operations and introspection alike", async () => {
  await using oauth = await startMockServer();
  const revoked = new Set<string>();
  const seen = new Set<string>();
  await using server = await githubServer({
    kind: "check",
    check: (request) => {
      const token = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
      seen.add(token);
      return token.split(".").length === 3 && !revoked.has(token);
    },
  });
  const url = `${server.origin}/graphql`;
  const oauth2 = `client_credentials:${oauth.tokenUrl}:gql-client:gql-secret`;
  const args = ["graphql", url, "--oauth2", oauth2, "-q", "{ viewer { login } }"];
  const first = await dial(args);
  equal(first.code, 0, first.stderr);
  equal(first.stdout, '{"data":{"viewer":{"login":"mocked"}}}\n');
  equal(oauth.tokenRequests.length, 1);
  equal(oauth.tokenRequests[0]!.body.get("grant_type"), "client_credentials");
  // The server revokes the cached token: the operation gets a 401 and retries with a new one.
  for (const token of seen) revoked.add(token);
  const second = await dial(args);
  equal(second.code, 0, second.stderr);
  equal(oauth.tokenRequests.length, 2, "a fresh token after the 401");
  // Introspection goes through the same path.
  for (const token of seen) revoked.add(token);
  const schema = await dial(["graphql", url, "--oauth2", oauth2, "--schema", "--refresh-schema"]);
  equal(schema.code, 0, schema.stderr);
  ok(schema.stdout.includes("type Query"));
  equal(oauth.tokenRequests.length, 3, "introspection refreshed the revoked token too");
});
