/**
 * What `dial auth token|status|logout` do.
 * @module
 */
import { load } from "../load.ts";
import { oauth2Token } from "../auth/oauth2/access_token.ts";
import { splitOAuth2Value } from "../auth/oauth2/parse_value.ts";
import { parseUrl } from "../http/values.ts";
import { normalizeScope } from "../auth/oauth2/token_cache.ts";
import {
  listOAuth2Tokens,
  removeOAuth2Tokens,
  type TokenFilter,
  type TokenState,
} from "../auth/oauth2/token_state.ts";
import { ExitCode, UsageError } from "../errors/mod.ts";
import { shown } from "../output/terminal.ts";
import { defaultCacheDir } from "../cache.ts";
import type { AuthFlagValues } from "./auth_flags.ts";
import { parseOAuth2Flags } from "./oauth2_flags.ts";
import type { AuthLogoutFlagValues, AuthStatusFlagValues, AuthTokenFlagValues } from "./auth.ts";
import { parseTransportFlags } from "./transport_flags.ts";
import { transportFetch } from "../http/client.ts";
import type { CliContext } from "./context.ts";

/**
 * `dial auth token`: prints a valid access token.
 *
 * @param flags the auth flag values
 * @param context the Ctrl-C signal
 * @returns the exit code
 */
export async function authToken(
  flags: AuthTokenFlagValues,
  context: CliContext,
): Promise<number> {
  rejectOtherAuth(flags, "token");
  const options = await parseOAuth2Flags(flags, context);
  if (!options) {
    throw new UsageError('"dial auth token" needs --oauth2', {
      hint: "dial auth token --oauth2 <flow>:<token_url>:<client_id>[:<client_secret>]",
    });
  }
  const fetch = transportFetch(await parseTransportFlags(flags, context));
  const token = await oauth2Token(options, { signal: context.signal, fetch });
  const out = context.stdout;
  await out.write(shown(out, token.accessToken.reveal()) + "\n");
  return ExitCode.OK;
}

/**
 * `dial auth status`: lists cached tokens without the tokens.
 *
 * @param flags the auth flag values and `--json`
 * @param context the run: its output and environment (the cache directory)
 * @returns the exit code
 */
export async function authStatus(
  flags: AuthStatusFlagValues,
  context: CliContext,
): Promise<number> {
  rejectOtherAuth(flags, "status");
  const filter = await tokenFilter(flags);
  const states = (await listOAuth2Tokens(defaultCacheDir(context.env)))
    .filter((state) => matches(state, filter));
  const out = context.stdout;
  if (flags.json) {
    await out.write(JSON.stringify(states, null, 2) + "\n");
    return ExitCode.OK;
  }
  if (states.length === 0) {
    await context.stderr.write("No cached OAuth 2.0 tokens\n");
    return ExitCode.OK;
  }
  await out.write(shown(out, states.map((state) => describe(state, Date.now())).join("\n")) + "\n");
  return ExitCode.OK;
}

/**
 * `dial auth logout`: removes cached tokens.
 *
 * @param flags the auth flag values and `--all`
 * @param context the run: its output and environment (the cache directory)
 * @returns the exit code
 */
export async function authLogout(
  flags: AuthLogoutFlagValues,
  context: CliContext,
): Promise<number> {
  rejectOtherAuth(flags, "logout");
  if (flags.oauth2 === undefined && !flags.all) {
    throw new UsageError('"dial auth logout" needs --oauth2 … or --all', {
      hint: "dial auth logout --oauth2 <flow>:<token_url>:<client_id>, or --all",
    });
  }
  const removed = await removeOAuth2Tokens(await tokenFilter(flags), defaultCacheDir(context.env));
  const err = context.stderr;
  if (removed.length === 0) {
    await err.write("No matching cached OAuth 2.0 token\n");
  } else {
    await err.write(
      `Removed ${removed.length} cached OAuth 2.0 token${removed.length === 1 ? "" : "s"}\n`,
    );
  }
  return ExitCode.OK;
}

function rejectOtherAuth(flags: AuthFlagValues, command: string): void {
  const other = [
    ["-u", flags.auth],
    ["-B", flags.bearer],
    ["-H", flags.header.length ? flags.header : undefined],
    ["-K", flags.apiKeyQuery.length ? flags.apiKeyQuery : undefined],
  ].find(([, v]) => v !== undefined);
  if (other) {
    throw new UsageError(`"dial auth ${command}" takes only --oauth2 flags, not ${other[0]}`);
  }
}

/**
 * The cache key parts the flags name; a flag not given matches anything. The token URL comes
 * from `--oauth2`, `--oauth2-token-url`, or the issuer's metadata (`--oauth2-issuer`, usually
 * cached).
 */
async function tokenFilter(flags: AuthFlagValues): Promise<TokenFilter> {
  if (flags.oauth2 === undefined) {
    if (flags.oauth2Scope !== undefined || flags.oauth2Username !== undefined) {
      throw new UsageError("--oauth2-scope and --oauth2-username need --oauth2");
    }
    return {};
  }
  const parts = splitOAuth2Value(flags.oauth2);
  let tokenUrl = parts.tokenUrl ??
    (flags.oauth2TokenUrl === undefined ? undefined : parseUrl(flags.oauth2TokenUrl));
  if (!tokenUrl && flags.oauth2Issuer !== undefined) {
    const { resolveEndpoints } = await load.endpoints();
    const resolved = await resolveEndpoints({
      flow: parts.flow,
      clientId: "",
      port: 0,
      issuer: parseUrl(flags.oauth2Issuer),
    });
    tokenUrl = resolved.tokenUrl;
  }
  const clientId = parts.clientId ?? flags.oauth2ClientId;
  return {
    flow: parts.flow,
    ...(tokenUrl ? { tokenUrl: tokenUrl.href } : {}),
    ...(clientId !== undefined ? { clientId } : {}),
    ...(flags.oauth2Scope !== undefined ? { scope: normalizeScope(flags.oauth2Scope) } : {}),
    ...(flags.oauth2Username !== undefined ? { username: flags.oauth2Username } : {}),
  };
}

function matches(state: TokenState, filter: TokenFilter): boolean {
  const fields = ["flow", "tokenUrl", "clientId", "scope", "username"] as const;
  return fields.every((name) => filter[name] === undefined || filter[name] === state[name]);
}

function describe(state: TokenState, now: number): string {
  const who = [
    `client ${state.clientId}`,
    ...(state.username ? [`user ${state.username}`] : []),
    ...(state.scope ? [`scope "${state.scope}"`] : []),
  ].join(", ");
  const expires = state.expiresAt
    ? state.expiresAt.getTime() > now
      ? `expires ${iso(state.expiresAt)} (in ${duration(state.expiresAt.getTime() - now)})`
      : `expired ${iso(state.expiresAt)}`
    : "no expiry given";
  return [
    `${state.flow} ${state.tokenUrl} (${who})`,
    `  obtained ${iso(state.obtainedAt)}, ${expires}`,
    `  ${state.refreshedAt ? `refreshed ${iso(state.refreshedAt)}, ` : ""}refresh token: ${
      state.hasRefreshToken ? "yes" : "no"
    }`,
  ].join("\n");
}

function iso(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  return `${Math.round(s / 3600)} h`;
}
