/**
 * The auth panel's endpoints: OAuth 2.0 token state (never the token) and getting a token,
 * with the authorization-code login opened by the page in a new tab.
 * @module
 */
import { load } from "../../load.ts";
import { UsageError } from "../../errors/mod.ts";
import type {
  DeviceCodePrompt,
  OAuth2Notice,
  OAuth2Options,
} from "../../auth/oauth2/parse_value.ts";
import type { TokenState } from "../../auth/oauth2/token_state.ts";
import { type JsonObject, object, readJson } from "./decode.ts";
import { securityAuthOf } from "./environment_api.ts";
import type { ApiContext } from "./http_api.ts";
import { parseUiAuth, type UiOAuthSettings } from "./spec_json.ts";
import { ndjsonResponse } from "./ndjson.ts";
import type { AuthTokenEvent, TokenStateJson } from "../protocol.ts";

function stateJson(state: TokenState | undefined): TokenStateJson | null {
  if (!state) return null;
  return {
    obtainedAt: state.obtainedAt.getTime(),
    ...(state.expiresAt ? { expiresAt: state.expiresAt.getTime() } : {}),
    ...(state.refreshedAt ? { refreshedAt: state.refreshedAt.getTime() } : {}),
    hasRefreshToken: state.hasRefreshToken,
  };
}

/**
 * The OAuth 2.0 options of a call: the auth panel's (`{auth}`), or an environment's
 * `Security.Auth` configuration (`{securityAuth: {id, environment?, file?}}`), which a request
 * from a file uses as `{{$auth.token("id")}}`. Both go through the same token step and cache.
 */
async function oauthOptions(
  json: JsonObject,
  context: ApiContext,
  hooks: Pick<UiOAuthSettings, "openBrowser" | "showDeviceCode" | "notify"> = {},
): Promise<OAuth2Options> {
  if (json.securityAuth !== undefined) {
    return await securityAuthOf(
      object(json.securityAuth, "securityAuth"),
      context.workspace,
      {
        ...(context.oauth?.cacheDir !== undefined ? { cacheDir: context.oauth.cacheDir } : {}),
        ...(context.oauth?.openBrowser ? { openBrowser: context.oauth.openBrowser } : {}),
        ...(hooks.openBrowser ? { openBrowser: hooks.openBrowser } : {}),
        ...(hooks.showDeviceCode ? { showDeviceCode: hooks.showDeviceCode } : {}),
        ...(hooks.notify ? { notify: hooks.notify } : {}),
      },
      context.env,
    );
  }
  const { auth } = parseUiAuth(json.auth, { ...context.oauth, ...hooks });
  if (auth.authorization?.kind !== "oauth2") throw new UsageError("Auth is not OAuth 2.0");
  return auth.authorization.oauth2;
}

/**
 * `POST /api/auth/state`: what the cache holds for the panel's OAuth 2.0 settings.
 *
 * @param request `{auth}` or `{securityAuth}`
 * @param context OAuth settings
 * @returns `{state}`: obtained, expires and refreshed times, or null
 */
export async function handleAuthState(request: Request, context: ApiContext): Promise<Response> {
  const options = await oauthOptions(object(await readJson(request), "request"), context);
  const { oauth2TokenState } = await load.tokenState();
  return Response.json({ state: stateJson(await oauth2TokenState(options)) });
}

/**
 * `POST /api/auth/token`: gets a token now (cached, refreshed or new). The answer is NDJSON:
 * for the authorization-code flow first `{type: "login", url}`, which the page opens in a new
 * tab (the callback is the same loopback server as the CLI's), for the device flow
 * `{type: "device", verificationUri, userCode, …}`, which the page shows, then `{type: "state"}` or
 * `{type: "error", error}`: {@link AuthTokenEvent}s.
 *
 * @param request `{auth}` or `{securityAuth}`
 * @param context signal, fetch, OAuth settings
 * @returns the NDJSON stream
 */
export async function handleAuthToken(request: Request, context: ApiContext): Promise<Response> {
  const json = object(await readJson(request), "request");
  let emitLogin: (url: URL) => void = () => {};
  let emitDevice: (prompt: DeviceCodePrompt) => void = () => {};
  let emitNotice: (notice: OAuth2Notice) => void = () => {};
  const options = await oauthOptions(json, context, {
    openBrowser: (url) => emitLogin(url),
    showDeviceCode: (prompt) => emitDevice(prompt),
    notify: (notice) => emitNotice(notice),
  });
  const { oauth2Token } = await load.accessToken();
  // No timeout of its own: the login has the callback server's.
  return ndjsonResponse<AuthTokenEvent>(async ({ emit, signal }) => {
    emitLogin = (url) => emit({ type: "login", url: url.href });
    emitDevice = (prompt) => emit({ type: "device", ...prompt });
    emitNotice = (notice) => emit({ type: "notice", ...notice });
    const token = await oauth2Token(options, {
      signal,
      ...(context.fetch ? { fetch: context.fetch } : {}),
    });
    emit({ type: "state", state: stateJson(token.state) });
  }, { signal: context.signal, timeoutMs: 0 });
}
