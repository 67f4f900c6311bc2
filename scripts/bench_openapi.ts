/**
 * The `dial test --openapi` part of `deno task bench`: the time the contract check adds to one
 * exchange on the Petstore description (`@readme/oas-examples`, OpenAPI 3.0), its schemas
 * prepared once as in a run (the goal: at most 1 ms per exchange); and the time to read GitHub's
 * description (`@octokit/openapi`, 1,223 operations, 13 MB of JSON) as `--openapi` and
 * `dial import` read it.
 * @module
 */
import { readOpenApi } from "../src/import/openapi.ts";
import { ContractChecker } from "../src/openapi/contract_check.ts";
import { readContract } from "../src/openapi/openapi_contract.ts";

/**
 * Runs the benchmark and prints its table.
 *
 * @param context the printer of bench.ts, and whether to run fewer rounds
 */
export async function benchOpenapi(
  context: { out: (text: string) => void; quick: boolean },
): Promise<void> {
  // A test-only package: bench.ts runs with the tests' configuration, the type check without it.
  const fixture = "@readme/oas-examples/3.0/json/petstore.json";
  const { default: petstore } = await import(fixture, { with: { type: "json" } });
  const started = performance.now();
  const contract = await readContract(JSON.stringify(petstore), { name: "petstore.json" });
  const checker = new ContractChecker(contract);
  const readMs = performance.now() - started;
  const pet = {
    id: 10,
    name: "doggie",
    category: { id: 1, name: "Dogs" },
    photoUrls: ["https://example.test/1.png"],
    tags: [{ id: 1, name: "good" }],
    status: "available",
  };
  const json: [string, string][] = [["content-type", "application/json"]];
  const exchanges = [
    {
      method: "GET",
      url: "http://petstore.swagger.io/v2/pet/10",
      requestHeaders: [],
      requestBody: "",
      status: 200,
      headers: json,
      body: JSON.stringify(pet),
    },
    {
      method: "POST",
      url: "http://petstore.swagger.io/v2/pet",
      requestHeaders: json,
      requestBody: JSON.stringify(pet),
      // This description documents only the error of POST /pet.
      status: 405,
      headers: [],
      body: "",
    },
    {
      method: "GET",
      url: "http://petstore.swagger.io/v2/pet/findByStatus?status=available",
      requestHeaders: [],
      requestBody: "",
      status: 200,
      headers: json,
      body: JSON.stringify([pet, pet, pet]),
    },
  ];
  const first = performance.now();
  for (const exchange of exchanges) {
    const violations = checker.check(exchange);
    if (violations.length) throw new Error(`a valid exchange failed: ${violations[0]!.message}`);
  }
  const firstMs = (performance.now() - first) / exchanges.length;
  const rounds = context.quick ? 300 : 3000;
  const t0 = performance.now();
  for (let i = 0; i < rounds; i++) checker.check(exchanges[i % exchanges.length]!);
  const perMs = (performance.now() - t0) / rounds;
  context.out(
    `\n### dial test --openapi: the check's cost per exchange (Petstore 3.0)\n\n` +
      `| measurement | ms |\n| --- | --- |\n` +
      `| read the description (upgrade, \`$ref\`s, operations) | ${readMs.toFixed(1)} |\n` +
      `| first check of each operation (schemas prepared) | ${firstMs.toFixed(3)} |\n` +
      `| later checks, mean of ${rounds} (goal ≤ 1 ms) | ${perMs.toFixed(3)} |\n`,
  );
  await benchLarge(context);
}

/** GitHub's description read as `--openapi` reads it (checker ready) and as `dial import` does. */
async function benchLarge(context: { out: (text: string) => void; quick: boolean }) {
  const fixture = "@octokit/openapi/generated/api.github.com.json";
  const { default: github } = await import(fixture, { with: { type: "json" } });
  const text = JSON.stringify(github);
  const url = new URL("file:///github/api.github.com.json");
  const rounds = context.quick ? 1 : 3;
  const contractMs: number[] = [];
  const importMs: number[] = [];
  let operations = 0;
  for (let i = 0; i < rounds; i++) {
    let started = performance.now();
    const contract = await readContract(text, { name: "api.github.com.json", url });
    new ContractChecker(contract);
    contractMs.push(performance.now() - started);
    operations = contract.operations.length;
    started = performance.now();
    await readOpenApi(JSON.parse(text), { base: url });
    importMs.push(performance.now() - started);
  }
  const median = (list: number[]) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
  context.out(
    `\n### GitHub's description (${operations} operations, ${
      (text.length / 1e6).toFixed(0)
    } MB), median of ${rounds}\n\n` +
      `| measurement | ms |\n| --- | --- |\n` +
      `| \`--openapi\`: read, upgrade, \`$ref\`s, checker ready | ${
        median(contractMs).toFixed(0)
      } |\n` +
      `| \`dial import\`: upgrade, \`$ref\`s, requests | ${median(importMs).toFixed(0)} |\n`,
  );
}

if (import.meta.main) {
  await benchOpenapi({
    out: (text) => void Deno.stdout.write(new TextEncoder().encode(text)),
    quick: false,
  });
}
