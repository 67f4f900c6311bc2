/**
 * Postman's OAuth 2.0 auth as a JetBrains `Security.Auth` configuration, run by dial's own
 * OAuth 2.0 step (or, for an auth that holds only a saved access token and no grant dial can
 * run, that token as `Authorization: Bearer {{access_token}}` from the private environment) (`{{$auth.token("id")}}`): Client Credentials, Authorization Code (with or
 * without Postman's PKCE; dial always sends an S256 challenge) and Password. Client secrets and
 * passwords go to the private environment; what dial cannot carry (the implicit grant, a
 * callback URL that is not loopback, extra request parameters, a saved token) is reported.
 *
 * Only keys that `oauth2FromConfig` (src/files/security_auth.ts) reads are written.
 *
 * @see https://learning.postman.com/docs/sending-requests/authorization/oauth-20/
 * @see https://www.jetbrains.com/help/idea/oauth-2-0-authorization.html
 * @module
 */
import type { ImportResult } from "./import_model.ts";
import { secretVariable } from "./import_secrets.ts";

const GRANTS: Record<string, string> = {
  client_credentials: "Client Credentials",
  authorization_code: "Authorization Code",
  authorization_code_with_pkce: "Authorization Code",
  password_credentials: "Password",
};

/** Postman keys that are read, or that change nothing dial does. */
const CARRIED = new Set([
  "grant_type",
  "accessTokenUrl",
  "authUrl",
  "clientId",
  "clientSecret",
  "scope",
  "redirect_uri",
  "username",
  "password",
  "client_authentication",
  "addTokenTo",
  "headerPrefix",
  "tokenName",
  "useBrowser",
  "challengeAlgorithm",
  "tokenType",
]);

/** Where the request carries the token: a header, or the `access_token` query parameter. */
export interface OAuth2Use {
  /** The header to add, or none (the token goes in the query). */
  header?: { name: string; value: string };
  /** The query parameter to add. */
  query?: string;
}

/**
 * Adds a Postman OAuth 2.0 auth to the import as a `Security.Auth` configuration.
 *
 * @param result the import
 * @param where the request's place, for the loss report and the configuration's id
 * @param p the auth's parameters (`grant_type`, `accessTokenUrl`, `clientId` …)
 * @returns how the request sends the token, or `undefined` when the grant cannot be carried
 */
export function postmanOAuth2(
  result: ImportResult,
  where: string,
  p: Record<string, string>,
): OAuth2Use | undefined {
  const grantType = p.grant_type || "authorization_code";
  const grant = GRANTS[grantType];
  if (p.accessToken && (!grant || !p.accessTokenUrl)) {
    // Token only (no grant dial can run): the saved token is sent, as Newman sends it.
    const token = secretVariable(result, "access_token", p.accessToken, {
      where,
      what: "access token of the oauth2 auth",
    });
    if (p.addTokenTo === "queryParams") return { query: `access_token=${token}` };
    const prefix = p.headerPrefix === undefined ? "Bearer" : p.headerPrefix;
    return { header: { name: "Authorization", value: `${prefix} ${token}`.trim() } };
  }
  if (!grant) {
    result.losses.push({
      where,
      what:
        `OAuth 2.0 grant "${grantType}" (dial runs client credentials, authorization code and password)`,
    });
    return undefined;
  }
  if (!p.accessToken && !p.accessTokenUrl) {
    result.losses.push({
      where,
      what: "an OAuth 2.0 auth with neither a token URL nor a saved token (Newman sends none)",
    });
    return undefined;
  }
  const id = configId(result, p);
  const config: Record<string, string> = { "Type": "OAuth2", "Grant Type": grant };
  const set = (key: string, value: string | undefined) => {
    if (value) config[key] = value;
  };
  set("Token URL", p.accessTokenUrl);
  set("Client ID", p.clientId);
  if (p.clientSecret) {
    config["Client Secret"] = secretVariable(result, `${id}_client_secret`, p.clientSecret, {
      where,
      what: "client secret of the oauth2 auth",
    });
  }
  set("Scope", p.scope);
  if (grant === "Authorization Code") {
    set("Auth URL", p.authUrl);
    const redirect = p.redirect_uri;
    if (redirect && isLoopbackHttp(redirect)) config["Redirect URL"] = redirect;
    else if (redirect || p.useBrowser === "true") {
      result.losses.push({
        where,
        what: `the callback URL ${
          redirect || "of Postman's browser login"
        } (dial listens on http://localhost:8484/; register that one, or set "Redirect URL" to a loopback URL)`,
      });
    }
    if (p.challengeAlgorithm === "plain") {
      result.losses.push({ where, what: "the PKCE method plain (dial sends S256)" });
    }
  }
  if (grant === "Password") {
    set("Username", p.username);
    if (p.password) {
      config["Password"] = secretVariable(result, `${id}_password`, p.password, {
        where,
        what: "password of the oauth2 auth",
      });
    }
  }
  if (p.client_authentication === "body") config["Client Credentials"] = "in body";
  const existing = result.auth?.[id];
  if (!existing || JSON.stringify(existing) === JSON.stringify(config)) {
    (result.auth ??= {})[id] = config;
  }
  const extra = Object.keys(p).filter((k) => !CARRIED.has(k) && p[k] !== "");
  if (extra.length) {
    result.losses.push({
      where,
      what: `OAuth 2.0 settings dial does not send: ${extra.sort().join(", ")}`,
    });
  }
  const token = `{{$auth.token("${id}")}}`;
  if (p.addTokenTo === "queryParams") return { query: `access_token=${token}` };
  const prefix = p.headerPrefix === undefined ? "Bearer" : p.headerPrefix;
  return { header: { name: "Authorization", value: `${prefix} ${token}`.trim() } };
}

/**
 * One configuration per distinct client: the same auth inherited by many requests shares its
 * id (and so its cached token); Postman's token name names it when there is one.
 */
function configId(result: ImportResult, p: Record<string, string>): string {
  const base = (p.tokenName || p.clientId || "oauth2").replace(/[^A-Za-z0-9_-]+/g, "_")
    .replace(/^_+|_+$/g, "") || "oauth2";
  const auth = result.auth ?? {};
  for (let n = 1;; n++) {
    const id = n === 1 ? base : `${base}_${n}`;
    const existing = auth[id];
    if (!existing) return id;
    if (
      existing["Token URL"] === (p.accessTokenUrl || undefined) &&
      existing["Client ID"] === (p.clientId || undefined) &&
      existing["Grant Type"] === GRANTS[p.grant_type || "authorization_code"]
    ) return id;
  }
}

function isLoopbackHttp(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" &&
      ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  } catch {
    return false;
  }
}
