import assert from "node:assert/strict";
import { GRAPHQL_FLAGS } from "../../src/cli/graphql.ts";
import { GRAPHQL_TRANSPORTS } from "../../src/ui/protocol.ts";

Deno.test("one name per transport: dial graphql --transport offers exactly the GraphQL tab's names", () => {
  // The CLI declaration spells them out (start-up loads no GraphQL module); both must agree.
  const transport = GRAPHQL_FLAGS.find((flag) => flag.long === "transport");
  assert.deepEqual(transport?.choices, [...GRAPHQL_TRANSPORTS]);
});
