import { equal } from "node:assert/strict";
import { buildSchema } from "graphql";
import { SchemaModel } from "../../../src/graphql/schema_model.ts";
import { githubModel } from "./_github.ts";

Deno.test("schema tree: arguments show their default value as GraphQL text", () => {
  const renames = githubModel().node("Query.repository(followRenames)");
  equal(renames?.defaultValue, "true");
  equal(githubModel().node("Query.repository(owner)")?.defaultValue, undefined);
});

Deno.test("schema tree: enum, list and input object defaults print as GraphQL values", () => {
  const model = new SchemaModel(buildSchema(`
    enum Order { ASC DESC }
    input Page { size: Int = 10, order: Order = DESC }
    type Query { items(order: Order = ASC, tags: [String!] = ["a"], page: Page = {size: 5}): Int }
  `));
  equal(model.node("Query.items(order)")?.defaultValue, "ASC");
  equal(model.node("Query.items(tags)")?.defaultValue, '["a"]');
  equal(model.node("Query.items(page)")?.defaultValue, "{size: 5, order: DESC}");
  equal(model.node("Query.items(page).size")?.defaultValue, "10");
});
