/**
 * The command tree: one declaration per command. Each subcommand module declares its flags
 * cheaply and imports its implementation when it runs, so `dial GET …` loads no GraphQL,
 * OAuth or UI code.
 * @module
 */
import denoJson from "../../deno.json" with { type: "json" };
import { ExitCode } from "../errors.ts";
import { writeSync } from "../output/terminal.ts";
import { AUTH_CONFLICTS } from "./auth_flags.ts";
import { command } from "./declare.ts";
import { REQUEST_FLAGS, requestCommand } from "./request.ts";
import { authCommand } from "./auth.ts";
import { completionsCommand } from "./completions.ts";
import { graphqlCommand } from "./graphql.ts";
import { sseCommand } from "./sse.ts";
import { uiCommand } from "./ui.ts";
import { wsCommand } from "./ws.ts";

/** dial's version, for `--version`. */
export const VERSION: string = denoJson.version;

const EPILOG = `
Examples:
  dial https://api.example.com/users                      GET, pretty on a terminal
  dial POST https://api.example.com/users --json '{"name":"Ann"}'
  dial PATCH https://api.example.com/users/1 -d @body.json -H "Content-Type: application/json"
  dial GET https://api.example.com/me -u ann:s3cret        HTTP Basic
  dial GET https://api.example.com/me -B "$TOKEN"          Bearer token
  dial GET https://api.example.com/data -K api_key=abc123  API key in the query
  dial GET https://api.example.com/data -H "X-Api-Key: abc123"
  dial GET https://api.example.com/me \\
    --oauth2 client_credentials:https://id.example.com/oauth/token:my-app:my-secret
  dial GET https://example.com/big.iso -o big.iso          download to a file
  dial GET https://example.com/files/report --download     save under the server's name

Exit codes: 0 ok, 2 usage, 3/4/5 HTTP 3xx/4xx/5xx with --check-status, 6 too many
redirects, 7 network, 8 timeout, 9 auth, 10 GraphQL errors, 130 interrupted.`;

/** The root command, `dial [METHOD] <url> [flags]`, and its subcommands. */
export const ROOT = command({
  name: "dial",
  summary: "Call HTTP APIs with Basic, Bearer, API-key or OAuth 2.0 auth",
  usage: "[METHOD] <url> [flags]\ndial <command> [flags]",
  args: [
    {
      name: "method",
      help:
        "HTTP method; GET POST … in any case are sent upper-case, others as written (default GET, or POST with a body)",
    },
    { name: "url", help: "http(s) URL; no scheme means http://, :PORT/path means localhost" },
  ],
  flags: REQUEST_FLAGS,
  conflicts: [{ flags: ["curl", "offline"] }, ...AUTH_CONFLICTS],
  epilog: EPILOG,
  commands: [
    graphqlCommand,
    wsCommand,
    sseCommand,
    uiCommand,
    authCommand,
    completionsCommand,
  ],
  run: async ({ args, flags }, context) => {
    if (args.method === undefined) {
      const { helpText } = await import("./help.ts");
      writeSync("stderr", helpText([ROOT]));
      return ExitCode.Usage;
    }
    return await requestCommand(args.method, args.url, flags, context);
  },
});
