import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { buildSchema, isInputObjectType, isInterfaceType, isObjectType } from "graphql";
import { SchemaModel } from "../../../src/graphql/schema_model.ts";
import { SearchIndex } from "../../../src/graphql/search_index.ts";
import { ancestorPaths } from "../../../src/graphql/paths.ts";
import { githubModel } from "./_github.ts";

const small = new SchemaModel(buildSchema(`
  type Query { user(login: String!): User  users(loginPrefix: String): [User!]! search(term: String!): [Result!]! }
  type User { login: String! userName: String  friends: [User!]! }
  type Mutation { renameUser(input: RenameInput!): User }
  input RenameInput { login: String! newLogin: String! }
  type Org { login: String! }
  union Result = User | Org
  type Orphan { loginCount: Int }
`));

Deno.test("search index: case-insensitive substring, exact then prefix then substring", () => {
  const index = SearchIndex.build(small);
  const { hits, total } = index.search("LOGIN", { limit: 100 });
  equal(total, hits.length);
  const ranks = hits.map((h) =>
    h.name.toLowerCase() === "login" ? 0 : h.name.toLowerCase().startsWith("login") ? 1 : 2
  );
  deepStrictEqual(ranks, [...ranks].sort());
  deepStrictEqual(hits.map((h) => h.label), [
    "Org.login",
    "User.login",
    "Query.user(login)",
    "RenameInput.login",
    "Orphan.loginCount",
    "Query.users(loginPrefix)",
    "RenameInput.newLogin",
  ]);
  ok(hits.some((h) => h.label === "RenameInput.newLogin" && h.match[0] === 3));
});

Deno.test("search index: hits carry the shortest tree path, whose ancestors reveal them", () => {
  const index = SearchIndex.build(small);
  const byLabel = new Map(index.search("login", { limit: 100 }).hits.map((h) => [h.label, h]));
  equal(byLabel.get("User.login")?.path, "Query.user.login");
  equal(byLabel.get("Query.user(login)")?.path, "Query.user(login)");
  equal(byLabel.get("RenameInput.login")?.path, "Mutation.renameUser(input).login");
  equal(byLabel.get("Org.login")?.path, "Query.search.on Org.login");
  equal(byLabel.get("Orphan.loginCount")?.path, undefined);
  for (const hit of byLabel.values()) {
    if (hit.path === undefined) continue;
    equal(small.node(hit.path)?.name, hit.name, hit.path);
    for (const ancestor of ancestorPaths(hit.path)) ok(small.node(ancestor)?.expandable, ancestor);
  }
});

Deno.test("search index: types are indexed at the first place they appear", () => {
  const hits = SearchIndex.build(small).search("user").hits;
  const type = hits.find((h) => h.kind === "type" && h.name === "User");
  equal(type?.path, "Query.user");
  equal(SearchIndex.build(small).search("  ").total, 0);
});

Deno.test("search index: on GitHub's schema every path resolves and the limit holds", () => {
  const model = githubModel();
  const index = SearchIndex.build(model);
  ok(index.size > 10000);
  const result = index.search("issue", { limit: 20 });
  equal(result.hits.length, 20);
  // Names first, then descriptions of entries whose name does not match.
  let expected = 0;
  const count = (name: string, description: string | null | undefined) => {
    if (name.toLowerCase().includes("issue")) expected++;
    else if (description?.toLowerCase().includes("issue")) expected++;
  };
  for (const type of Object.values(model.schema.getTypeMap())) {
    if (type.name.startsWith("__")) continue;
    count(type.name, type.description);
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        count(field.name, field.description);
        for (const a of field.args) count(a.name, a.description);
      }
    }
    if (isInputObjectType(type)) {
      for (const f of Object.values(type.getFields())) count(f.name, f.description);
    }
  }
  equal(result.total, expected);
  deepStrictEqual(result.hits[0], {
    kind: "type",
    name: "Issue",
    label: "Issue",
    path: "Query.repository.issue",
    match: [0, 5],
  });
  for (const hit of index.search("stargaz", { limit: 100 }).hits) {
    ok(hit.path && model.resolve(hit.path), `${hit.label} → ${hit.path}`);
  }
  equal(
    index.search("stargazerCount").hits.find((h) => h.label === "Repository.stargazerCount")?.path,
    "Query.repository.stargazerCount",
  );
});

Deno.test("search index: descriptions match too, ranked after every name match", () => {
  const index = SearchIndex.build(githubModel());
  const result = index.search("gist", { limit: 1000 });
  const first = result.hits.findIndex((h) => h.inDescription);
  ok(first > 0, "some hits come from descriptions");
  ok(result.hits.slice(first).every((h) => h.inDescription), "descriptions after names");
  ok(result.hits.slice(0, first).every((h) => h.name.toLowerCase().includes("gist")));
});
