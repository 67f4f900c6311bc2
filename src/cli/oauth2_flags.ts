/**
 * The `--oauth2*` flags to OAuth 2.0 options: loaded only when one of them is given.
 * @module
 */
import { missingOAuth2Setting, type OAuth2Requirement } from "../auth/oauth2/required.ts";
import { UsageError } from "../errors/mod.ts";
import {
  DEFAULT_CALLBACK_PORT,
  DEFAULT_CALLBACK_TIMEOUT,
  type OAuth2Options,
  parseOAuth2Param,
} from "../auth/oauth2/parse_value.ts";
import { Secret } from "../secret.ts";
import { OAUTH2_EXTRA_FLAGS, type OAuth2FlagValues } from "./auth_flags.ts";
import type { FlagDecl } from "./declare.ts";
import { isGiven } from "./declare.ts";
import { authorizationUrlShower } from "./oauth2_browser.ts";
import { deviceCodePrinter } from "./oauth2_device.ts";
import { defaultCacheDir } from "../cache.ts";
import type { CliContext } from "./context.ts";
import { promptSecret } from "./prompt.ts";
import { parseUrl } from "../http/values.ts";
import { oauth2NoticeReporter } from "./oauth2_notice.ts";
import { clientSecretReferences, oauth2Value } from "./oauth2_sources.ts";
import { type FlagReference, type FlagReferences, readFlagReferences } from "./secret_ref.ts";

/**
 * @param values the flag values
 * @returns the `--oauth2*` values that may be references: the client secret, the password and
 * the client key (a path, or a reference)
 */
export function oauth2References(values: OAuth2FlagValues): FlagReference[] {
  if (values.oauth2 === undefined) return [];
  const key = values.oauth2ClientKey;
  return [
    ...clientSecretReferences(values, values.oauth2),
    ...(values.oauth2Password !== undefined
      ? [{ flag: "--oauth2-password", value: values.oauth2Password }]
      : []),
    ...(key !== undefined
      ? [{ flag: "--oauth2-client-key", value: key.startsWith("@") ? key : `@${key}` }]
      : []),
  ];
}

/**
 * Parses and validates the `--oauth2*` flags, flow by flow, before anything is sent. A missing
 * password-flow password is asked for (on a terminal) only when a new grant is needed: a
 * cached or refreshable token serves first.
 *
 * @param values the flag values
 * @param context the run: stdin, environment (the cache directory), stderr, notices
 * @param references the command line's references, read with the other auth flags' (else read
 * here: see {@link oauth2References})
 * @returns the OAuth 2.0 options, or undefined without `--oauth2`
 * @throws {UsageError} on a bad value, a missing flag the flow needs, or a flag it ignores
 */
export async function parseOAuth2Flags(
  values: OAuth2FlagValues,
  context: CliContext,
  references?: FlagReferences,
): Promise<OAuth2Options | undefined> {
  const extras: readonly FlagDecl[] = OAUTH2_EXTRA_FLAGS;
  const given = extras.filter((flag) => isGiven(values, flag));
  if (values.oauth2 === undefined) {
    const stray = given[0];
    if (stray) throw new UsageError(`--${stray.long} needs --oauth2`);
    return undefined;
  }
  references ??= await readFlagReferences(oauth2References(values), context);
  const value = oauth2Value(values, values.oauth2, references);
  checkFlowFlags(given, value.flow);
  const { clientAuth, clientKey } = clientAuthentication(values, value.clientSecret, references);
  const issuer = values.oauth2Issuer === undefined ? undefined : parseUrl(values.oauth2Issuer);
  const missing = missingOAuth2Setting({
    flow: value.flow,
    clientSecret: value.clientSecret,
    clientKey,
    authUrl: values.oauth2AuthUrl,
    deviceUrl: values.oauth2DeviceUrl,
    issuer,
    username: values.oauth2Username,
  });
  if (missing) throw new UsageError(MISSING[missing], { remedy: { give: missing } });
  const { params, authUrl, deviceUrl, redirectUri, password } = readSettings(values, references);
  const port = values.oauth2Port ?? DEFAULT_CALLBACK_PORT;
  const timeout = values.oauth2Timeout ?? DEFAULT_CALLBACK_TIMEOUT;
  const askPassword = passwordAsker(values.oauth2Username ?? "", context);
  return {
    ...value,
    port,
    timeout,
    cacheDir: defaultCacheDir(context.env),
    openBrowser: authorizationUrlShower(context),
    notify: oauth2NoticeReporter(context),
    ...(value.flow === "password" ? { askPassword } : {}),
    ...(value.flow === "device_code"
      ? { showDeviceCode: deviceCodePrinter(values.oauth2Browser, context) }
      : {}),
    ...(deviceUrl ? { deviceUrl } : {}),
    ...(clientAuth !== undefined ? { clientAuth } : {}),
    ...(clientKey ? { clientKey } : {}),
    ...(values.oauth2ClientKeyAlg ? { clientKeyAlg: values.oauth2ClientKeyAlg } : {}),
    ...(redirectUri ? { redirectUri } : {}),
    ...(values.oauth2NoCache ? { noCache: true } : {}),
    ...(values.oauth2Dpop ? { dpop: true } : {}),
    ...(values.oauth2Scope !== undefined ? { scope: values.oauth2Scope } : {}),
    ...(params.length ? { params } : {}),
    ...(authUrl ? { authUrl } : {}),
    ...(issuer ? { issuer } : {}),
    ...(values.oauth2Username !== undefined ? { username: values.oauth2Username } : {}),
    ...(password ? { password } : {}),
  };
}

/** A flag of another flow than the one `--oauth2` names is refused. */
function checkFlowFlags(given: readonly FlagDecl[], flow: string): void {
  const stray = given.find((flag) => flag.flows && !flag.flows.includes(flow));
  if (stray?.flows) {
    throw new UsageError(`--${stray.long} is only used by the ${stray.flows[0]} flow`, {
      hint: `this is --oauth2 ${flow}:…`,
    });
  }
}

/** The parameters, URLs and password of the `--oauth2-*` flags, each checked, in that order. */
function readSettings(values: OAuth2FlagValues, references: FlagReferences) {
  const url = (text: string | undefined) => text === undefined ? undefined : parseUrl(text);
  const params = values.oauth2Param.map(parseOAuth2Param);
  const authUrl = url(values.oauth2AuthUrl);
  const deviceUrl = url(values.oauth2DeviceUrl);
  const redirectUri = values.oauth2RedirectUri === undefined
    ? undefined
    : parseRedirectUri(values.oauth2RedirectUri);
  const password = values.oauth2Password === undefined
    ? undefined
    : new Secret(references.text(values.oauth2Password, "--oauth2-password"));
  return { params, authUrl, deviceUrl, redirectUri, password };
}

/**
 * How the client authenticates at the token endpoint (`--oauth2-client-auth`,
 * `--oauth2-client-key`, `--oauth2-client-key-alg`), checked against the client secret.
 */
function clientAuthentication(
  values: OAuth2FlagValues,
  clientSecret: Secret | undefined,
  references: FlagReferences,
): { clientAuth?: OAuth2Options["clientAuth"]; clientKey?: Secret } {
  const keyText = values.oauth2ClientKey;
  const clientAuth = values.oauth2ClientAuth ??
    (keyText !== undefined ? "private_key_jwt" as const : undefined);
  if (keyText !== undefined && clientAuth !== "private_key_jwt") {
    throw new UsageError(`--oauth2-client-key is used by --oauth2-client-auth private_key_jwt`, {
      hint: `this is --oauth2-client-auth ${clientAuth}`,
    });
  }
  if (clientAuth === "private_key_jwt" && keyText === undefined) {
    throw new UsageError("--oauth2-client-auth private_key_jwt needs --oauth2-client-key", {
      hint: "give the client's PEM private key: --oauth2-client-key key.pem (or @env:NAME)",
    });
  }
  if (values.oauth2ClientKeyAlg !== undefined && keyText === undefined) {
    throw new UsageError("--oauth2-client-key-alg needs --oauth2-client-key");
  }
  if (clientAuth === "private_key_jwt" && clientSecret) {
    throw new UsageError("private_key_jwt signs with --oauth2-client-key: drop the client secret");
  }
  if (clientAuth === "client_secret_jwt" && !clientSecret) {
    throw new UsageError("--oauth2-client-auth client_secret_jwt needs a client secret");
  }
  const clientKey = keyText === undefined ? undefined : new Secret(
    references.text(keyText.startsWith("@") ? keyText : `@${keyText}`, "--oauth2-client-key"),
  );
  return {
    ...(clientAuth !== undefined ? { clientAuth } : {}),
    ...(clientKey ? { clientKey } : {}),
  };
}

/** Asks for the password flow's password on a terminal, only when a new grant needs it. */
function passwordAsker(user: string, context: CliContext): () => Promise<Secret> {
  return async () => {
    if (!context.stdin.isTerminal) {
      throw new UsageError(`Missing --oauth2-password for "${user}"`, {
        hint:
          "give --oauth2-password, or run in a terminal to be prompted (@file, @- or @env:NAME read it)",
      });
    }
    return await promptSecret(`OAuth 2.0 password for "${user}": `, context);
  };
}

/** A setting the flow needs, as the command line names it. */
const MISSING: { readonly [R in OAuth2Requirement]: string } = {
  client_secret: "The client_credentials flow needs a client secret in --oauth2",
  auth_url: "The authorization_code flow needs --oauth2-auth-url",
  device_url: "The device_code flow needs --oauth2-device-url or --oauth2-issuer",
  username: "The password flow needs --oauth2-username",
};

function parseRedirectUri(text: string): URL {
  const url = parseUrl(text, ["http:"]);
  if (!["localhost", "127.0.0.1", "[::1]"].includes(url.hostname)) {
    throw new UsageError(
      `Invalid --oauth2-redirect-uri "${text}": the host must be localhost, 127.0.0.1 or [::1]`,
      { hint: "dial listens for the callback on this machine's loopback interface only" },
    );
  }
  return url;
}
