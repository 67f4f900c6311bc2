/**
 * The auth flags every command shares: `-H`, `-u`, `-B`, `-K`, `--oauth2*`, netrc. Secret
 * values may be references (`@PATH`, `@-`, `@env:NAME`, see `secret_ref.ts`).
 * @module
 */
import { lazy } from "./lazy.ts";
import type { CliContext } from "./context.ts";
import { checkOneAuthorization, hasAuthorizationHeader } from "../auth/one_authorization.ts";
import { UsageError } from "../errors/mod.ts";
import type { Authorization, AuthSpec, QueryKey } from "../auth/auth_spec.ts";
import { DEFAULT_CALLBACK_PORT, DEFAULT_CALLBACK_TIMEOUT } from "../auth/oauth2/defaults.ts";
import type { HeaderField } from "../http/request_spec.ts";
import { Secret } from "../secret.ts";
import { type FlagDecl, flags, type FlagValues, isGiven } from "./declare.ts";
import {
  headerReferences,
  isHeaderFile,
  netrcAuthorization,
  parseHeaderFlags,
  parseQueryKeyFlag,
  queryKeyReferences,
  splitUserFlag,
  userReferences,
} from "./auth_sources.ts";
import {
  claimStdin,
  type FlagReference,
  FlagReferences,
  readFlagReferences,
} from "./secret_ref.ts";

/** No reference read: for the flags' literal values. */
const NO_REFERENCES = new FlagReferences();

const CODE = ["authorization_code"] as const;
const PASSWORD = ["password"] as const;
const DEVICE = ["device_code"] as const;
const LOGIN = ["authorization_code", "device_code"] as const;

/** The `--oauth2-*` flags that refine `--oauth2` (each needs it; some belong to one flow). */
export const OAUTH2_EXTRA_FLAGS = flags([
  { long: "oauth2-scope", value: "scopes", help: "OAuth 2.0 scopes, space-separated" },
  {
    long: "oauth2-param",
    value: "name=value",
    repeatable: true,
    help: "extra token and authorization request parameter, e.g. audience=… (repeatable)",
  },
  {
    long: "oauth2-auth-url",
    value: "url",
    flows: CODE,
    help: "authorization URL (authorization_code)",
  },
  {
    long: "oauth2-username",
    value: "user",
    flows: PASSWORD,
    help: "resource owner (password flow)",
  },
  {
    long: "oauth2-password",
    value: "password",
    flows: PASSWORD,
    help: "resource owner's password (password flow)",
  },
  {
    long: "oauth2-port",
    value: "port",
    kind: "port",
    flows: CODE,
    help: `callback port (authorization_code, default ${DEFAULT_CALLBACK_PORT})`,
  },
  {
    long: "oauth2-client-auth",
    value: "method",
    choices: ["basic", "post", "private_key_jwt", "client_secret_jwt"],
    help: "client authentication (default basic)",
  },
  {
    long: "oauth2-client-key",
    value: "path",
    file: true,
    help: "PEM private key for private_key_jwt (a path, @env:NAME or @-)",
  },
  {
    long: "oauth2-client-key-alg",
    value: "alg",
    choices: ["RS256", "PS256", "ES256"],
    help: "algorithm of --oauth2-client-key (default from the key: RS256 or ES256)",
  },
  {
    long: "oauth2-redirect-uri",
    value: "uri",
    flows: CODE,
    help: "redirect URI (authorization_code, default http://localhost:<port>/)",
  },
  {
    long: "oauth2-timeout",
    value: "seconds",
    kind: "seconds",
    flows: LOGIN,
    help: `how long to wait for the login (default ${DEFAULT_CALLBACK_TIMEOUT / 1000})`,
  },
  {
    long: "oauth2-device-url",
    value: "url",
    flows: DEVICE,
    help: "device authorization endpoint (device_code)",
  },
  {
    long: "oauth2-browser",
    flows: DEVICE,
    help: "also open the verification page in the browser (device_code)",
  },
  { long: "oauth2-no-cache", help: "neither read nor write the token cache" },
  {
    long: "oauth2-dpop",
    help: "bind the token to a key of this run (DPoP, RFC 9449): a proof on every request",
  },
  {
    long: "oauth2-issuer",
    value: "url",
    help: "discover the endpoints from this issuer's metadata (OpenID Connect, RFC 8414)",
  },
  {
    long: "oauth2-token-url",
    value: "url",
    help: "token endpoint (instead of the one in --oauth2)",
  },
  { long: "oauth2-client-id", value: "id", help: "client id (instead of the one in --oauth2)" },
  {
    long: "oauth2-client-secret",
    value: "secret",
    help: "client secret (@file, @-, @env:NAME read it)",
  },
]);

/** The `--oauth2` flags: the flow and its refinements. */
export const OAUTH2_FLAGS = flags([
  {
    long: "oauth2",
    value: "flow:token_url:client_id[:secret]",
    help: "OAuth 2.0: client_credentials, authorization_code, password or device_code",
  },
  ...OAUTH2_EXTRA_FLAGS,
]);

/** The auth and header flags every command that sends shares. */
export const AUTH_FLAGS = flags([
  {
    long: "header",
    short: "H",
    value: "header",
    repeatable: true,
    help: 'custom header "Name: value", or @file / @- of header lines (repeatable)',
  },
  {
    long: "auth",
    short: "u",
    shortAliases: ["a"],
    value: "user:password",
    help: "HTTP Basic auth (prompts for a missing password); also HTTPie's -a",
  },
  {
    long: "bearer",
    short: "B",
    value: "token",
    help: "Bearer token auth (@file, @-, @env:NAME read it)",
  },
  {
    long: "api-key-query",
    short: "K",
    value: "name=value",
    repeatable: true,
    help: "API key in the query (repeatable)",
  },
  {
    long: "digest",
    help: "send -u as HTTP Digest (RFC 7616: MD5, SHA-256), answering the server's challenge",
  },
  {
    long: "aws-sigv4",
    value: "provider1[:provider2[:region[:service]]]",
    help: "sign with AWS Signature Version 4 (-u KEY:SECRET or AWS_ACCESS_KEY_ID), as curl",
  },
  {
    long: "aws-session-token",
    value: "token",
    help: "session token of temporary AWS credentials (@file, @-, @env:NAME read it)",
  },
  { long: "no-netrc", help: "do not read credentials from ~/.netrc or $NETRC" },
  {
    long: "netrc-file",
    value: "path",
    file: true,
    help: "read credentials from this netrc file",
  },
  ...OAUTH2_FLAGS,
]);

/** Flags that conflict among the auth flags: two ways to set one callback port; netrc. */
export const AUTH_CONFLICTS = [{
  flags: ["oauth2-port", "oauth2-redirect-uri"],
  hint: "write the port in the redirect URI, e.g. http://localhost:9000/callback",
}, { flags: ["netrc-file", "no-netrc"] }] as const;

/** The parsed values of the auth flags. */
export type AuthFlagValues = FlagValues<typeof AUTH_FLAGS>;

/** The parsed values of the `--oauth2` flags alone. */
export type OAuth2FlagValues = FlagValues<typeof OAUTH2_FLAGS>;

/** Auth and headers parsed from flags. */
export interface ParsedAuth {
  /** Authorization and query keys. */
  auth: AuthSpec;
  /** `-H` headers (credential-looking values wrapped as secrets). */
  headers: HeaderField[];
}

/**
 * Parses and validates the auth flags, resolving credential references; prompts for a missing
 * Basic password on a terminal; with no flag that sets Authorization, looks the URL's host up in
 * netrc.
 *
 * @param values the flag values
 * @param url the request URL, for netrc (none: netrc is not read)
 * @param context the run: stdin, environment, stderr
 * @param itemHeaders headers from request items (`Name:value`), after the `-H` ones
 * @returns auth spec and headers
 * @throws {UsageError} on a malformed value, an unreadable reference, two flags that both set
 * Authorization, or two that both read stdin
 */
export async function parseAuthFlags(
  values: AuthFlagValues,
  url: URL | undefined,
  context: CliContext,
  itemHeaders: readonly HeaderField[] = [],
): Promise<ParsedAuth> {
  claimStdinReaders(values, context);
  const extras: readonly FlagDecl[] = OAUTH2_EXTRA_FLAGS;
  // The --oauth2 parser (and its OAuth 2.0 value parsing) is loaded only when it is needed.
  const oauth2Flags = values.oauth2 === undefined && !extras.some((flag) => isGiven(values, flag))
    ? undefined
    : await lazy.oauth2Flags();
  // Two flags that both set Authorization are refused before any reference is read (and again
  // below with the lines of -H files).
  const literal = parseHeaderFlags(values.header.filter((v) => !isHeaderFile(v)), NO_REFERENCES);
  checkOneAuthorization(
    authorizationSetters(values, [...literal, ...itemHeaders], itemHeaders),
    "flags",
  );
  // Every reference of the auth flags is read here, once; the parsers below take their
  // values' texts from `references`.
  const references = await readFlagReferences([
    ...authReferences(values),
    ...oauth2Flags?.oauth2References(values) ?? [],
  ], context);
  const headers = [...parseHeaderFlags(values.header, references), ...itemHeaders];
  const queryKeys: QueryKey[] = values.apiKeyQuery.map((text) =>
    parseQueryKeyFlag(text, references)
  );
  const setters = authorizationSetters(values, headers, itemHeaders);
  checkOneAuthorization(setters, "flags");
  const oauth2 = await oauth2Flags?.parseOAuth2Flags(values, context, references);
  let authorization: Authorization | undefined;
  if (values.auth !== undefined) {
    authorization = await basicFromFlag(values.auth, references, context);
  } else if (values.bearer !== undefined) {
    const token = references.text(values.bearer, "-B");
    if (token === "") {
      throw new UsageError(`Empty token in -B${values.bearer ? ` ${values.bearer}` : ""}`);
    }
    authorization = { kind: "bearer", token: new Secret(token) };
  } else if (oauth2) {
    authorization = { kind: "oauth2", oauth2 };
  } else if (url && setters.length === 0 && values.awsSigv4 === undefined) {
    authorization = await netrcAuthorization(values, url, context);
  }
  if (values.awsSigv4 !== undefined || values.awsSessionToken !== undefined) {
    if (values.digest) throw new UsageError("Conflicting flags --digest and --aws-sigv4");
    const { sigv4Authorization } = await lazy.sigv4Flags();
    authorization = sigv4Authorization(values, setters, authorization, references, context);
  }
  if (values.digest) {
    if (setters.some((s) => s !== "-u")) {
      throw new UsageError(`Conflicting flags --digest and ${setters.find((s) => s !== "-u")}`, {
        hint: "--digest sends the -u credentials as Digest",
      });
    }
    if (authorization?.kind !== "basic") {
      throw new UsageError("--digest needs -u USER:PASSWORD", {
        hint: "or a netrc entry for the host",
      });
    }
    authorization = { ...authorization, kind: "digest" };
  }
  return { auth: { ...(authorization ? { authorization } : {}), queryKeys }, headers };
}

/** The values of the auth flags (but `--oauth2*`'s) that may be references, in flag order. */
function authReferences(values: AuthFlagValues): FlagReference[] {
  return [
    ...headerReferences(values.header),
    ...queryKeyReferences(values.apiKeyQuery),
    ...(values.auth !== undefined ? userReferences(values.auth) : []),
    ...(values.bearer !== undefined ? [{ flag: "-B", value: values.bearer }] : []),
    ...(values.awsSessionToken !== undefined
      ? [{ flag: "--aws-session-token", value: values.awsSessionToken }]
      : []),
  ];
}

/** The flags (and headers) that set `Authorization`: more than one is a usage error. */
function authorizationSetters(
  values: AuthFlagValues,
  headers: readonly HeaderField[],
  itemHeaders: readonly HeaderField[],
): string[] {
  const setters: string[] = [];
  if (values.auth !== undefined) setters.push("-u");
  if (values.bearer !== undefined) setters.push("-B");
  if (values.oauth2 !== undefined) setters.push("--oauth2");
  const isAuthorization = (h: HeaderField) => h.name.toLowerCase() === "authorization";
  if (hasAuthorizationHeader(headers)) {
    setters.push(
      itemHeaders.some(isAuthorization)
        ? 'request item "Authorization:…"'
        : '-H "Authorization: …"',
    );
  }
  return setters;
}

/** Checks the one-stdin-reader rule before any flag reads stdin. */
function claimStdinReaders(values: AuthFlagValues, context: CliContext): void {
  const readers = [
    ...values.header.filter((v) => v === "@-").map(() => "-H @-"),
    ...values.apiKeyQuery.filter((v) => v.endsWith("=@-")).map((v) => `-K ${v}`),
    values.auth === "@-" ? "-u @-" : undefined,
    values.auth !== undefined && /^[^@][^:]*:@-$/.test(values.auth) ? "-u USER:@-" : undefined,
    values.bearer === "@-" ? "-B @-" : undefined,
    values.awsSessionToken === "@-" ? "--aws-session-token @-" : undefined,
    values.oauth2Password === "@-" ? "--oauth2-password @-" : undefined,
    values.oauth2ClientSecret === "@-" ? "--oauth2-client-secret @-" : undefined,
    values.oauth2ClientKey === "@-" ? "--oauth2-client-key @-" : undefined,
    values.oauth2?.endsWith(":@-") ? "--oauth2 client secret @-" : undefined,
  ];
  const given = readers.filter((r) => r !== undefined);
  if (given.length > 1) {
    throw new UsageError(`Both ${given[0]} and ${given[1]} read standard input`, {
      hint: "only one flag or body per run may read stdin; give the other from a file or @env:NAME",
    });
  }
  if (given[0]) claimStdin(context, given[0]);
}

async function basicFromFlag(
  text: string,
  references: FlagReferences,
  context: CliContext,
): Promise<Authorization> {
  const { username, password, label } = splitUserFlag(text, references);
  if (password) return { kind: "basic", username, password };
  if (!context.stdin.isTerminal) {
    throw new UsageError(`Missing password in ${label}`, {
      hint:
        `write -u "USER:PASSWORD" (the password may be @file, @- or @env:NAME), or run in a terminal to be prompted`,
    });
  }
  return {
    kind: "basic",
    username,
    password: await (await lazy.prompt()).promptSecret(
      `Password for "${username}": `,
      context,
    ),
  };
}
