/**
 * The `dial run` implementation: parse the file, run its requests through dial's one `send`,
 * print each response as the request command prints one.
 * @module
 */
import {
  type ExchangeEvent,
  labelOf,
  type RequestResult,
  runHttpFile,
} from "../files/run_http_file.ts";
import type { HttpFile } from "../files/http_file_types.ts";
import { DialError, ErrorCode, ExitCode, grpcExitCode, statusExitCode } from "../errors/mod.ts";
import { checkJsonPath, printFiltered } from "../output/json_filter.ts";
import { formatRequestHead, formatResponseHead } from "../output/http.ts";
import { warn } from "../output/report.ts";
import { printResponse } from "../output/response.ts";
import {
  escapeControls,
  isBrokenPipe,
  paint,
  shown,
  type Sink,
  Style,
} from "../output/terminal.ts";
import type { CliContext } from "./context.ts";
import { dirOf, fileOAuth2Hooks, filePrompt, prepareFileRun, readHttpFile } from "./file_setup.ts";
import type { RunFlagValues } from "./file_run.ts";
import { fileContract } from "./openapi_choice.ts";

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
  if (flags.filter !== undefined) checkJsonPath(flags.filter);
  const file = await readHttpFile(path, context);
  const setup = await prepareFileRun(flags, context, flags.verbose);
  // What the file may reach: its own folder and --allow-path.
  const confinement = await setup.confinementFor(dirOf(path));
  const environment = await setup.environmentFor(dirOf(path), confinement);
  // The OpenAPI description is read before anything is sent: a bad one stops the run first.
  const contract = await fileContract(file, environment, confinement, flags, setup, context);
  const err = context.stderr;
  const printer = new RunPrinter(file, names, flags, context);
  try {
    await runHttpFile(file, {
      names,
      confinement,
      ...(environment ? { environment } : {}),
      overrides: setup.overrides,
      oauth2: fileOAuth2Hooks(context),
      prompt: filePrompt(context),
      env: context.env,
      scriptOrigins: setup.scriptOrigins,
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
      ...(contract ? { checkExchange: (exchange) => contract.check(exchange) } : {}),
      onLog: (text) => err.write(`${shown(err, text)}\n`),
      onNotice: (text) => warn(err, text),
      onMessage: (text) => printer.message(text),
      onExchange: (event) => printer.exchange(event),
      onResult: (result) => printer.result(result),
    });

    // An exchange broke the description: 11, as a failed test of `dial test`.
    if (contract?.violated()) return ExitCode.TestFailed;
  } catch (error) {
    if (error instanceof StopRun) return error.code;
    throw error;
  }
  return printer.unmatched ? ExitCode.Failure : ExitCode.OK;
}

/** Prints what `dial run` sees: each response as the request command prints one, tests, messages. */
class RunPrinter {
  #file: HttpFile;
  #names: string[];
  #flags: RunFlagValues;
  #out: Sink;
  #err: Sink;
  #printed = 0;
  /** --filter: a response it selected nothing from (told on stderr; the run ends with 1). */
  unmatched = false;

  constructor(file: HttpFile, names: string[], flags: RunFlagValues, context: CliContext) {
    this.#file = file;
    this.#names = names;
    this.#flags = flags;
    this.#err = context.stderr;
    // Piped, each of several responses ends a line (a line break added when its body does not
    // end with one, as httpyac does), so the sink remembers the last byte written.
    this.#out = !context.stdout.isTerminal && file.requests.length + file.runs.length > 1
      ? lastByteSink(context.stdout)
      : context.stdout;
  }

  /** A script's message (`client.log` to stdout in JetBrains' sense). */
  async message(text: string): Promise<void> {
    try {
      await this.#out.write(`${shown(this.#out, text)}\n`);
    } catch (error) {
      if (!isBrokenPipe(error)) throw error;
    }
  }

  /** One response; `-f` stops the run at an error status. */
  async exchange({ fileRequest, exchange, dependency }: ExchangeEvent): Promise<void> {
    const out = this.#out;
    const flags = this.#flags;
    // A request that ran only because a named one refers to it is not printed.
    if (dependency && this.#names.length > 0) return await exchange.response.body?.cancel();
    // On a terminal, a blank line between two responses.
    if (this.#printed++ > 0 && !flags.output && out.isTerminal) await out.write("\n");
    // On a terminal, several responses are told apart by their request's name.
    if (out.isTerminal && !flags.silent && this.#file.requests.length > 1) {
      const label = escapeControls(labelOf(fileRequest.request));
      await out.write(paint(`### ${label}`, Style.dim, out.color) + "\n");
    }
    const { response } = exchange;
    try {
      await this.#body(response, fileRequest);
      // Piped, a body that does not end a line gets a line break at once, so that neither the
      // next response nor -v's next request head (stderr, often the same log) runs into it.
      if (!endsLine(out)) await out.write("\n");
    } catch (error) {
      if (!isBrokenPipe(error)) throw error;
    }
    if (flags.checkStatus && response.status >= 300) {
      if (!flags.silent && (!out.isTerminal || flags.output !== undefined)) {
        const name = fileRequest.request.name ?? fileRequest.request.url;
        await warn(this.#err, `${name}: HTTP ${response.status} ${response.statusText}`.trimEnd());
      }
      throw new StopRun(statusExitCode(response.status));
    }
  }

  async #body(response: Response, fileRequest: ExchangeEvent["fileRequest"]): Promise<void> {
    const { out, err, flags } = { out: this.#out, err: this.#err, flags: this.#flags };
    if (flags.filter !== undefined) {
      try {
        await printFiltered(response, flags.filter, out);
      } catch (error) {
        if (!(error instanceof DialError) || error.code !== ErrorCode.Filter) throw error;
        this.unmatched = true;
        await warn(err, `${escapeControls(labelOf(fileRequest.request))}: ${error.message}`);
      }
    } else if (fileRequest.noLog) {
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
  }

  /** A request's outcome: a gRPC status that is not OK, and each test. */
  async result(result: RequestResult): Promise<void> {
    const err = this.#err;
    // A gRPC status other than OK is told as an HTTP error status is printed.
    if (result.grpc && result.grpc.code !== 0) {
      const { name, message } = result.grpc;
      await warn(err, shown(err, `${result.label}: gRPC ${name}${message ? `: ${message}` : ""}`));
      if (this.#flags.checkStatus) throw new StopRun(grpcExitCode(result.grpc.code));
    }
    for (const test of result.tests) {
      const mark = test.passed ? "✓" : "✗";
      const why = test.passed ? "" : `: ${test.message ?? "failed"}`;
      // A test's message may quote the response: the terminal-safety rule applies.
      await err.write(`${mark} ${shown(err, `${result.label}: ${test.name}${why}`)}\n`);
    }
  }
}

interface LastByteSink extends Sink {
  last: number;
}

/** A sink that remembers the last byte written (and so has no `writable` to bypass it). */
function lastByteSink(sink: Sink): LastByteSink {
  const wrapped: LastByteSink = {
    last: 10,
    isTerminal: sink.isTerminal,
    color: sink.color,
    async write(data) {
      if (data.length) {
        wrapped.last = typeof data === "string" ? data.charCodeAt(data.length - 1) : data.at(-1)!;
      }
      await sink.write(data);
    },
  };
  return wrapped;
}

function endsLine(sink: Sink): boolean {
  return !("last" in sink) || (sink as LastByteSink).last === 10;
}
