/**
 * The command tree. Each subcommand module declares its flags cheaply and imports its
 * implementation lazily, so `dial GET …` loads no GraphQL, OAuth or UI code.
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import denoJson from "../../deno.json" with { type: "json" };
import { writeSync } from "../output/terminal.ts";
import { withAuthFlags } from "./auth_flags.ts";
import { withBodyFlags } from "./body_flags.ts";
import type { CliContext } from "./context.ts";
import { requestCommand, withRequestFlags } from "./request.ts";
import { authCommand } from "./auth.ts";
import { completionsCommand } from "./completions.ts";
import { graphqlCommand } from "./graphql.ts";
import { sseCommand } from "./sse.ts";
import { uiCommand } from "./ui.ts";
import { wsCommand } from "./ws.ts";

const EXAMPLES = `
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

/**
 * Builds the `dial` command tree.
 *
 * @param context shared exit code and Ctrl-C signal
 * @returns the root command
 */
export function buildProgram(context: CliContext) {
  const root = configure(new Command("dial"))
    .description("Call HTTP APIs with Basic, Bearer, API-key or OAuth 2.0 auth")
    .version(denoJson.version, "-V, --version")
    .usage("[METHOD] <url> [flags]\n       dial <command> [flags]")
    .enablePositionalOptions()
    .argument("[method]", "HTTP method, sent as written (default GET, or POST with a body)")
    .argument("[url]", "absolute http(s) URL");
  const program = withRequestFlags(withBodyFlags(withAuthFlags(root)))
    .addHelpText("after", EXAMPLES)
    .action(async (first, second, flags) => {
      if (first === undefined) {
        program.outputHelp({ error: true });
        context.exitCode = 2;
        return;
      }
      context.exitCode = await requestCommand(first, second, flags, context);
    });
  for (
    const sub of [
      graphqlCommand(context),
      wsCommand(context),
      sseCommand(context),
      uiCommand(context),
      authCommand(context),
      completionsCommand(context),
    ]
  ) {
    program.addCommand(configureTree(sub));
  }
  return program;
}

/** Settings commander does not pass on to commands added with addCommand. */
// deno-lint-ignore no-explicit-any
function configure<C extends Command<any, any, any>>(command: C): C {
  command
    .showSuggestionAfterError()
    .exitOverride()
    .configureOutput({
      writeOut: (text) => writeSync("stdout", text),
      writeErr: (text) => writeSync("stderr", text),
    });
  return command;
}

// deno-lint-ignore no-explicit-any
function configureTree<C extends Command<any, any, any>>(command: C): C {
  configure(command);
  for (const sub of command.commands) configureTree(sub);
  return command;
}
