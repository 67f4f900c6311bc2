/**
 * Request files for Deno scripts: parse `.http` files (JetBrains HTTP Client format with VS Code
 * REST Client's additions), edit one request in place, write requests, load environments,
 * substitute variables, and run a file with its scripts sandboxed, through dial's one `send`.
 *
 * @example
 * ```ts
 * import { loadEnvironment, parseHttpFile, runHttpFile } from "./mod.ts";
 * const file = parseHttpFile(await Deno.readTextFile("api.http"), "api.http");
 * const environment = await loadEnvironment(".", { name: "dev" });
 * const results = await runHttpFile(file, { environment });
 * for (const r of results) console.log(r.label, r.status, r.tests);
 * ```
 * @module
 */
// Every type of a parsed file (HttpFile, HttpRequest, its lines and parts).
export type * from "./http_file_types.ts";
export { HttpFileSyntaxError, KNOWN_DIRECTIVES, parseHttpFile } from "./parse_http_file.ts";
export {
  appendRequest,
  replaceRequest,
  type RequestModel,
  type ScriptModel,
  writeHttpRequest,
} from "./write_http_file.ts";
export {
  type AuthConfig,
  type Environment,
  loadEnvironment,
  type LoadEnvironmentOptions,
  parseVarFlags,
  PRIVATE_ENV_FILE,
  PUBLIC_ENV_FILE,
} from "./environment.ts";
export {
  lookupVariable,
  referencedRequests,
  substitute,
  type Substituted,
  substituteValue,
  type TemplatePlace,
  UndefinedVariableError,
  type VariableScope,
  type VariableValue,
} from "./substitute.ts";
export {
  requestVariable,
  type RequestVariablePlace,
  type RequestVariableSource,
} from "./request_variables.ts";
export {
  buildFileRequest,
  type BuildOptions,
  type FileRequest,
  type RequestKind,
} from "./file_request.ts";
export {
  type CheckableExchange,
  type ExchangeEvent,
  labelOf,
  type RequestResult,
  runHttpFile,
  type RunHttpFileOptions,
  ScriptSessions,
} from "./run_http_file.ts";
export type { GrpcStatus } from "./run_grpc.ts";
export {
  Confinement,
  type PathPlace,
  Reference,
  type ReferencePolicy,
  type ReferenceReader,
  type ReferenceSource,
  type Trust,
  whenResolved,
} from "./trust_rule.ts";
export {
  runScript,
  type SandboxLimits,
  ScriptError,
  type ScriptReply,
  type ScriptRequest,
  ScriptSession,
  type ScriptSource,
} from "./script_sandbox.ts";
export type {
  PostmanInput,
  PostmanTypes,
  ScriptInput,
  ScriptOutput,
  TestOutcome,
} from "./script_api.ts";
export {
  oauth2FromConfig,
  type OAuth2Hooks,
  type SecurityAuthContext,
  securityAuthToken,
} from "./security_auth.ts";
export {
  isSubscription,
  readEventStreamData,
  runGraphQLSubscription,
  runWebSocketRequest,
  type StreamOptions,
} from "./run_streams.ts";
export {
  casesOf,
  type CaseTimings,
  fileErrorCase,
  htmlReport,
  jsonReport,
  junitReport,
  prettyLine,
  prettyReport,
  prettySummary,
  summarize,
  type Summary,
  tapReport,
  type TestCase,
  type TestReport,
} from "./reporters.ts";
export { type DataRow, type DataValue, parseDataRows } from "./data_rows.ts";
export type { Phases, Timings } from "./_run_parts.ts";
