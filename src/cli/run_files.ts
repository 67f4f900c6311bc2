/**
 * The `dial run` implementation: parse the file, run its requests through dial's one `send`,
 * print each response as the request command prints one.
 * @module
 */
import { labelOf, runHttpFile } from "../files/run_http_file.ts";
import { ExitCode, statusExitCode } from "../errors/mod.ts";
import { formatRequestHead, formatResponseHead } from "../output/http.ts";
import { warn } from "../output/report.ts";
import { printResponse } from "../output/response.ts";
import { escapeControls, isBrokenPipe, paint, shown, Style } from "../output/terminal.ts";
import type { CliContext } from "./context.ts";
import { dirOf, fileOAuth2Hooks, prepareFileRun, readHttpFile } from "./file_setup.ts";
import type { RunFlagValues } from "./file_run.ts";

class StopRun extends Error {
  constructor(readonly code: number) {
    super("stop");
  }
}

/**
 * Runs `dial run`.
 *
 * @param path the request file
 * @param names the requests to run (all when empty)
 * @param flags the flag values
 * @param context the Ctrl-C signal
 * @returns the exit code
 */
export async function runFiles(
  path: string,
  names: string[],
  flags: RunFlagValues,
  context: CliContext,
): Promise<number> {
  const file = await readHttpFile(path, context);
  const setup = await prepareFileRun(flags, context, flags.verbose);
  // What the file may reach: its own folder and --allow-path.
  const confinement = await setup.confinementFor(dirOf(path));
  const environment = await setup.environmentFor(dirOf(path), confinement);
  const out = context.stdout;
  const err = context.stderr;
  let printed = 0;
  try {
    await runHttpFile(file, {
      names,
      confinement,
      ...(environment ? { environment } : {}),
      overrides: setup.overrides,
      oauth2: fileOAuth2Hooks(context),
      env: context.env,
      send: {
        transport: setup.transport,
        signal: context.signal,
        ...(flags.verbose
          ? {
            onNote: (text: string) => void warn(err, text),
            onRequest: (request, framing) => err.write(formatRequestHead(request, framing, err)),
            onResponse: (_request, response) =>
              err.write(formatResponseHead(response, err, { trace: true })),
          }
          : {}),
      },
      ...(flags.timeout !== undefined ? { timeoutMs: flags.timeout } : {}),
      onLog: (text) => err.write(`${shown(err, text)}\n`),
      onMessage: async (text) => {
        try {
          await out.write(`${shown(out, text)}\n`);
        } catch (error) {
          if (!isBrokenPipe(error)) throw error;
        }
      },
      onExchange: async ({ fileRequest, exchange, dependency }) => {
        // A request that ran only because a named one refers to it is not printed.
        if (dependency && names.length > 0) return await exchange.response.body?.cancel();
        if (printed++ > 0 && out.isTerminal && !flags.output) await out.write("\n");
        // On a terminal, several responses are told apart by their request's name.
        if (out.isTerminal && !flags.silent && file.requests.length > 1) {
          const label = escapeControls(labelOf(fileRequest.request));
          await out.write(paint(`### ${label}`, Style.dim, out.color) + "\n");
        }
        const { response } = exchange;
        try {
          if (fileRequest.noLog) {
            await response.body?.cancel();
            if (flags.include || out.isTerminal) await out.write(formatResponseHead(response, out));
          } else {
            await printResponse(response, {
              out,
              err,
              ...(flags.include ? { include: true } : {}),
              ...(flags.silent ? { silent: true } : {}),
              ...(flags.output !== undefined ? { outputFile: flags.output } : {}),
            });
          }
        } catch (error) {
          if (!isBrokenPipe(error)) throw error;
        }
        if (flags.checkStatus && response.status >= 300) {
          if (!flags.silent && (!out.isTerminal || flags.output !== undefined)) {
            await warn(
              err,
              `${
                fileRequest.request.name ?? fileRequest.request.url
              }: HTTP ${response.status} ${response.statusText}`.trimEnd(),
            );
          }
          throw new StopRun(statusExitCode(response.status));
        }
      },
      onResult: async (result) => {
        for (const test of result.tests) {
          const mark = test.passed ? "✓" : "✗";
          const why = test.passed ? "" : `: ${test.message ?? "failed"}`;
          // A test's message may quote the response: the terminal-safety rule applies.
          await err.write(`${mark} ${shown(err, `${result.label}: ${test.name}${why}`)}\n`);
        }
      },
    });
  } catch (error) {
    if (error instanceof StopRun) return error.code;
    throw error;
  }
  return ExitCode.OK;
}
