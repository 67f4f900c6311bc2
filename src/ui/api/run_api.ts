/**
 * The runner view's endpoint: runs a workspace request file's requests in order with their
 * `client.test` results, through the request files' own runner (as `dial test` does), and
 * streams one result per request. Files the request file includes (`< body.json`, script files)
 * and writes (`>> out.json`) must be inside the workspace too (or a `dial ui --allow-path`).
 * It runs in the workspace's session (`file_send.ts`): the
 * globals, named requests' results and cookies Send sees, with the same scope as Send and
 * `dial run` (`$processEnv`, `$dotenv` included).
 * @module
 */
import { processEnv } from "../../env.ts";
import { parseHttpFile } from "../../files/parse_http_file.ts";
import { runHttpFile } from "../../files/run_http_file.ts";
import { openapiSend } from "./openapi_api.ts";
import { fileEnvironment, WorkspaceSession } from "./file_send.ts";
import { describeResponse } from "./http_api.ts";
import { displayUrl } from "../../http/build_request.ts";
import { isCredentialName } from "../../credential_name.ts";
import { Secret } from "../../secret.ts";
import type { ResponseJson } from "../protocol.ts";
import type { ApiContext } from "./http_api.ts";
import { workspaceCall } from "./workspace_api.ts";
import { optionalString, string } from "./decode.ts";
import { errorJson } from "./error_json.ts";
import { ndjsonResponse } from "./ndjson.ts";

/** One line of the runner's answer. */
export type RunEvent =
  | {
    /** A request's exchange, before its `result`: what was sent and the response. */
    type: "exchange";
    index: number;
    request: { method: string; url: string; headers: Array<[string, string]> };
    response: ResponseJson;
  }
  | {
    type: "result";
    index: number;
    label: string;
    status?: number;
    durationMs: number;
    tests: Array<{ name: string; passed: boolean; message?: string }>;
    error?: { code: string; message: string; hint?: string };
  }
  | { type: "end"; passed: number; failed: number }
  | { type: "error"; error: { code: string; message: string; hint?: string } };

/**
 * `POST /api/workspace/run`: `{path, environment?}` → NDJSON {@link RunEvent}s.
 *
 * @param request the call
 * @param context the workspace, fetch and signal
 * @returns the stream of results
 */
export async function handleWorkspaceRun(
  request: Request,
  context: ApiContext,
): Promise<Response> {
  const { json, workspace } = await workspaceCall(request, context);
  const path = string(json.path, "path");
  const name = optionalString(json.environment, "environment");
  const real = await workspace.resolveFile(path);
  const file = parseHttpFile(await Deno.readTextFile(real), real);
  const environment = await fileEnvironment(workspace, real, name, context);
  // Each exchange checked against the description the file or environment names, as dial run.
  const openapi = await openapiSend(file, environment, workspace);
  // The session Send uses: globals and named results go on from one to the other.
  const session = context.session ?? new WorkspaceSession();
  return ndjsonResponse<RunEvent>(async ({ emit, signal }) => {
    let passed = 0;
    let failed = 0;
    await runHttpFile(file, {
      environment,
      // Includes, `>>` outputs and script files inside the workspace (and --allow-path) only.
      confinement: workspace.confinement,
      keepGoing: true,
      ...(openapi ? { checkExchange: openapi.check } : {}),
      globals: session.globals,
      responses: session.responsesOf(real),
      ...(context.cookies ? { cookies: context.cookies } : {}),
      env: context.env ?? processEnv,
      // Security.Auth tokens through the auth panel's cache; a browser login says "Log in first".
      oauth2: {
        ...(context.oauth?.openBrowser ? { openBrowser: context.oauth.openBrowser } : {}),
        ...(context.oauth?.cacheDir !== undefined ? { cacheDir: context.oauth.cacheDir } : {}),
      },
      send: { signal, ...(context.fetch ? { fetch: context.fetch } : {}) },
      onExchange: async (event) => {
        const started = performance.now();
        const sent = event.exchange.request;
        emit({
          type: "exchange",
          index: event.fileRequest.request.index,
          request: {
            method: sent.method,
            url: displayUrl(sent),
            // Private values never reach the page: credential headers show redacted.
            headers: sent.headers.map((h) => [
              h.name,
              h.value instanceof Secret || isCredentialName(h.name) || h.credential
                ? "(redacted)"
                : h.value,
            ]),
          },
          response: await describeResponse(event.exchange, started, context),
        });
      },
      onResult: (result) => {
        const ok = !result.error && result.tests.every((t) => t.passed);
        if (ok) passed++;
        else failed++;
        emit({
          type: "result",
          index: result.request.index,
          label: result.label,
          ...(result.status !== undefined ? { status: result.status } : {}),
          durationMs: Math.round(result.durationMs),
          tests: result.tests.map((t) => ({
            name: t.name,
            passed: t.passed,
            ...(t.message !== undefined ? { message: workspace.shown(t.message) } : {}),
          })),
          ...(result.error ? { error: errorJson(result.error, workspace) } : {}),
        });
      },
    });
    emit({ type: "end", passed, failed });
  }, { signal: context.signal, timeoutMs: 0, workspace });
}
