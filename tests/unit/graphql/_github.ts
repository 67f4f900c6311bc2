/** GitHub's public schema (`@octokit/graphql-schema`) as a schema model, built once. */
import { schema } from "@octokit/graphql-schema";
import { SchemaModel } from "../../../src/graphql/schema_model.ts";

let model: SchemaModel | undefined;

/** @returns the model of GitHub's schema */
export function githubModel(): SchemaModel {
  return model ??= SchemaModel.fromIntrospection(schema.json);
}
