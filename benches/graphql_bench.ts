/**
 * Schema model benchmarks on GitHub's public schema: search index build, one search, builder
 * operations. Run alone with `deno bench -A benches/graphql_bench.ts`; prints the index's
 * memory too.
 * @module
 */
import { githubIntrospection } from "../tests/unit/graphql/_github.ts";
import { SchemaModel } from "../src/graphql/schema_model.ts";
import { SearchIndex } from "../src/graphql/search_index.ts";
import {
  emptyState,
  enableArgument,
  printState,
  selectField,
} from "../src/graphql/query_builder.ts";
import { parseQuery } from "../src/graphql/query_parse.ts";

const model = SchemaModel.fromIntrospection(await githubIntrospection());
const index = SearchIndex.build(model);

const QUERY = `query ($owner: String!, $name: String!) {
  repository(owner: $owner, name: $name) {
    issues(first: 20, states: [OPEN]) {
      pageInfo { hasNextPage endCursor }
      nodes { number title author { login } labels(first: 5) { nodes { name } } }
    }
  }
}`;

Deno.bench("graphql: build the search index (GitHub schema)", { group: "index" }, () => {
  SearchIndex.build(model);
});

Deno.bench('graphql: one search query ("issue")', { group: "search" }, () => {
  index.search("issue");
});

Deno.bench('graphql: one search query ("e", worst case)', { group: "search" }, () => {
  index.search("e");
});

Deno.bench("graphql: builder select 5 fields + enable an argument + print", () => {
  let state = selectField(model, emptyState(), "Query.repository.issues.nodes.title");
  state = selectField(model, state, "Query.repository.issues.nodes.author.login");
  state = selectField(model, state, "Query.node.on Issue.number");
  state = enableArgument(model, state, "Query.repository.issues(first)");
  printState(model, state);
});

Deno.bench("graphql: builder parse text into selection state", () => {
  parseQuery(model, QUERY);
});

Deno.bench("graphql: expand one tree level (Query.repository)", () => {
  new SchemaModel(model.schema).children("Query.repository");
});

/** Heap growth per index, measured after forced collections; undefined without --expose-gc. */
function indexMemory(): number | undefined {
  const gc: unknown = Reflect.get(globalThis, "gc");
  if (typeof gc !== "function") return undefined;
  gc();
  const before = Deno.memoryUsage().heapUsed;
  const kept = Array.from({ length: 5 }, () => SearchIndex.build(model));
  gc();
  const after = Deno.memoryUsage().heapUsed;
  kept.length = 0;
  return (after - before) / 5;
}

const bytes = indexMemory();
// The one place this file prints: the bench table has no column for memory.
// deno-lint-ignore no-console
console.log(
  bytes === undefined
    ? "graphql: search index memory: run with --v8-flags=--expose-gc to measure it"
    : `graphql: search index memory ≈ ${
      (bytes / 1024 / 1024).toFixed(1)
    } MB (${index.size} names; heap growth per build, average of 5, after gc)`,
);
