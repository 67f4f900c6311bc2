/**
 * What each OAuth 2.0 flow cannot do without: the one rule the CLI, the UI and the library
 * check. Each face words a missing setting as its own flag or field; the library's
 * {@link checkOAuth2Settings} names a remedy instead.
 * @module
 */
import { UsageError } from "../../errors/mod.ts";
import type { OAuth2Flow } from "./parse_value.ts";

/** A setting a flow needs besides the token URL and the client id. */
export type OAuth2Requirement = "client_secret" | "auth_url" | "device_url" | "username";

/**
 * The setting each flow needs: a confidential client's secret (or its signing key) for
 * client_credentials, the authorization endpoint for authorization_code and the device
 * authorization endpoint for device_code (either found by discovery from an issuer; a public
 * client needs no secret: PKCE), the resource owner for password (the password itself may be
 * asked for later).
 */
export const OAUTH2_NEEDS: { readonly [F in OAuth2Flow]: OAuth2Requirement } = {
  client_credentials: "client_secret",
  authorization_code: "auth_url",
  device_code: "device_url",
  password: "username",
};

/** The settings the rule reads; each face fills them from its own inputs. */
export interface OAuth2Given {
  /** The flow. */
  flow: OAuth2Flow;
  /** A client secret, if given. */
  clientSecret?: unknown;
  /** A client signing key (private_key_jwt), if given. */
  clientKey?: unknown;
  /** An authorization URL, if given. */
  authUrl?: unknown;
  /** A device authorization URL, if given. */
  deviceUrl?: unknown;
  /** An issuer whose metadata names the endpoints, if given. */
  issuer?: unknown;
  /** A user name, if given. */
  username?: unknown;
}

const given = (value: unknown) => value !== undefined && value !== "";

/**
 * @param settings the flow and what was given
 * @returns the setting the flow needs that is missing, or undefined
 */
export function missingOAuth2Setting(settings: OAuth2Given): OAuth2Requirement | undefined {
  const need = OAUTH2_NEEDS[settings.flow];
  const ok = need === "client_secret"
    ? given(settings.clientSecret) || given(settings.clientKey)
    : need === "auth_url"
    ? given(settings.authUrl) || given(settings.issuer)
    : need === "device_url"
    ? given(settings.deviceUrl) || given(settings.issuer)
    : given(settings.username);
  return ok ? undefined : need;
}

const NAMES: { readonly [R in OAuth2Requirement]: string } = {
  client_secret: "a client secret",
  auth_url: "an authorization URL",
  device_url: "a device authorization URL",
  username: "a user name",
};

/**
 * Checks the rule for the library, where no face has checked it first.
 *
 * @param settings the flow and what was given
 * @throws {UsageError} naming the missing setting, with a remedy each face words
 */
export function checkOAuth2Settings(settings: OAuth2Given): void {
  const missing = missingOAuth2Setting(settings);
  if (missing) throw missingSettingError(settings.flow, missing);
}

/**
 * @param flow the flow
 * @param missing the setting it needs
 * @returns the library's error for it, with a remedy each face words
 */
export function missingSettingError(flow: OAuth2Flow, missing: OAuth2Requirement): UsageError {
  return new UsageError(`The ${flow} flow needs ${NAMES[missing]}`, { remedy: { give: missing } });
}
