import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { buildSchema } from "graphql";
import { ancestorPaths, parentPath, parsePath } from "../../../src/graphql/paths.ts";
import { schemaFromIntrospection, SchemaModel } from "../../../src/graphql/schema_model.ts";
import { githubModel } from "./_github.ts";

Deno.test("schema tree: roots are the operation types in order", () => {
  deepStrictEqual(githubModel().roots().map((r) => r.path), ["Query", "Mutation"]);
});

Deno.test("schema tree: a field lists its arguments, then its type's fields, types unwrapped", () => {
  const children = githubModel().children("Query.repository");
  const owner = children.find((c) => c.path === "Query.repository(owner)");
  deepStrictEqual(
    { kind: owner?.kind, typeLabel: owner?.typeLabel, required: owner?.required },
    { kind: "argument", typeLabel: "String!", required: true },
  );
  const firstField = children.findIndex((c) => c.kind === "field");
  ok(children.slice(0, firstField).every((c) => c.kind === "argument"));
  const topics = children.find((c) => c.path === "Query.repository.repositoryTopics");
  equal(topics?.typeLabel, "RepositoryTopicConnection!");
  const labels = githubModel().children("Query.repository.issues.nodes")
    .find((c) => c.name === "labels");
  equal(labels?.typeName, "LabelConnection");
  const assignees = githubModel().node("Query.repository.issues.nodes.assignees.nodes");
  equal(assignees?.typeLabel, "[User]");
});

Deno.test("schema tree: expansion is lazy and cycle-safe along a recursive path", () => {
  const model = githubModel();
  // Repository → owner → repositories → nodes → owner … expands as deep as asked.
  let path = "Query.repository";
  for (let i = 0; i < 20; i++) path += ".owner.repositories.nodes";
  const leaf = model.node(`${path}.name`);
  equal(leaf?.typeLabel, "String!");
  ok(model.children(path).length > 50);
});

Deno.test("schema tree: interfaces and unions list `on T` nodes for their possible types", () => {
  const model = githubModel();
  const node = model.children("Query.node");
  ok(node.some((c) => c.path === "Query.node.on Issue" && c.kind === "on"));
  ok(node.some((c) => c.path === "Query.node.id" && c.kind === "field"));
  const search = model.children("Query.search.nodes");
  deepStrictEqual(search.every((c) => c.kind === "on"), true);
  ok(search.some((c) => c.name === "PullRequest"));
  equal(model.node("Query.search.nodes.on PullRequest.number")?.typeLabel, "Int!");
});

Deno.test("schema tree: an input object argument expands to its fields", () => {
  const children = githubModel().children("Mutation.createIssue(input)");
  const title = children.find((c) => c.name === "title");
  deepStrictEqual(
    { path: title?.path, kind: title?.kind, required: title?.required },
    { path: "Mutation.createIssue(input).title", kind: "inputField", required: true },
  );
});

Deno.test("schema tree: unknown paths resolve to nothing", () => {
  const model = githubModel();
  equal(model.node("Query.nope"), undefined);
  deepStrictEqual(model.children("Query.repository.nope"), []);
  equal(model.node("Nope.repository"), undefined);
  equal(model.node("Query.node.on Query"), undefined);
  equal(model.node("Query.repository..name"), undefined);
});

Deno.test("paths: parents and ancestors, arguments included", () => {
  equal(parentPath("Query.repository(owner)"), "Query.repository");
  equal(parentPath("Mutation.createIssue(input).title"), "Mutation.createIssue(input)");
  equal(parentPath("Query"), undefined);
  deepStrictEqual(ancestorPaths("Query.node.on Issue.title"), [
    "Query",
    "Query.node",
    "Query.node.on Issue",
  ]);
  deepStrictEqual(parsePath("Query.a(b).c"), [
    { kind: "root", type: "Query" },
    { kind: "argument", field: "a", name: "b" },
    { kind: "inputField", name: "c" },
  ]);
  equal(parsePath("Query.a b"), undefined);
});

Deno.test("schema tree: a schema with a subscription type has three roots", () => {
  const model = new SchemaModel(buildSchema(`
    type Query { a: Int } type Mutation { b: Int } type Subscription { tick(every: Int!): Int! }
  `));
  deepStrictEqual(model.roots().map((r) => r.path), ["Query", "Mutation", "Subscription"]);
  equal(model.operationOf("Subscription"), "subscription");
});

Deno.test("schema tree: introspection data of another shape is refused", () => {
  let message = "";
  try {
    schemaFromIntrospection({ data: {} });
  } catch (error) {
    message = (error as Error).message;
  }
  equal(message, "Not an introspection result: expected an object with __schema.types");
});
