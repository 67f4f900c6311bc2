/**
 * What the OpenAPI panel of the HTTP tab and the UI server say to each other
 * (`src/ui/api/openapi_api.ts`): the operation a request of a workspace file matches in the
 * description its file or environment names, and the violations of a Send.
 * @module
 */

/** `POST /api/openapi/operation`: a request of a workspace file, as the tab has it now. */
export interface OpenapiOperationJson {
  /** The file, relative to the workspace. */
  path: string;
  /** The request's place in its file, from 1. */
  index: number;
  /** Its name, when it has one. */
  name?: string;
  /** The environment chosen, if any. */
  environment?: string;
  /** The tab's method. */
  method: string;
  /** The tab's URL as written (`{{origin}}/v1/pets/{{id}}`). */
  url: string;
}

/** A schema, as pretty JSON text (cut at 64 KiB). */
export interface SchemaJson {
  /** `application/json`, or the parameter's `in` and name. */
  label: string;
  /** The schema as pretty JSON. */
  schema: string;
}

/** One operation of the description, for people. */
export interface OperationJson {
  /** `GET /pets/{id}`. */
  name: string;
  summary?: string;
  description?: string;
  /** Its parameters (`path id`, `query limit (required)`) with their schemas. */
  parameters: SchemaJson[];
  /** The request body's schemas by media type. */
  requestBody: SchemaJson[];
  /** Each documented status, its description and its schemas by media type. */
  responses: Array<{ status: string; description?: string; content: SchemaJson[] }>;
}

/** The answer of `POST /api/openapi/operation`. */
export type OpenapiOperationAnswer =
  /** Neither the file nor its environment names a description. */
  | { described: false }
  | {
    described: true;
    /** The description, as the file names it (`api.http:1`). */
    source: string;
    /** `3.0.3`, `3.1.0`, `2.0`. */
    version: string;
    /** The operation the request matches; none when it matches no operation. */
    operation?: OperationJson;
  };

/** A violation of a Send, as a failed test and, for a body's value, where the value is. */
export interface ViolationJson {
  /** The operation (`GET /pets/{id}`). */
  name: string;
  /** `/0/name: required property missing (response 200 body)`. */
  message: string;
  /** Which body a value is in, when the violation is a value's. */
  body?: "request" | "response";
  /** Its JSON pointer (`""`: the whole body). */
  pointer?: string;
}

/** The event of `POST /api/http/file` that carries a Send's violations (before its result). */
export type OpenapiEvent = { type: "openapi"; source: string; violations: ViolationJson[] };
