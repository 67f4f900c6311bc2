/**
 * The device authorization grant (RFC 8628): ask the device authorization endpoint for a user
 * code, show it with the verification URI, and poll the token endpoint at the interval the
 * provider asks for (slower after `slow_down`) until the person has logged in elsewhere, the
 * code expires, or the wait is aborted.
 * @module
 */
import * as oauth from "oauth4webapi";
import { boundedTokenFetch } from "./token_fetch.ts";
import { AuthError, networkError, TimeoutError, UsageError } from "../../errors/mod.ts";
import { redactUrl } from "../../redact_url.ts";
import {
  DEFAULT_CALLBACK_TIMEOUT,
  oauth2ParamsFor,
  type ResolvedOAuth2Options,
} from "./parse_value.ts";
import { ProviderError } from "../../errors/mod.ts";
import { normalizeScope, type TokenEntry } from "./token_cache.ts";
import {
  authorizationServer,
  httpOptions,
  newEntry,
  tokenError,
  type TokenRequestOptions,
  withClientAuth,
} from "./token_request.ts";

/** RFC 8628 3.2: the default polling interval. */
const DEFAULT_INTERVAL = 5;
/** RFC 8628 3.5: `slow_down` adds 5 seconds to the interval. */
const SLOW_DOWN_STEP = 5;

/**
 * Runs the device authorization grant.
 *
 * @param options the OAuth 2.0 options, with `deviceUrl` (given or discovered)
 * @param request fetch, signal and notes
 * @returns a new cache entry
 * @throws {AuthError} when the login is denied, the code expires, or an endpoint fails
 * @throws {TimeoutError} after `timeout` without a login
 * @see https://www.rfc-editor.org/rfc/rfc8628
 */
export async function deviceCodeGrant(
  options: ResolvedOAuth2Options,
  request: TokenRequestOptions,
): Promise<TokenEntry> {
  const deviceUrl = options.deviceUrl;
  if (!options.showDeviceCode) {
    // Polling for a code nobody can see would only wait out the timeout.
    throw new AuthError(
      "The device_code flow cannot run here: nothing shows its user code (showDeviceCode)",
    );
  }
  if (!deviceUrl) {
    throw new UsageError("The device_code flow needs a device authorization URL", {
      remedy: { give: "device_url" },
    });
  }
  const as: oauth.AuthorizationServer = {
    ...authorizationServer(options),
    device_authorization_endpoint: deviceUrl.href,
  };
  const client: oauth.Client = { client_id: options.clientId };
  const device = await deviceAuthorization(options, request, as, client, deviceUrl);
  await options.showDeviceCode?.({
    verificationUri: device.verification_uri,
    ...(device.verification_uri_complete
      ? { verificationUriComplete: device.verification_uri_complete }
      : {}),
    userCode: device.user_code,
    expiresIn: device.expires_in,
    ...(options.openDevicePage ? { openPage: true } : {}),
  });
  let interval = device.interval ?? DEFAULT_INTERVAL;
  const timeout = options.timeout ?? DEFAULT_CALLBACK_TIMEOUT;
  const deadline = Date.now() + Math.min(device.expires_in * 1000, timeout);
  const expired = () => expiredError(deviceUrl, device.expires_in * 1000, timeout);
  for (;;) {
    try {
      const result = await withClientAuth(options, request, async (auth) => {
        const response = await oauth.deviceCodeGrantRequest(
          as,
          client,
          auth,
          device.device_code,
          await httpOptions(request, options),
        );
        return await oauth.processDeviceCodeResponse(as, client, response);
      });
      return newEntry(options, result);
    } catch (error) {
      const refused = await tokenError(error, options.tokenUrl, request.signal);
      const code = refused instanceof ProviderError ? refused.oauthError : undefined;
      if (code === "slow_down") interval += SLOW_DOWN_STEP;
      // The server says the code expired, whatever the wait was: say that, not a timeout.
      else if (code === "expired_token") throw codeExpired(deviceUrl);
      else if (code === "access_denied") {
        throw new AuthError(
          `OAuth 2.0 device login at ${redactUrl(deviceUrl)} failed: access_denied`,
          { remedy: { check: "login" }, cause: refused },
        );
      } else if (code !== "authorization_pending") throw refused;
    }
    if (Date.now() + interval * 1000 > deadline) throw expired();
    await wait(interval * 1000, request.signal).catch((reason) => {
      throw networkError(reason, deviceUrl, request.signal);
    });
  }
}

/** RFC 8628 3.1–3.2: asks the device authorization endpoint for a device and a user code. */
async function deviceAuthorization(
  options: ResolvedOAuth2Options,
  request: TokenRequestOptions,
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  deviceUrl: URL,
): Promise<oauth.DeviceAuthorizationResponse> {
  const scope = normalizeScope(options.scope);
  const parameters = new URLSearchParams(scope ? { scope } : {});
  for (const [name, value] of oauth2ParamsFor(options, "auth")) parameters.append(name, value);
  try {
    return await withClientAuth(options, request, async (auth) => {
      const response = await oauth.deviceAuthorizationRequest(
        as,
        client,
        auth,
        parameters,
        deviceHttpOptions(request),
      );
      return await oauth.processDeviceAuthorizationResponse(as, client, response);
    });
  } catch (error) {
    throw await tokenError(error, deviceUrl, request.signal, "device authorization request");
  }
}

/** The device code expired before the person logged in. */
function codeExpired(deviceUrl: URL): Error {
  return new AuthError(
    `OAuth 2.0 device login at ${
      redactUrl(deviceUrl)
    } failed: the code expired before the login was completed`,
    { remedy: { use: "new_device_code" } },
  );
}

/** The code expired (when it expires before the timeout), or the wait timed out. */
function expiredError(deviceUrl: URL, expiresInMs: number, timeout: number): Error {
  return expiresInMs <= timeout ? codeExpired(deviceUrl) : new TimeoutError(
    `OAuth 2.0 device login at ${redactUrl(deviceUrl)} timed out after ${
      Math.round(timeout / 1000)
    } s`,
    { remedy: { raise: "device_timeout" } },
  );
}

function deviceHttpOptions(
  request: TokenRequestOptions,
): oauth.HttpRequestOptions<"POST", URLSearchParams> {
  const fetchFn = boundedTokenFetch(request.fetch);
  return {
    [oauth.allowInsecureRequests]: true,
    ...(request.signal ? { signal: request.signal } : {}),
    [oauth.customFetch]: (url: string, init: RequestInit) => fetchFn(url, init),
  };
}

/** Waits between polls; rejects with the signal's reason when it is aborted. */
function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
