/**
 * The auth panel's endpoints: OAuth 2.0 token state (never the token) and getting a token,
 * with the authorization-code login opened by the page in a new tab.
 * @module
 */
import { DialError, UsageError } from "../../errors.ts";
import type { OAuth2Options } from "../../auth/oauth2/parse_value.ts";
import type { TokenState } from "../../auth/oauth2/token_state.ts";
import { object, readJson } from "./decode.ts";
import type { ApiContext } from "./http_api.ts";
import { parseUiAuth } from "./spec_json.ts";

/** Token state as JSON: times in epoch milliseconds. */
export interface TokenStateJson {
  obtainedAt: number;
  expiresAt?: number;
  refreshedAt?: number;
  hasRefreshToken: boolean;
}

function stateJson(state: TokenState | undefined): TokenStateJson | null {
  if (!state) return null;
  return {
    obtainedAt: state.obtainedAt.getTime(),
    ...(state.expiresAt ? { expiresAt: state.expiresAt.getTime() } : {}),
    ...(state.refreshedAt ? { refreshedAt: state.refreshedAt.getTime() } : {}),
    hasRefreshToken: state.hasRefreshToken,
  };
}

async function oauthOptions(request: Request, context: ApiContext): Promise<OAuth2Options> {
  const json = object(await readJson(request), "request");
  const { auth } = parseUiAuth(json.auth, context.oauth);
  if (auth.authorization?.kind !== "oauth2") throw new UsageError("Auth is not OAuth 2.0");
  return auth.authorization.oauth2;
}

/**
 * `POST /api/auth/state`: what the cache holds for the panel's OAuth 2.0 settings.
 *
 * @param request `{auth}`
 * @param context OAuth settings
 * @returns `{state}`: obtained, expires and refreshed times, or null
 */
export async function handleAuthState(request: Request, context: ApiContext): Promise<Response> {
  const options = await oauthOptions(request, context);
  const { oauth2TokenState } = await import("../../auth/oauth2/token_state.ts");
  return Response.json({ state: stateJson(await oauth2TokenState(options)) });
}

/**
 * `POST /api/auth/token`: gets a token now (cached, refreshed or new). The answer is NDJSON:
 * for the authorization-code flow first `{type: "login", url}`, which the page opens in a new
 * tab (the callback is the same loopback server as the CLI's), then `{type: "state"}` or
 * `{type: "error"}`.
 *
 * @param request `{auth}`
 * @param context signal, fetch, OAuth settings
 * @returns the NDJSON stream
 */
export async function handleAuthToken(request: Request, context: ApiContext): Promise<Response> {
  const json = object(await readJson(request), "request");
  const encoder = new TextEncoder();
  const stream = new TransformStream<Record<string, unknown>, Uint8Array>({
    transform: (value, out) => out.enqueue(encoder.encode(`${JSON.stringify(value)}\n`)),
  });
  const writer = stream.writable.getWriter();
  const send = (value: Record<string, unknown>) => writer.write(value).catch(() => {});
  const { auth } = parseUiAuth(json.auth, {
    ...context.oauth,
    openBrowser: (url) => void send({ type: "login", url: url.href }),
  });
  if (auth.authorization?.kind !== "oauth2") throw new UsageError("Auth is not OAuth 2.0");
  const options = auth.authorization.oauth2;
  const { oauth2Token } = await import("../../auth/oauth2/authorize.ts");
  (async () => {
    try {
      const token = await oauth2Token(options, {
        signal: context.signal,
        ...(context.fetch ? { fetch: context.fetch } : {}),
      });
      await send({ type: "state", state: stateJson(token.state) });
    } catch (error) {
      await send({
        type: "error",
        message: error instanceof Error ? error.message : String(error),
        ...(error instanceof DialError && error.hint ? { hint: error.hint } : {}),
      });
    } finally {
      await writer.close().catch(() => {});
    }
  })();
  return new Response(stream.readable, {
    headers: { "Content-Type": "application/x-ndjson; charset=utf-8" },
  });
}
