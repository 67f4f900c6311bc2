/**
 * `dial auth token|status|logout`: the OAuth 2.0 token cache from the command line.
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { withAuthFlags } from "./auth_flags.ts";
import type { CliContext } from "./context.ts";

const ORIGIN = "client_credentials:https://id.example.com/oauth/token:my-app:my-secret";

/**
 * @param context shared exit code and Ctrl-C signal
 * @returns the `auth` command
 */
export function authCommand(context: CliContext) {
  const auth = new Command("auth")
    .description("Get, list and remove cached OAuth 2.0 tokens")
    .addHelpText(
      "after",
      `
Tokens are cached per flow, token URL, client id, scope and username in
$XDG_CACHE_HOME/dial/oauth2 (default ~/.cache/dial/oauth2), files 0600 in a 0700
directory. Client secrets and passwords are never stored.

Examples:
  dial auth token --oauth2 ${ORIGIN}
  TOKEN=$(dial auth token --oauth2 password:https://id.example.com/token:cli --oauth2-username ann)
  dial auth status
  dial auth logout --oauth2 ${ORIGIN}
  dial auth logout --all`,
    );
  const token = withAuthFlags(new Command("token"))
    .description("Print a valid OAuth 2.0 access token (from the cache, refreshed or new)")
    .addHelpText(
      "after",
      `
Takes the same --oauth2 flags as a request and prints only the access token, for scripts.

Example:
  curl -H "Authorization: Bearer $(dial auth token --oauth2 ${ORIGIN})" https://api.example.com/me`,
    )
    .action(async (flags) => {
      const { authToken } = await import("./auth_actions.ts");
      context.exitCode = await authToken(flags, context);
    });
  const status = withAuthFlags(new Command("status"))
    .description("List cached OAuth 2.0 tokens (times and scopes, never the tokens)")
    .option("--json", "print JSON")
    .addHelpText(
      "after",
      `
Without --oauth2 lists every cached token; with it, only the matching one.`,
    )
    .action(async (flags) => {
      const { authStatus } = await import("./auth_actions.ts");
      context.exitCode = await authStatus(flags);
    });
  const logout = withAuthFlags(new Command("logout"))
    .description("Remove cached OAuth 2.0 tokens")
    .option("--all", "remove every cached token")
    .addHelpText(
      "after",
      `
With --oauth2 removes that token (every username when --oauth2-username is not given);
with --all removes every cached token.`,
    )
    .action(async (flags) => {
      const { authLogout } = await import("./auth_actions.ts");
      context.exitCode = await authLogout(flags);
    });
  return auth.addCommand(token).addCommand(status).addCommand(logout);
}
