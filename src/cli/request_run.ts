/**
 * The request command's implementation, `dial <METHOD> <url> [flags]`, as plan → act → print:
 * {@link requestPlan} checks the flags with nothing sent, the printing modes (`--export`,
 * `--curl`, `--offline`) print instead of sending (`request_print.ts`), otherwise the request is
 * sent (with `-v`, `-D` and `--retry` on the way) and its response printed, saved (`-o`,
 * `--download`, `-C`) or measured (`-w`). Loaded when the command runs; its declaration is in
 * `request.ts`.
 * @module
 */
import {
  DialError,
  ErrorCode,
  ExitCode,
  outputError,
  statusExitCode,
  TimeoutError,
  TransportError,
} from "../errors/mod.ts";
import { type Exchange, send, type SendOptions } from "../http/send.ts";
import type { BodySource } from "../http/request_spec.ts";
import { formatRequestHead, formatResponseHead } from "../output/http.ts";
import { warn } from "../output/report.ts";
import { printResponse } from "../output/response.ts";
import { isBrokenPipe } from "../output/terminal.ts";
import { redactUrlsInText } from "../redact_url.ts";
import type { CliContext } from "./context.ts";
import type { DumpHeader } from "./dump_header.ts";
import { lazy } from "./lazy.ts";
import type { RequestFlagValues } from "./request.ts";
import { type RequestPlan, requestPlan } from "./request_plan.ts";
import type { FlagUse } from "./declare.ts";

/**
 * Runs the request command.
 *
 * @param words the positional words: [METHOD] <url> [items…]
 * @param flags the flag values
 * @param context exit code and Ctrl-C signal
 * @param order every flag as given, in order (curl's data flags are joined so)
 * @returns the exit code
 */
export async function runRequest(
  words: ReadonlyArray<string | undefined>,
  flags: RequestFlagValues,
  context: CliContext,
  order: readonly FlagUse[],
): Promise<number> {
  const given = words.filter((word) => word !== undefined);
  if (given.length === 0) return await printUsage(context);
  const plan = await requestPlan(given, flags, context, order);
  // curl warns about a variable it does not know and prints it empty; so does dial.
  for (const name of plan.writeOut?.unknown ?? []) {
    await warn(context.stderr, `-w: unknown variable "%{${name}}", printed empty`);
  }
  if (plan.flags.save !== undefined) {
    const { reportSaved, saveHttpRequest } = await lazy.saveHttp();
    await reportSaved(
      await saveHttpRequest(plan.spec, plan.flags, plan.flags.save),
      context.stderr,
    );
  }
  if (plan.mode !== "send") {
    const print = await lazy.requestPrint();
    if (plan.mode === "export") return await print.printExport(plan, context);
    if (plan.mode === "curl") return await print.printCurl(plan, context);
    return await print.printOffline(plan, context);
  }
  // --openapi: the description is read before anything is sent.
  const contract = plan.flags.openapi === undefined
    ? undefined
    : await (await lazy.openapiChecks()).RequestContract.read(plan.flags.openapi, {
      transport: plan.transport,
      ...(plan.flags.openapiBase !== undefined ? { base: plan.flags.openapiBase } : {}),
    }, context);
  const sent = await sendPlanned(plan, context);
  if (contract) sent.response = contract.watch(sent.response);
  await keepState(plan, sent.exchange.response, context);
  const saved = await printBody(plan, sent, context);
  if (saved !== undefined && !contract) return saved;
  // Then the violations on stderr: exit 11, unless --check-status's own code applies.
  const violations = await contract?.report(
    sent.exchange.request,
    sent.response,
    context.stderr,
    plan.save?.resume,
  );
  // --download, -C: the body saved to the file was checked.
  if (saved !== undefined) return saved === ExitCode.OK && violations ? ExitCode.TestFailed : saved;
  const code = !plan.flags.checkStatus || sent.response.status < 300
    ? (violations ? ExitCode.TestFailed : ExitCode.OK)
    : statusExitCode(sent.response.status);
  if (plan.writeOut) await printWriteOut(plan, { ...sent.measured, exitCode: code }, context);
  if (code !== ExitCode.OK && code !== ExitCode.TestFailed) {
    await warnStatus(plan.flags, sent.response, context);
  }
  return code;
}

/** `dial` with no URL: the help, exit 2. */
async function printUsage(context: CliContext): Promise<number> {
  const [{ helpText }, { ROOT }] = await Promise.all([lazy.help(), import("./program.ts")]);
  await context.stderr.write(helpText([ROOT]));
  return ExitCode.Usage;
}

/** What one exchange measured, for `-w`. */
interface Measured {
  /** `performance.now()` before sending. */
  started: number;
  /** `performance.now()` when the last response head arrived. */
  headAt: number;
  /** Request body bytes of the last request. */
  uploaded: number;
  /** The exchange, once a response arrived. */
  exchange?: Exchange;
  /** The failure, when none did. */
  error?: DialError;
  /** Body bytes read. */
  size?: number;
  /** dial's exit code. */
  exitCode?: number;
}

/** A sent request: its exchange, the response to read (counted for `-w`), and the measurements. */
interface Sent {
  /** The exchange as `send` returned it. */
  exchange: Exchange;
  /** The response to print (its body counted when `-w` is given). */
  response: Response;
  /** The last attempt's signal (why a body read stopped). */
  signal: AbortSignal;
  /** The measurements for `-w`; `size` read when printed. */
  measured: Measured & { readonly size: number };
}

/** Sends the planned request (retried with `--retry`), `-v` and `-D` printing on the way. */
async function sendPlanned(plan: RequestPlan, context: CliContext): Promise<Sent> {
  const { flags, spec } = plan;
  const measured: Measured = { started: performance.now(), headAt: 0, uploaded: 0 };
  measured.headAt = measured.started;
  const dumpHead = flags.dumpHeader === undefined
    ? undefined
    : await (await lazy.dumpHeader()).openDumpHeader(flags.dumpHeader, context.stdout);
  let signal = context.signal;
  const sendOnce = async (body: BodySource | undefined) => {
    signal = attemptSignal(flags.timeout, context.signal);
    const options = sendOptions(plan, context, { signal, measured, dumpHead });
    return await send({ ...spec, ...(body ? { body } : {}) }, options);
  };
  let exchange: Exchange;
  try {
    exchange = flags.retry
      ? await (await lazy.retryRun()).sendWithRetries(sendOnce, spec, flags, {
        signal: context.signal,
        err: context.stderr,
      })
      : await sendOnce(spec.body);
  } catch (error) {
    await dumpHead?.close();
    if (plan.writeOut && error instanceof DialError) {
      await printWriteOut(plan, { ...measured, error }, context);
    }
    throw error;
  }
  await dumpHead?.close();
  const counted = plan.writeOut ? countBody(exchange.response) : undefined;
  return {
    exchange,
    response: counted?.response ?? exchange.response,
    signal,
    measured: {
      ...measured,
      exchange,
      get size() {
        return counted?.size() ?? 0;
      },
    },
  };
}

/** `--timeout` bounds each attempt, as curl's `--max-time` does with `--retry`. */
function attemptSignal(timeout: number | undefined, signal: AbortSignal): AbortSignal {
  return timeout === undefined ? signal : AbortSignal.any([signal, AbortSignal.timeout(timeout)]);
}

/** The options of one attempt: redirects, cookies, and the hooks that print `-v` and `-D`. */
function sendOptions(
  plan: RequestPlan,
  context: CliContext,
  attempt: { signal: AbortSignal; measured: Measured; dumpHead: DumpHeader | undefined },
): SendOptions {
  const { flags, cookies } = plan;
  const err = context.stderr;
  const { measured, dumpHead } = attempt;
  return {
    transport: plan.transport,
    follow: flags.follow,
    maxRedirects: flags.maxRedirects,
    signal: attempt.signal,
    ...(cookies.jar ? { cookies: cookies.jar } : {}),
    onNotice: (text: string) => void warn(err, text),
    ...(flags.verbose ? { onNote: (text: string) => void warn(err, text) } : {}),
    onRequest: async (request, framing) => {
      measured.uploaded = typeof framing === "object" ? framing.length : 0;
      if (flags.verbose) await err.write(formatRequestHead(request, framing, err));
    },
    onResponse: async (_request, response) => {
      measured.headAt = performance.now();
      if (flags.verbose) await err.write(formatResponseHead(response, err, { trace: true }));
      await dumpHead?.write(response);
    },
  };
}

/** After the exchange: the session and the `-c` cookie jar written, a Digest challenge named. */
async function keepState(plan: RequestPlan, response: Response, context: CliContext) {
  const { flags, cookies, built } = plan;
  const err = context.stderr;
  if (plan.session && cookies.jar) await plan.session.save(built, cookies.jar, err);
  if (response.status === 401 && plan.spec.auth.authorization?.kind === "basic" && !flags.silent) {
    const challenge = response.headers.get("www-authenticate") ?? "";
    if (/^\s*digest\b|,\s*digest\s/i.test(challenge)) {
      await warn(
        err,
        "The server asks for Digest authentication: add --digest to send -u as Digest",
      );
    }
  }
  if (built.cookieFlags && cookies.jar && cookies.saveTo !== undefined) {
    await built.cookieFlags.saveCookieJar(cookies.jar, cookies.saveTo).catch((error) => {
      throw new DialError(
        `Cannot write cookie jar "${cookies.saveTo}": ${(error as Error).message}`,
        ErrorCode.CookieJar,
        { cause: error },
      );
    });
  }
}

/**
 * The response body printed (`--filter`, `-i`, `--pretty`) or written (`-o`, `--download`,
 * `-C`).
 *
 * @returns the exit code when saving decided it (`--download`, `-C`), else undefined
 */
async function printBody(
  plan: RequestPlan,
  sent: Sent,
  context: CliContext,
): Promise<number | undefined> {
  const { flags, save, filter } = plan;
  const { response, exchange } = sent;
  const { stdout: out, stderr: err } = context;
  try {
    if (save) {
      const url = exchange.request.url;
      return await save.module.saveResponse(response, url, flags, { out, err }, save.resume);
    }
    if (filter) await filter.module.printFiltered(response, filter.path, out);
    else if (
      flags.output !== undefined && flags.checkStatus && !flags.failWithBody &&
      response.status >= 400
    ) {
      await dropErrorBody(flags, response, context);
    } else {
      await printResponse(response, {
        out,
        err,
        // HEAD has only a head to show (curl -I prints it piped too).
        ...(flags.include || plan.spec.method === "HEAD" ? { include: true } : {}),
        ...(flags.silent ? { silent: true } : {}),
        ...(flags.pretty !== undefined ? { pretty: flags.pretty } : {}),
        ...(flags.output !== undefined ? { outputFile: flags.output } : {}),
      });
    }
  } catch (error) {
    // A reader that has seen enough (`dial URL | head -1`) is not a failure of the exchange.
    if (!isBrokenPipe(error)) throw bodyError(error, exchange.request.url, sent.signal);
    await response.body?.cancel().catch(() => {});
    if (save && !response.ok) return statusExitCode(response.status);
  }
  return undefined;
}

/** curl -f: an error body is not written to the -o file (--fail-with-body writes it). */
async function dropErrorBody(flags: RequestFlagValues, response: Response, context: CliContext) {
  await response.body?.cancel();
  if (!flags.silent) {
    await warn(
      context.stderr,
      `Not saved: HTTP ${response.status} (-f; --fail-with-body saves it)`,
    );
  }
}

/** `-w`: printed after the exchange, or after a failure with `%{http_code}` 000. */
async function printWriteOut(plan: RequestPlan, measured: Measured, context: CliContext) {
  const { writeOutAfter } = await lazy.writeOutRun();
  const { method, url } = plan.spec;
  await writeOutAfter(plan.writeOut!, { ...measured, method, url }, {
    out: context.stdout,
    err: context.stderr,
  });
}

/** An error status named on stderr when the body went elsewhere (a pipe or `-o`). */
async function warnStatus(flags: RequestFlagValues, response: Response, context: CliContext) {
  if (flags.silent || (context.stdout.isTerminal && flags.output === undefined)) return;
  await warn(context.stderr, `HTTP ${response.status} ${response.statusText}`.trimEnd());
}

/** The response with its body counted as it is read, for -w's %{size_download}. */
function countBody(response: Response): { response: Response; size: () => number } {
  let size = 0;
  if (!response.body) return { response, size: () => 0 };
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      size += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  const counted = new Response(response.body.pipeThrough(counter), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  return { response: counted, size: () => size };
}

function bodyError(error: unknown, url: URL, signal: AbortSignal): DialError {
  if (error instanceof DialError) return error;
  if (signal.aborted && signal.reason instanceof DialError) return signal.reason;
  const host = url.host;
  if (
    (error instanceof DOMException && error.name === "TimeoutError") ||
    (signal.aborted && signal.reason instanceof DOMException)
  ) {
    return new TimeoutError(`Timed out reading the response body from ${host}`, { cause: error });
  }
  const local = outputError(error);
  if (local) return local;
  const message = redactUrlsInText(
    error instanceof Error ? error.message.split("\n")[0]! : String(error),
  );
  return new TransportError(`Response body from ${host} was cut off: ${message}`, {
    cause: error,
  });
}
