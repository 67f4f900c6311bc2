/**
 * The auth panel's endpoints: OAuth 2.0 token state (never the token) and getting a token,
 * with the authorization-code login opened by the page in a new tab.
 * @module
 */
import { UsageError } from "../../errors.ts";
import type {
  DeviceCodePrompt,
  OAuth2Notice,
  OAuth2Options,
} from "../../auth/oauth2/parse_value.ts";
import type { TokenState } from "../../auth/oauth2/token_state.ts";
import { object, readJson } from "./decode.ts";
import type { ApiContext } from "./http_api.ts";
import { parseUiAuth } from "./spec_json.ts";
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
 * tab (the callback is the same loopback server as the CLI's), for the device flow
 * `{type: "device", verificationUri, userCode, …}`, which the page shows, then `{type: "state"}` or
 * `{type: "error", error}`: {@link AuthTokenEvent}s.
 *
 * @param request `{auth}`
 * @param context signal, fetch, OAuth settings
 * @returns the NDJSON stream
 */
export async function handleAuthToken(request: Request, context: ApiContext): Promise<Response> {
  const json = object(await readJson(request), "request");
  let emitLogin: (url: URL) => void = () => {};
  let emitDevice: (prompt: DeviceCodePrompt) => void = () => {};
  let emitNotice: (notice: OAuth2Notice) => void = () => {};
  const { auth } = parseUiAuth(json.auth, {
    ...context.oauth,
    openBrowser: (url) => emitLogin(url),
    showDeviceCode: (prompt) => emitDevice(prompt),
    notify: (notice) => emitNotice(notice),
  });
  if (auth.authorization?.kind !== "oauth2") throw new UsageError("Auth is not OAuth 2.0");
  const options = auth.authorization.oauth2;
  const { oauth2Token } = await import("../../auth/oauth2/access_token.ts");
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
