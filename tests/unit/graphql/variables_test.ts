import { deepStrictEqual, equal } from "node:assert/strict";
import { buildSchema, type OperationDefinitionNode, parse } from "graphql";
import {
  parseVariablesJson,
  validateVariables,
  variablesTemplate,
} from "../../../src/graphql/variables.ts";
import { githubModel } from "./_github.ts";

const schema = githubModel().schema;

function operation(text: string): OperationDefinitionNode {
  const definition = parse(text).definitions[0];
  if (definition?.kind !== "OperationDefinition") throw new Error("not an operation");
  return definition;
}

const ISSUES = operation(`query ($owner: String!, $name: String!, $first: Int = 10,
  $states: [IssueState!], $order: IssueOrder) {
  repository(owner: $owner, name: $name) {
    issues(first: $first, states: $states, orderBy: $order) { totalCount }
  }
}`);

Deno.test("variables: valid values pass", () => {
  deepStrictEqual(
    validateVariables(schema, ISSUES, {
      owner: "denoland",
      name: "deno",
      states: ["OPEN"],
      order: { field: "CREATED_AT", direction: "DESC" },
    }),
    [],
  );
});

Deno.test("variables: a missing required variable is named", () => {
  deepStrictEqual(validateVariables(schema, ISSUES, { owner: "denoland" }), [
    {
      variable: "name",
      message: 'Variable "$name" of required type "String!" was not provided.',
    },
  ]);
});

Deno.test("variables: a wrong scalar type is named", () => {
  const problems = validateVariables(schema, ISSUES, { owner: "a", name: "b", first: "ten" });
  equal(problems.length, 1);
  equal(problems[0]?.variable, "first");
  equal(
    problems[0]?.message,
    'Variable "$first" got invalid value "ten"; Int cannot represent non-integer value: "ten"',
  );
});

Deno.test("variables: an unknown enum value and a missing input field are named", () => {
  const problems = validateVariables(schema, ISSUES, {
    owner: "a",
    name: "b",
    states: ["OPNE"],
    order: { field: "CREATED_AT" },
  });
  deepStrictEqual(problems.map((p) => p.variable), ["states", "order"]);
  equal(
    problems[1]?.message,
    'Variable "$order" got invalid value { field: "CREATED_AT" }; Field "direction" of required type "OrderDirection!" was not provided.',
  );
});

Deno.test("variables: a value the operation does not define is named", () => {
  deepStrictEqual(validateVariables(schema, ISSUES, { owner: "a", name: "b", nmae: "c" }), [
    {
      variable: "nmae",
      severity: "warning",
      message: 'Variable "$nmae" is not used by the operation (servers ignore it)',
    },
  ]);
});

Deno.test("variables: JSON must be one object; syntax errors carry line and column", () => {
  deepStrictEqual(parseVariablesJson(" "), { ok: true, value: {} });
  deepStrictEqual(parseVariablesJson("[1]"), {
    ok: false,
    problem: { message: "Variables must be a JSON object, not an array" },
  });
  const bad = parseVariablesJson('{\n  "a": 1,\n  "b" 2}');
  equal(bad.ok, false);
  if (!bad.ok) {
    deepStrictEqual({ line: bad.problem.line, column: bad.problem.column }, { line: 3, column: 7 });
    equal(bad.problem.message.startsWith("Invalid JSON: "), true);
  }
});

Deno.test("variables: the template keeps given values, makes up no scalar, and lists an input's required fields", () => {
  const small = buildSchema(`
    type Query { a(x: In): Int }
    enum Color { RED GREEN }
    input In { name: String! count: Int! on: Boolean! color: Color! tags: [String!]! self: In note: String }
  `);
  deepStrictEqual(
    variablesTemplate(small, [
      { name: "kept", type: "String!" },
      { name: "input", type: "In!" },
      { name: "ratio", type: "Int" },
      { name: "unknown", type: "Nope" },
    ], { kept: "yes", dropped: 1 }),
    {
      kept: "yes",
      input: { name: null, count: null, on: null, color: "RED", tags: null },
      ratio: null,
      unknown: null,
    },
  );
});

Deno.test("variables template: schema defaults first, then a page size, then null for optional", () => {
  const schema = buildSchema(`
    type Query { a(x: Int, y: ID, o: Order): Int }
    enum Order { ASC DESC }
  `);
  deepStrictEqual(
    variablesTemplate(schema, [
      { name: "followRenames", type: "Boolean", argumentDefault: "true" },
      { name: "order", type: "Order", argumentDefault: "DESC" },
      { name: "filter", type: "String", argumentDefault: '{a: [1, "b"]}' },
      { name: "first", type: "Int" },
      { name: "last2", type: "Int!" },
      { name: "after", type: "String" },
      { name: "id", type: "ID!" },
      { name: "n", type: "Int!" },
    ]),
    {
      followRenames: true,
      order: "DESC",
      filter: { a: [1, "b"] },
      first: 10,
      last2: 10,
      after: null,
      id: null,
      n: null,
    },
  );
});

Deno.test("invalid variables JSON: the line and column are computed, not read from the engine", () => {
  const cases: Array<[string, number, number]> = [
    ['{"owner": ', 1, 11],
    ['{"owner": "a",\n}', 2, 1],
    ['{\n  "a": 1,\n  "b": tru\n}', 3, 11],
    ['{"a": "x\ny"}', 1, 9],
    ["[1, 2] x", 1, 8],
    ['{"a": 01}', 1, 8],
  ];
  for (const [text, line, column] of cases) {
    const parsed = parseVariablesJson(text);
    if (parsed.ok) throw new Error(`accepted: ${text}`);
    deepStrictEqual([parsed.problem.line, parsed.problem.column], [line, column], text);
    equal(/position|line \d+ column/.test(parsed.problem.message), false, parsed.problem.message);
  }
});
