/**
 * GitHub's public schema (`@octokit/graphql-schema`) as a schema model, built once.
 *
 * The package is imported through a variable so that `deno check` does not type-check its
 * 1.3 MB of generated declarations; only the introspection JSON is used.
 * @module
 */
import { SchemaModel } from "../../../src/graphql/schema_model.ts";

const PACKAGE = "@octokit/graphql-schema";

/** @returns GitHub's introspection result, `{ __schema: … }` */
export async function githubIntrospection(): Promise<unknown> {
  const module: unknown = await import(PACKAGE);
  if (
    typeof module !== "object" || module === null || !("schema" in module) ||
    typeof module.schema !== "object" || module.schema === null || !("json" in module.schema)
  ) {
    throw new Error(`${PACKAGE} does not export schema.json`);
  }
  return module.schema.json;
}

const introspection = await githubIntrospection();
let model: SchemaModel | undefined;

/** @returns the model of GitHub's schema, built on first use */
export function githubModel(): SchemaModel {
  return model ??= SchemaModel.fromIntrospection(introspection);
}
