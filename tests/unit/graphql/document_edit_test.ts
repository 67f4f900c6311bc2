import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { parse, validate } from "graphql";
import {
  tickArgument,
  tickField,
  untickArgument,
  untickField,
} from "../../../src/graphql/document_edit.ts";
import { githubModel } from "./_github.ts";

const model = await githubModel();

/** The document's validation errors against GitHub's schema. */
function errors(text: string): string[] {
  return validate(model.schema, parse(text)).map((e) => e.message);
}

const ALIASED = `# my repo query
query Repo($owner: String!, $name: String!) {
  deno: repository(owner: $owner, name: $name) {
    ...RepoBits
  }
}

fragment RepoBits on Repository {
  # bits I need
  name
  stargazerCount @include(if: true)
}
`;

Deno.test("tick inside a fragment's type edits the fragment and keeps alias, comments and directives", () => {
  const edit = tickField(model, ALIASED, "Query.repository.description");
  equal(
    edit.text,
    ALIASED.replace("@include(if: true)\n", "@include(if: true)\n  description\n"),
  );
  deepStrictEqual(errors(edit.text), []);
  deepStrictEqual(edit.addedVariables, []);
});

Deno.test("untick removes every occurrence, then fragments and variables left unused", () => {
  const edit = untickField(model, ALIASED, "Query.repository");
  equal(edit.text, "# my repo query\n");
  deepStrictEqual(edit.removedVariables, ["owner", "name"]);
  const doc =
    `query {\n  viewer {\n    login\n    ...U\n  }\n}\n\nfragment U on User {\n  bio\n}\n`;
  const bio = untickField(model, doc, "Query.viewer.bio");
  equal(bio.text, "query {\n  viewer {\n    login\n  }\n}\n");
  deepStrictEqual(errors(bio.text), []);
});

Deno.test("tick a new branch adds required arguments as variables and replaces the __typename placeholder", () => {
  const doc = "query Q {\n  viewer {\n    __typename\n  }\n}";
  const edit = tickField(model, doc, "Query.viewer.repository.name");
  equal(
    edit.text,
    "query Q($name: String!) {\n  viewer {\n    repository(name: $name) {\n      name\n    }\n  }\n}",
  );
  deepStrictEqual(edit.addedVariables, [{ name: "name", type: "String!" }]);
  const inline = tickField(model, "{ viewer { login } }", "Query.viewer.bio");
  equal(inline.text, "{ viewer { login bio } }");
  const empty = tickField(model, "", "Query.viewer");
  equal(empty.text, "{\n  viewer {\n    __typename\n  }\n}");
  const leaf = untickField(model, "{ viewer { login } rateLimit { cost } }", "Query.viewer.login");
  equal(leaf.text, "{ viewer { __typename } rateLimit { cost } }");
});

Deno.test("arguments are added and removed in place, their variables pruned", () => {
  const doc =
    "query ($owner: String!, $name: String!) {\n  r: repository(owner: $owner, name: $name) {\n    name\n  }\n}";
  const on = tickArgument(model, doc, "Query.repository(followRenames)");
  match(on.text, /\$name: String!, \$followRenames: Boolean\)/);
  match(on.text, /r: repository\(owner: \$owner, name: \$name, followRenames: \$followRenames\)/);
  // The schema's default travels with the variable (for the variables JSON), not into the text.
  deepStrictEqual(on.addedVariables, [
    { name: "followRenames", type: "Boolean", argumentDefault: "true" },
  ]);
  const off = untickArgument(model, on.text, "Query.repository(followRenames)");
  equal(off.text, doc);
  deepStrictEqual(off.removedVariables, ["followRenames"]);
  const owner = untickArgument(model, doc, "Query.repository(owner)");
  equal(owner.text, doc.replace("$owner: String!, ", "").replace("owner: $owner, ", ""));
});

Deno.test("type conditions: ticking adds ... on T, unticking removes a spread and its fragment", () => {
  const doc =
    "query ($id: ID!) {\n  node(id: $id) {\n    id\n    ...I\n  }\n}\nfragment I on Issue { title }\n";
  const edit = tickField(model, doc, "Query.node.on Issue.number");
  match(edit.text, /fragment I on Issue \{ title number \}/);
  const pr = tickField(model, doc, "Query.node.on PullRequest.title");
  ok(pr.text.includes("    ...I\n    ... on PullRequest {\n      title\n    }\n"));
  const off = untickField(model, doc, "Query.node.on Issue");
  equal(off.text, "query ($id: ID!) {\n  node(id: $id) {\n    id\n  }\n}\n");
});

Deno.test("unparseable text is not edited", () => {
  const edit = tickField(model, "{ viewer {", "Query.viewer.login");
  equal(edit.text, "{ viewer {");
  match(edit.error ?? "", /does not parse/);
});
