/**
 * The JSON API of the UI server, one entry per endpoint. Each tab's endpoints live in their
 * own module; add new ones here.
 * @module
 */
import { handleFileSend } from "./file_send.ts";
import { handleAuthState, handleAuthToken } from "./auth_api.ts";
import { handleGraphqlRun, handleGraphqlSchema } from "./graphql_api.ts";
import { handleGrpcCall, handleGrpcEnd, handleGrpcMethods, handleGrpcSend } from "./grpc_api.ts";
import { handleOpenapiOperation } from "./openapi_api.ts";
import { type ApiContext, handleHttpBody, handleHttpCurl, handleHttpSend } from "./http_api.ts";
import { handleStreamSocket } from "./stream_api.ts";
import { handleStateLoad, handleStateSave } from "./ui_state.ts";
import { handleNewWindow } from "./window_api.ts";
import { handleEnvironments, handleSystemVariables } from "./environment_api.ts";
import { handleWorkspaceImport } from "./workspace_import.ts";
import { handleWorkspaceRun } from "./run_api.ts";
import { handleCookies, handleCookiesClear } from "./cookies_api.ts";
import { handleImportCurl } from "./import_api.ts";
import { handleConnection, handleConnectionSave } from "./connection_api.ts";
import { handleEnvironmentSecret } from "./env_secret_api.ts";
import {
  handleWorkspaceChanges,
  handleWorkspaceDelete,
  handleWorkspaceFiles,
  handleWorkspaceIndex,
  handleWorkspaceRead,
  handleWorkspaceRename,
  handleWorkspaceWrite,
} from "./workspace_api.ts";

/** Handles one API call; throwing a DialError becomes a JSON error response. */
export type ApiHandler = (request: Request, context: ApiContext) => Promise<Response>;

/** `"METHOD /path"` → handler. */
export const API_ROUTES: ReadonlyMap<string, ApiHandler> = new Map<string, ApiHandler>([
  ["POST /api/http", handleHttpSend],
  ["POST /api/http/curl", handleHttpCurl],
  ["POST /api/http/file", handleFileSend],
  ["POST /api/http/body", handleHttpBody],
  ["POST /api/auth/state", handleAuthState],
  ["POST /api/auth/token", handleAuthToken],
  ["POST /api/graphql/schema", handleGraphqlSchema],
  ["POST /api/graphql/run", handleGraphqlRun],
  ["POST /api/grpc/methods", handleGrpcMethods],
  ["POST /api/grpc/call", handleGrpcCall],
  ["POST /api/grpc/send", handleGrpcSend],
  ["POST /api/grpc/end", handleGrpcEnd],
  ["POST /api/openapi/operation", handleOpenapiOperation],
  ["GET /api/stream", handleStreamSocket],
  ["POST /api/state/load", handleStateLoad],
  ["POST /api/state/save", handleStateSave],
  ["POST /api/window", handleNewWindow],
  ["POST /api/workspace/files", handleWorkspaceFiles],
  ["POST /api/workspace/read", handleWorkspaceRead],
  ["POST /api/workspace/index", handleWorkspaceIndex],
  ["POST /api/workspace/write", handleWorkspaceWrite],
  ["POST /api/workspace/rename", handleWorkspaceRename],
  ["POST /api/workspace/delete", handleWorkspaceDelete],
  ["POST /api/workspace/changes", handleWorkspaceChanges],
  ["POST /api/workspace/environments", handleEnvironments],
  ["POST /api/workspace/run", handleWorkspaceRun],
  ["POST /api/workspace/import", handleWorkspaceImport],
  ["POST /api/cookies", handleCookies],
  ["POST /api/cookies/clear", handleCookiesClear],
  ["POST /api/import/curl", handleImportCurl],
  ["POST /api/workspace/connection", handleConnection],
  ["POST /api/workspace/environments/secret", handleEnvironmentSecret],
  ["POST /api/workspace/environments/system", handleSystemVariables],
  ["POST /api/workspace/connection/save", handleConnectionSave],
]);
