import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { buildSchema, parse } from "graphql";
import {
  findOperation,
  type OperationProblem,
  OperationProblemCode,
  operationProblemMessage,
  type SelectedOperation,
  selectOperation,
  type SelectOperationOptions,
} from "../../../src/graphql/operation.ts";

const schema = buildSchema(`
  directive @defer(if: Boolean, label: String) on FRAGMENT_SPREAD | INLINE_FRAGMENT
  type Query { a: Int, b(text: String): Int, user(id: ID!): User }
  type User { name: String }
  type Subscription { ticks: Int }
`);

function picked(text: string, options: SelectOperationOptions = {}): SelectedOperation {
  const result = selectOperation(parse(text), options);
  if (!result.ok) throw new Error(`expected an operation, got ${result.problem.code}`);
  return result.operation;
}

function problem(text: string, options: SelectOperationOptions = {}): OperationProblem {
  const result = selectOperation(parse(text), options);
  if (result.ok) throw new Error("expected a problem");
  return result.problem;
}

Deno.test("operation: the only one, or the named one, with its kind", () => {
  const only = picked("{ a }");
  equal(only.kind, "query");
  equal(only.name, undefined);
  equal(only.streams, false);
  const named = picked("query A { a } subscription B { ticks }", { operationName: "B" });
  equal(named.kind, "subscription");
  equal(named.name, "B");
  equal(named.streams, true);
});

Deno.test("operation: problems are codes and data, worded without flags or controls", () => {
  const needed = problem("query A { a } { b }");
  deepStrictEqual(needed, {
    code: OperationProblemCode.OperationNameNeeded,
    names: ["A", "(anonymous)"],
  });
  equal(operationProblemMessage(needed), 'The query holds 2 operations: "A", "(anonymous)"');
  const unknown = problem("query A { a }", { operationName: "C" });
  deepStrictEqual(unknown, {
    code: OperationProblemCode.UnknownOperation,
    name: "C",
    names: ["A"],
  });
  equal(operationProblemMessage(unknown), 'No operation named "C" in the query: it holds "A"');
  const none = problem("fragment F on Query { a }");
  equal(operationProblemMessage(none), "The query holds no operation, only fragments");
});

Deno.test("operation: @defer and @stream are read from the directives, following spreads", () => {
  equal(picked("{ ... @defer { a } }").streams, true);
  equal(
    picked("{ user(id: 1) { ...F } } fragment F on User { ... on User @defer { name } }").streams,
    true,
  );
  equal(picked("{ list: a @stream(initialCount: 1) }").streams, true);
  // A comment, a string or another operation's fragment mentioning @defer is no stream.
  equal(picked("# @defer\n{ a }").streams, false);
  equal(picked('{ b(text: "@defer @stream") }').streams, false);
  equal(
    picked("query A { a } query B { ...F } fragment F on Query { ... @defer { a } }", {
      operationName: "A",
    }).streams,
    false,
  );
  // A fragment that spreads itself does not loop.
  equal(picked("{ ...F } fragment F on Query { a ...F }").streams, false);
});

Deno.test("operation: with a schema, the document and then the variables are checked", () => {
  const mismatch = problem("{ nope }", { schema });
  equal(mismatch.code, OperationProblemCode.SchemaMismatch);
  equal(
    operationProblemMessage(mismatch),
    'The query does not match the schema: Cannot query field "nope" on type "Query". (line 1, column 3)',
  );
  const variables = problem("query ($id: ID!) { user(id: $id) { name } }", { schema });
  equal(variables.code, OperationProblemCode.InvalidVariables);
  equal(
    operationProblemMessage(variables),
    'Invalid variables: Variable "$id" of required type "ID!" was not provided.',
  );
  // A variable the operation does not use is a warning: servers ignore it.
  const unused = picked("query ($id: ID!) { user(id: $id) { name } }", {
    schema,
    variables: { id: "1", extra: 2 },
  });
  deepStrictEqual(unused.warnings.map((w) => w.variable), ["extra"]);
  ok(picked("{ ... @defer { a } }", { schema }).streams);
});

Deno.test("operation: findOperation is the named one, else the first, without checks", () => {
  const document = parse("query A { a } query B { b }");
  equal(findOperation(document)?.name?.value, "A");
  equal(findOperation(document, "B")?.name?.value, "B");
  equal(findOperation(document, "C"), undefined);
});
