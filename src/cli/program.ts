/**
 * The command tree: the request command at the root, and the subcommands. Each command module
 * declares its flags cheaply and imports its implementation when it runs, so `dial GET …`
 * loads no GraphQL, OAuth or UI code.
 * @module
 */
import denoJson from "../../deno.json" with { type: "json" };
import type { Command } from "./declare.ts";
import { REQUEST_COMMAND } from "./request.ts";
import { authCommand } from "./auth.ts";
import { completionsCommand } from "./completions.ts";
import { graphqlCommand } from "./graphql.ts";
import { grpcCommand } from "./grpc.ts";
import { curlCommand, exportCommand, importCommand } from "./interchange.ts";
import { mcpCommand } from "./mcp.ts";
import { sseCommand } from "./sse.ts";
import { runCommand } from "./file_run.ts";
import { testCommand } from "./file_test.ts";
import { uiCommand } from "./ui.ts";
import { wsCommand } from "./ws.ts";

/** dial's version, for `--version`. */
export const VERSION: string = denoJson.version;

/** The root command, `dial [METHOD] <url> [flags]`, and its subcommands. */
export const ROOT: Command = {
  ...REQUEST_COMMAND,
  commands: [
    graphqlCommand,
    grpcCommand,
    wsCommand,
    sseCommand,
    runCommand,
    testCommand,
    uiCommand,
    mcpCommand,
    authCommand,
    completionsCommand,
    curlCommand,
    importCommand,
    exportCommand,
  ],
};
