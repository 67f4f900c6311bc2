/**
 * `dial mcp [DIR]`: the declaration; the implementation (`mcp_run.ts`) is loaded when the
 * command runs, so nothing of MCP loads for other commands.
 * @module
 */
import { command, flag, flags, type FlagValues } from "./declare.ts";
import { FILE_FLAGS } from "./file_flags.ts";
import { lazy } from "./lazy.ts";

const EPILOG = `
Serves the named requests of the .http and .rest files below DIR (default: the current
directory) as tools of the Model Context Protocol, on stdin and stdout, for coding agents
(Claude Code, Cursor, VS Code). A tool call sends its request as dial run FILE NAME would,
with the environment's credentials; the agent gives only the variables nothing else defines,
and never sees a secret: private environment values, references, tokens and credential
headers are redacted from everything it receives. See docs/mcp.md.

Examples:
  dial mcp                          the current directory's requests
  dial mcp api/ --env dev           environment "dev" of api/http-client.env.json
  dial mcp --read-only              only GET, HEAD and OPTIONS requests are listed and sent
  claude mcp add dial -- dial mcp --env dev

Exit codes: 0 the client closed stdin, 2 usage (also a bad file or environment), 130 interrupted.`;

/** The flags of `dial mcp`. */
export const MCP_FLAGS = flags([
  ...FILE_FLAGS,
  flag.on("read-only", "list and send only requests whose method is GET, HEAD or OPTIONS"),
]);

/** The flag values of `dial mcp`. */
export type McpFlagValues = FlagValues<typeof MCP_FLAGS>;

/** `dial mcp [DIR]`. */
export const mcpCommand = command({
  name: "mcp",
  summary: "Serve a folder's requests to coding agents over MCP, credentials kept from them",
  usage: "[dir] [flags]",
  args: [{ name: "dir", help: "the folder of request files (default: the current directory)" }],
  flags: MCP_FLAGS,
  epilog: EPILOG,
  run: async ({ args, flags }, context) =>
    (await lazy.mcpRun()).runMcp(args.dir ?? ".", flags, context),
});
