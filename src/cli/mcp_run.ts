/**
 * The `dial mcp` implementation: the folder's request files read and their environments
 * loaded as `dial test DIR` and `dial run` do, the tools built, and the server run on stdin
 * and stdout. Everything but the protocol goes to stderr: the runs are given a context whose
 * stdout is stderr, and stdin belongs to the protocol.
 * @module
 */
import { ExitCode } from "../errors/mod.ts";
import { serveMcp } from "../mcp/mcp_server.ts";
import { type ExchangeCheck, type WorkspaceFile, workspaceTools } from "../mcp/mcp_tools.ts";
import { fileDescription } from "../openapi/description_choice.ts";
import type { Environment } from "../files/environment.ts";
import type { HttpFile } from "../files/http_file_types.ts";
import type { Confinement } from "../files/trust_rule.ts";
import type { OpenapiChecks } from "./openapi_checks.ts";
import { lazy } from "./lazy.ts";
import { Redactor } from "../mcp/redactor.ts";
import { warn } from "../output/report.ts";
import type { CliContext } from "./context.ts";
import {
  dirOf,
  fileOAuth2Hooks,
  type FileRunSetup,
  prepareFileRun,
  readHttpFile,
} from "./file_setup.ts";
import type { McpFlagValues } from "./mcp.ts";
import { VERSION } from "./program.ts";
import { collectFiles } from "./test_plan.ts";
import { checkFilePaths } from "../files/trust_rule.ts";

/**
 * Runs `dial mcp`.
 *
 * @param dir the workspace folder
 * @param flags the flag values
 * @param context the process's streams: stdin and stdout carry the protocol
 * @returns 0 when the client closed stdin
 */
export async function runMcp(
  dir: string,
  flags: McpFlagValues,
  context: CliContext,
): Promise<number> {
  const input = context.stdin.readable;
  const output = context.stdout;
  // Nothing a run prints may reach the protocol's stream, nor read its input.
  const runs: CliContext = { ...context, stdout: context.stderr, stdinClaimedBy: "dial mcp" };
  const redactor = new Redactor();
  const setup = await prepareFileRun(flags, runs, false);
  redactor.addSecrets(setup.overrides.values());
  // Loaded while the client's `initialize` is answered: references may take their time.
  const workspace = loadWorkspace(dir, setup, runs, redactor).then((files) => ({
    files,
    tools: workspaceTools(files, setup.overrides).filter((tool) => !flags.readOnly || tool.safe),
  }));
  await serveMcp({
    input,
    write: (line) => output.write(line),
    workspace,
    version: VERSION,
    signal: context.signal,
    call: {
      run: {
        send: { transport: setup.transport },
        oauth2: fileOAuth2Hooks(runs),
        ...(flags.timeout !== undefined ? { timeoutMs: flags.timeout } : {}),
      },
      env: context.env,
      overrides: setup.overrides,
      redactor,
      readOnly: flags.readOnly,
      log: (text) => warn(context.stderr, redactor.redact(text)),
    },
  });
  return context.signal.aborted ? ExitCode.Interrupted : ExitCode.OK;
}

/** The request files below `dir`, each with its folder's environment, secrets learned. */
async function loadWorkspace(
  dir: string,
  setup: FileRunSetup,
  context: CliContext,
  redactor: Redactor,
): Promise<WorkspaceFile[]> {
  const paths = (await collectFiles([dir])).map((found) => found.path);
  const descriptions = new Descriptions(setup, context);
  const root = dir.replace(/\/+$/, "");
  const files: WorkspaceFile[] = [];
  for (const path of paths) {
    const file = await readHttpFile(path, context);
    // A call is `dial run FILE NAME`: the same folders (the file's own, and --allow-path).
    const confinement = await setup.confinementFor(dirOf(path));
    await checkFilePaths(file, confinement);
    const environment = await setup.environmentFor(dirOf(path), confinement);
    redactor.addSecrets(environment?.variables.values() ?? []);
    const relative = path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
    let contract: Promise<ExchangeCheck | undefined> | undefined;
    files.push({
      path,
      relative,
      file,
      confinement,
      ...(environment ? { environment } : {}),
      contract: () => contract ??= descriptions.check(file, environment, confinement),
    });
  }
  return files;
}

/**
 * The OpenAPI descriptions the workspace's files name (`# @openapi`, an environment's
 * `openapi`), chosen under the trust rule as `dial run` chooses them, each read once, at the
 * first call of a tool of a file that names it.
 */
class Descriptions {
  #checks: OpenapiChecks | undefined;

  constructor(readonly setup: FileRunSetup, readonly context: CliContext) {}

  /**
   * @returns the check of a file's exchanges, or undefined when no description applies
   * @throws {import("../errors/mod.ts").UsageError} a refused or unreadable description
   */
  async check(
    file: HttpFile,
    environment: Environment | undefined,
    confinement: Confinement,
  ): Promise<ExchangeCheck | undefined> {
    const choice = await fileDescription(file, environment, confinement);
    if (!choice) return undefined;
    const { OpenapiChecks, violationTests } = await lazy.openapiChecks();
    this.#checks ??= new OpenapiChecks({ transport: this.setup.transport }, this.context);
    const checker = await this.#checks.checker(choice);
    return (exchange) => violationTests(checker, exchange);
  }
}
