/**
 * The OpenAPI side of the HTTP tab: `POST /api/openapi/operation` tells the operation a request
 * of a workspace file matches in the description its file (`# @openapi`) or environment
 * (`openapi`) names, with its summary and schemas; a Send of such a request
 * (`POST /api/http/file`) is checked as `dial run` checks it, its violations failed tests of the
 * request and an `openapi` event with each value's JSON pointer, for the response viewer.
 * The description is chosen under the trust rule as the CLI chooses it (a local path inside the
 * workspace, never a URL), read once per change of the file; the validator loads on first use.
 * @module
 */
import type { Environment } from "../../files/environment.ts";
import type { HttpFile } from "../../files/http_file_types.ts";
import { parseHttpFile } from "../../files/parse_http_file.ts";
import type { CheckableExchange } from "../../files/run_http_file.ts";
import type { TestOutcome } from "../../files/script_api.ts";
import { load } from "../../load.ts";
import type { ContractChecker, Violation } from "../../openapi/contract_check.ts";
import { type DescriptionChoice, fileDescription } from "../../openapi/description_choice.ts";
import type { ContractOperation } from "../../openapi/openapi_contract.ts";
import type {
  OpenapiEvent,
  OpenapiOperationAnswer,
  OperationJson,
  SchemaJson,
} from "../openapi_protocol.ts";
import type { Workspace } from "../workspace_path.ts";
import { isObject, optionalString, string } from "./decode.ts";
import { fileEnvironment } from "./file_send.ts";
import type { ApiContext } from "./http_api.ts";
import { workspaceCall } from "./workspace_api.ts";

/** The longest schema text sent to the page. */
const MAX_SCHEMA_CHARS = 64 * 1024;

/** Checkers by the description's real path, read again when the file changes. */
const checkers = new Map<string, { mtime: number; checker: Promise<ContractChecker> }>();

/**
 * @param choice the description chosen
 * @returns its checker, read once per modification time of the file
 * @throws {UsageError} a description that cannot be read
 */
async function checkerOf(choice: DescriptionChoice): Promise<ContractChecker> {
  // A file gone is told by the reader, as the CLI tells it.
  const mtime = (await Deno.stat(choice.spec).catch(() => undefined))?.mtime?.getTime() ?? 0;
  const known = checkers.get(choice.spec);
  if (known?.mtime === mtime) return await known.checker;
  const { descriptionChecker } = await load.readDescription();
  const checker = descriptionChecker(choice.spec, choice.namedBy);
  checkers.set(choice.spec, { mtime, checker });
  // A description that could not be read is read again next time (it may have been fixed).
  checker.catch(() =>
    checkers.get(choice.spec)?.checker === checker && checkers.delete(choice.spec)
  );
  return await checker;
}

/** The choice with who named it as the workspace shows it (`api.http:1`, not the real path). */
function relative(
  choice: DescriptionChoice | undefined,
  workspace: Workspace,
): DescriptionChoice | undefined {
  if (!choice) return undefined;
  const root = `${workspace.root}/`;
  return choice.namedBy.startsWith(root)
    ? { ...choice, namedBy: choice.namedBy.slice(root.length) }
    : choice;
}

/** A Send's contract check: the exchanges' failed tests, and the tab's request's violations. */
export interface OpenapiSend {
  /** Checks an exchange of the run (the tab's request or one it runs first). */
  check(exchange: CheckableExchange): TestOutcome[];
  /** The last exchange's violations, as the tab's event (and forgets them). */
  take(): OpenapiEvent;
}

/**
 * The contract check of a Send, when the file or its environment names a description.
 *
 * @param file the request file (its path real)
 * @param environment its environment
 * @param workspace the workspace, whose folders the description must be in
 * @returns the check, or undefined when no description applies
 * @throws {UsageError} a refused or unreadable description (before anything is sent)
 */
export async function openapiSend(
  file: HttpFile,
  environment: Environment | undefined,
  workspace: Workspace,
): Promise<OpenapiSend | undefined> {
  const choice = relative(
    await fileDescription(file, environment, workspace.confinement),
    workspace,
  );
  if (!choice) return undefined;
  const checker = await checkerOf(choice);
  let last: Violation[] = [];
  return {
    check: (exchange) => {
      last = checker.check(exchange);
      return last.map((v) => ({ name: v.name, passed: false, message: v.message, durationMs: 0 }));
    },
    take: () => {
      const violations = last.map((v) => ({
        name: v.name,
        message: v.message,
        ...(v.at ? { body: v.at.body, pointer: v.at.pointer } : {}),
      }));
      last = [];
      return { type: "openapi", source: choice.namedBy, violations };
    },
  };
}

/**
 * `POST /api/openapi/operation`: {@link import("../openapi_protocol.ts").OpenapiOperationJson}
 * → {@link OpenapiOperationAnswer}.
 *
 * @param request the call
 * @param context the workspace and the process environment
 * @returns the operation the request matches, or that no description applies
 */
export async function handleOpenapiOperation(
  request: Request,
  context: ApiContext,
): Promise<Response> {
  const { json, workspace } = await workspaceCall(request, context);
  const real = await workspace.resolve(string(json.path, "path"));
  const method = string(json.method, "method");
  const url = string(json.url, "url");
  const file = parseHttpFile(await Deno.readTextFile(real), real);
  const environment = await fileEnvironment(
    workspace,
    real,
    optionalString(json.environment, "environment"),
    context,
  );
  const choice = relative(
    await fileDescription(file, environment, workspace.confinement),
    workspace,
  );
  if (!choice) return Response.json({ described: false } satisfies OpenapiOperationAnswer);
  const { contract } = await checkerOf(choice);
  const { matchWritten } = await load.readDescription();
  const operation = matchWritten(contract, method, url);
  return Response.json(
    {
      described: true,
      source: choice.namedBy,
      version: contract.version,
      ...(operation ? { operation: operationJson(operation) } : {}),
    } satisfies OpenapiOperationAnswer,
  );
}

function operationJson(op: ContractOperation): OperationJson {
  const o = op.operation;
  const media = (content: unknown): SchemaJson[] =>
    isObject(content)
      ? Object.entries(content).map(([type, m]) => ({
        label: type,
        schema: pretty(isObject(m) ? m.schema : undefined),
      }))
      : [];
  const responses = isObject(o.responses) ? o.responses : {};
  return {
    name: op.name,
    ...(typeof o.summary === "string" ? { summary: o.summary } : {}),
    ...(typeof o.description === "string" ? { description: o.description } : {}),
    parameters: op.parameters.map((p) => ({
      label: `${String(p.in)} ${String(p.name)}${p.required === true ? " (required)" : ""}`,
      schema: pretty(p.schema ?? p.content),
    })),
    requestBody: isObject(o.requestBody) ? media(o.requestBody.content) : [],
    responses: Object.entries(responses).map(([status, r]) => ({
      status,
      ...(isObject(r) && typeof r.description === "string" ? { description: r.description } : {}),
      content: media(isObject(r) ? r.content : undefined),
    })),
  };
}

function pretty(schema: unknown): string {
  if (schema === undefined) return "(any)";
  const text = JSON.stringify(schema, null, 2) ?? "";
  return text.length > MAX_SCHEMA_CHARS
    ? `${text.slice(0, MAX_SCHEMA_CHARS)}\n… (cut at ${MAX_SCHEMA_CHARS / 1024} KiB)`
    : text;
}
