import { deepStrictEqual, equal, ok, throws } from "node:assert/strict";
import { parse, print, validate } from "graphql";
import {
  emptyState,
  enableArgument,
  isSelected,
  printState,
  selectField,
  setArgument,
  setOperationName,
  unselectField,
} from "../../../src/graphql/query_builder.ts";
import { parseQuery } from "../../../src/graphql/query_parse.ts";
import { githubModel } from "./_github.ts";

/** Real queries against GitHub's API, the way people write them. */
const GITHUB_QUERIES = [
  `query Viewer { viewer { login name avatarUrl(size: 64) repositories(first: 5, orderBy: {field: UPDATED_AT, direction: DESC}) { totalCount nodes { nameWithOwner stargazerCount } } } }`,
  `query Issues($owner: String!, $name: String!, $after: String) {
    repository(owner: $owner, name: $name) {
      issues(first: 20, after: $after, states: [OPEN], labels: ["bug"]) {
        pageInfo { hasNextPage endCursor }
        nodes { number title createdAt author { login ... on User { company } } labels(first: 5) { nodes { name color } } }
      }
    }
    rateLimit { remaining resetAt }
  }`,
  `query Search($q: String!) { search(query: $q, type: ISSUE, first: 10) { issueCount nodes { __typename ... on Issue { title url } ... on PullRequest { title mergeable } } } }`,
  `mutation AddComment($subjectId: ID!, $body: String!) { addComment(input: {subjectId: $subjectId, body: $body}) { commentEdge { node { id body } } subject { id } } }`,
  `query Node($id: ID!) { node(id: $id) { id ... on Repository { name defaultBranchRef { target { ... on Commit { history(first: 3) { nodes { oid messageHeadline } } } } } } } }`,
  `{ organization(login: "github") { membersWithRole(first: 100) { edges { cursor node { login } } } } }`,
];

Deno.test("query builder: GitHub queries round-trip text → state → text", () => {
  const model = githubModel();
  for (const text of GITHUB_QUERIES) {
    const { state, warnings, error } = parseQuery(model, text);
    equal(error, undefined);
    deepStrictEqual(warnings, []);
    equal(printState(model, state), print(parse(text)));
  }
});

Deno.test("query builder: state → text → state is the identity", () => {
  const model = githubModel();
  for (const text of GITHUB_QUERIES) {
    const state = parseQuery(model, text).state;
    deepStrictEqual(parseQuery(model, printState(model, state)).state, state);
  }
});

Deno.test("query builder: selecting a field selects its ancestors and adds required arguments as variables", () => {
  const model = githubModel();
  const state = selectField(model, emptyState(), "Query.repository.issues.nodes.title");
  deepStrictEqual(state.fields, [
    "Query.repository",
    "Query.repository.issues",
    "Query.repository.issues.nodes",
    "Query.repository.issues.nodes.title",
  ]);
  deepStrictEqual(state.variables, [
    { name: "owner", type: "String!" },
    { name: "name", type: "String!" },
  ]);
  const text = printState(model, state);
  equal(
    text,
    `query ($owner: String!, $name: String!) {
  repository(owner: $owner, name: $name) {
    issues {
      nodes {
        title
      }
    }
  }
}`,
  );
  deepStrictEqual(validate(model.schema, parse(text)), []);
});

Deno.test("query builder: unselecting prunes the subtree, its arguments and their variables", () => {
  const model = githubModel();
  let state = selectField(model, emptyState(), "Query.repository.issues.nodes.title");
  state = selectField(model, state, "Query.viewer.login");
  state = enableArgument(model, state, "Query.repository.issues(first)");
  state = unselectField(state, "Query.repository");
  deepStrictEqual(state.fields, ["Query.viewer", "Query.viewer.login"]);
  deepStrictEqual(state.args, {});
  deepStrictEqual(state.variables, []);
  ok(!isSelected(state, "Query.repository.issues"));
});

Deno.test("query builder: optional arguments are enabled one by one, with numbered names on clashes", () => {
  const model = githubModel();
  let state = enableArgument(model, emptyState(), "Query.repository.issues(first)");
  state = enableArgument(model, state, "Query.repository.issues.nodes.labels(first)");
  state = enableArgument(model, state, "Query.repository.issues(states)");
  state = enableArgument(model, state, "Query.repository.issues(filterBy)");
  deepStrictEqual(state.variables.map((v) => `$${v.name}: ${v.type}`), [
    "$owner: String!",
    "$name: String!",
    "$first: Int",
    "$first2: Int",
    "$states: [IssueState!]",
    "$filterBy: IssueFilters",
  ]);
  ok(printState(model, state).includes("labels(first: $first2) {\n          __typename"));
  deepStrictEqual(validate(model.schema, parse(printState(model, state))), []);
});

Deno.test("query builder: interfaces and unions get `... on Type` selections", () => {
  const model = githubModel();
  let state = selectField(model, emptyState(), "Query.search.nodes.on Issue.title");
  state = selectField(model, state, "Query.search.nodes.on PullRequest.number");
  const text = printState(model, state);
  ok(text.includes("... on Issue {\n        title\n      }\n      ... on PullRequest {"));
  deepStrictEqual(validate(model.schema, parse(text)), []);
});

Deno.test("query builder: literal arguments, enums and input objects are kept and printed", () => {
  const model = githubModel();
  let state = setArgument(model, emptyState(), "Query.viewer.repositories(first)", "10");
  state = setArgument(
    model,
    state,
    "Query.viewer.repositories(orderBy)",
    "{field: NAME, direction: ASC}",
  );
  state = setArgument(model, state, "Query.viewer.repositories(privacy)", "PUBLIC");
  state = selectField(model, state, "Query.viewer.repositories.nodes.name");
  const text = printState(model, state);
  ok(
    text.includes(
      "repositories(first: 10, orderBy: {field: NAME, direction: ASC}, privacy: PUBLIC)",
    ),
  );
  deepStrictEqual(validate(model.schema, parse(text)), []);
  state = setArgument(model, state, "Query.viewer.repositories(privacy)", undefined);
  ok(!printState(model, state).includes("privacy"));
  throws(() => setArgument(model, state, "Query.viewer.repositories(first)", "{"));
});

Deno.test("query builder: selecting under another root starts a new operation", () => {
  const model = githubModel();
  let state = selectField(model, emptyState(), "Query.viewer.login");
  state = selectField(model, state, "Mutation.addStar.clientMutationId");
  equal(state.operation, "mutation");
  deepStrictEqual(state.fields, ["Mutation.addStar", "Mutation.addStar.clientMutationId"]);
  deepStrictEqual(state.variables, [{ name: "input", type: "AddStarInput!" }]);
  state = setOperationName(state, "Star");
  ok(printState(model, state).startsWith("mutation Star($input: AddStarInput!) {"));
  equal(printState(model, emptyState()), "");
});

Deno.test("query builder: unparseable text leaves the last good state and reports line and column", () => {
  const model = githubModel();
  const good = parseQuery(model, "{ viewer { login } }").state;
  const result = parseQuery(model, "{ viewer { login }\n", { previous: good });
  equal(result.state, good);
  deepStrictEqual(
    { line: result.error?.line, column: result.error?.column },
    { line: 2, column: 1 },
  );
});

Deno.test("query builder: aliases, directives, fragments and unknown fields are reported", () => {
  const model = githubModel();
  const { state, warnings } = parseQuery(
    model,
    `query { me: viewer { login @include(if: true) nope ...Who } }
     fragment Who on User { name }`,
  );
  deepStrictEqual(warnings, [
    'Alias "me" of "viewer" is shown under the field name',
    "Directives are not shown in the builder: @include(if: true)",
    'Unknown field "nope" on type "User"',
    'Fragment "Who" is shown inline in the builder',
  ]);
  deepStrictEqual(state.fields, ["Query.viewer", "Query.viewer.login", "Query.viewer.name"]);
});

Deno.test("query builder: with several operations the named one is shown", () => {
  const model = githubModel();
  const text = "query A { viewer { login } } query B { rateLimit { remaining } }";
  const b = parseQuery(model, text, { operationName: "B" });
  deepStrictEqual(b.state.fields, ["Query.rateLimit", "Query.rateLimit.remaining"]);
  const missing = parseQuery(model, text, { operationName: "C" });
  equal(missing.error?.message, 'The document holds no operation named "C"');
});
