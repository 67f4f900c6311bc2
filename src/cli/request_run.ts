/**
 * The request command's implementation, `dial <METHOD> <url> [flags]`: flags to a spec, send,
 * print. Loaded when the command runs; its declaration is in `request.ts`.
 * @module
 */
import { load } from "../load.ts";
import {
  DialError,
  ErrorCode,
  ExitCode,
  outputError,
  statusExitCode,
  TimeoutError,
  TransportError,
  UsageError,
} from "../errors/mod.ts";
import { authorize } from "../http/credentials.ts";
import { type Exchange, framingOf, send, withCookies } from "../http/send.ts";
import type { BodySource, RequestSpec } from "../http/request_spec.ts";
import { formatRequestHead, formatResponseHead } from "../output/http.ts";
import { warn } from "../output/report.ts";
import { printResponse } from "../output/response.ts";
import { isBrokenPipe } from "../output/terminal.ts";
import { redactUrlsInText } from "../redact_url.ts";
import { curlHabitArgs } from "./curl_flags.ts";
import { buildSpec } from "./request_build.ts";
import { splitWords } from "./request_target.ts";
import type { CliContext } from "./context.ts";
import { lazy } from "./lazy.ts";
import type { RequestFlagValues } from "./request.ts";
import { curlTransportArgs, parseTransportFlags } from "./transport_flags.ts";

/**
 * Runs the request command.
 *
 * @param words the positional words: [METHOD] <url> [items…]
 * @param flags the flag values
 * @param context exit code and Ctrl-C signal
 * @returns the exit code
 */
export async function runRequest(
  words: ReadonlyArray<string | undefined>,
  flags: RequestFlagValues,
  context: CliContext,
): Promise<number> {
  const given = words.filter((word) => word !== undefined);
  if (given.length === 0) {
    const [{ helpText }, { ROOT }] = await Promise.all([
      lazy.help(),
      import("./program.ts"),
    ]);
    await context.stderr.write(helpText([ROOT]));
    return ExitCode.Usage;
  }
  // curl's -o - is stdout.
  if (flags.output === "-") flags = { ...flags, output: undefined };
  if (flags.failWithBody) flags = { ...flags, checkStatus: true };
  const filter = flags.filter === undefined ? undefined : await lazy.jsonFilter();
  if (flags.filter !== undefined) filter!.checkJsonPath(flags.filter);
  const split = splitWords(given);
  // --session loads its module only when given.
  const sessionName = flags.session ?? flags.sessionReadOnly;
  const session = sessionName === undefined
    ? undefined
    : await (await lazy.sessionRun()).useSession(sessionName, split, flags, context);
  if (session) flags = session.flags;
  const built = await buildSpec(split, flags, context);
  const writeOut = flags.writeOut === undefined
    ? undefined
    : await (await load.writeOut()).parseWriteOut(flags.writeOut);
  // curl warns about a variable it does not know and prints it empty; so does dial.
  for (const name of writeOut?.unknown ?? []) {
    await warn(context.stderr, `-w: unknown variable "%{${name}}", printed empty`);
  }
  const { method, url, auth, cookieFlags } = built;
  const cookies = session ? { ...built.cookies, jar: session.jar(built) } : built.cookies;
  const timeout = flags.timeout;
  const maxRedirects = flags.maxRedirects;
  const headers = built.headers;
  // -C and --download load their module only when given.
  const saving = flags.continue || (flags.download && flags.output === undefined);
  const save = saving ? await lazy.requestSave() : undefined;
  const resume = await save?.resumeTarget(flags, url, headers);
  const transport = await parseTransportFlags(flags, context, flags.verbose);
  const spec: RequestSpec = {
    method,
    url,
    headers: [...headers, ...(save?.resumeHeaders(resume, headers) ?? [])],
    auth: auth.auth,
    ...(built.body ? { body: built.body } : {}),
  };
  const printing = [
    flags.export !== undefined && "--export",
    flags.curl && "--curl",
    flags.offline && "--offline",
  ]
    .filter((f) => f !== false);
  if (printing.length > 1) {
    throw new UsageError(
      `Give one of ${printing.join(", ")}: each prints the request instead of sending it`,
    );
  }
  if (flags.withSecrets && flags.export === undefined && !flags.curl) {
    throw new UsageError("--with-secrets needs --curl or --export FORMAT", {
      hint: "dial … --curl --with-secrets",
    });
  }
  if (flags.name !== undefined && flags.save === undefined) {
    throw new UsageError("--name needs --save FILE.http", {
      hint: "dial … --save api.http --name me",
    });
  }
  if (flags.save !== undefined) {
    const { reportSaved, saveHttpRequest } = await lazy.saveHttp();
    await reportSaved(await saveHttpRequest(spec, flags, flags.save), context.stderr);
  }
  const out = context.stdout;
  const err = context.stderr;
  if (flags.export !== undefined) {
    const { exportFromFlags } = await lazy.requestExport();
    const text = await exportFromFlags(spec, flags, context);
    await out.write(text.endsWith("\n") ? text : `${text}\n`);
    return ExitCode.OK;
  }
  if (flags.offline) {
    const { request } = await authorize(spec, { offline: true });
    let prepared = cookies.jar ? withCookies(request, cookies.jar) : request;
    // What a signer knows before any answer (SigV4 signs; Digest waits for a challenge).
    if (prepared.signer) prepared = await prepared.signer.sign(prepared);
    await out.write(formatRequestHead(prepared, await framingOf(prepared), out));
    if (spec.body) await out.write(describeBody(spec.body) + "\n");
    return ExitCode.OK;
  }
  if (flags.curl) {
    const { request } = await authorize(spec, {
      signal: context.signal,
      fetch: (await load.client()).transportFetch(transport),
    });
    const { toCurl } = await load.curl();
    // Secrets are environment lookups, as --export curl writes them, unless --with-secrets.
    const { envLookup, envName } = await load.exportRequest();
    const { shellWord } = await load.codeWriters();
    const lookups = new Set<string>();
    const show = (_secret: unknown, name: string) => {
      lookups.add(`$${envName(name)}`);
      return envLookup(name);
    };
    const curl = toCurl(request, {
      ...(flags.withSecrets ? {} : { show, quote: shellWord }),
      follow: flags.follow,
      maxRedirects,
      cookieFiles: cookies.files,
      ...(timeout !== undefined ? { timeout: timeout / 1000 } : {}),
      extra: [...curlTransportArgs(flags), ...curlHabitArgs(flags)],
    });
    await out.write(curl + "\n");
    if (lookups.size) {
      const names = [...lookups].join(", ");
      await warn(
        err,
        `The command reads ${names} from the environment (--with-secrets prints the values)`,
      );
    }
    return ExitCode.OK;
  }
  // --timeout bounds each attempt, as curl's --max-time does with --retry.
  const attemptSignal = () =>
    timeout === undefined
      ? context.signal
      : AbortSignal.any([context.signal, AbortSignal.timeout(timeout)]);
  let signal = attemptSignal();
  const dumpHead = flags.dumpHeader === undefined
    ? undefined
    : await (await lazy.dumpHeader()).openDumpHeader(flags.dumpHeader, out);
  const started = performance.now();
  let headAt = started;
  let uploaded = 0;
  let exchange: Exchange;
  const sendOnce = async (body: BodySource | undefined) => {
    signal = attemptSignal();
    return await send({ ...spec, ...(body ? { body } : {}) }, {
      transport,
      follow: flags.follow,
      maxRedirects,
      signal,
      ...(cookies.jar ? { cookies: cookies.jar } : {}),
      onNotice: (text: string) => void warn(err, text),
      ...(flags.verbose ? { onNote: (text: string) => void warn(err, text) } : {}),
      onRequest: async (request, framing) => {
        uploaded = typeof framing === "object" ? framing.length : 0;
        if (flags.verbose) await err.write(formatRequestHead(request, framing, err));
      },
      onResponse: async (_request, response) => {
        headAt = performance.now();
        if (flags.verbose) await err.write(formatResponseHead(response, err, { trace: true }));
        await dumpHead?.write(response);
      },
    });
  };
  try {
    exchange = flags.retry
      ? await (await lazy.retryRun()).sendWithRetries(sendOnce, spec, flags, {
        signal: context.signal,
        err,
      })
      : await sendOnce(spec.body);
  } catch (error) {
    await dumpHead?.close();
    if (writeOut && error instanceof DialError) {
      const { writeOutAfter } = await lazy.writeOutRun();
      await writeOutAfter(writeOut, { started, headAt, error, method, url, uploaded }, {
        out,
        err,
      });
    }
    throw error;
  }
  await dumpHead?.close();
  const counted = writeOut ? countBody(exchange.response) : undefined;
  const response = counted?.response ?? exchange.response;
  if (session && cookies.jar) await session.save(built, cookies.jar, err);
  if (response.status === 401 && spec.auth.authorization?.kind === "basic" && !flags.silent) {
    const challenge = response.headers.get("www-authenticate") ?? "";
    if (/^\s*digest\b|,\s*digest\s/i.test(challenge)) {
      await warn(
        err,
        "The server asks for Digest authentication: add --digest to send -u as Digest",
      );
    }
  }
  if (cookieFlags && cookies.jar && cookies.saveTo !== undefined) {
    await cookieFlags.saveCookieJar(cookies.jar, cookies.saveTo).catch((error) => {
      throw new DialError(
        `Cannot write cookie jar "${cookies.saveTo}": ${(error as Error).message}`,
        ErrorCode.CookieJar,
        { cause: error },
      );
    });
  }
  try {
    if (save) {
      return await save.saveResponse(response, exchange.request.url, flags, { out, err }, resume);
    }
    const unsaved = flags.output !== undefined && flags.checkStatus && !flags.failWithBody &&
      response.status >= 400;
    if (filter && flags.filter !== undefined) {
      await filter.printFiltered(response, flags.filter, out);
    } else if (unsaved) {
      // curl -f: an error body is not written to the -o file (--fail-with-body writes it).
      await response.body?.cancel();
      if (!flags.silent) {
        await warn(err, `Not saved: HTTP ${response.status} (-f; --fail-with-body saves it)`);
      }
    } else {
      await printResponse(response, {
        out,
        err,
        // HEAD has only a head to show (curl -I prints it piped too).
        ...(flags.include || method === "HEAD" ? { include: true } : {}),
        ...(flags.silent ? { silent: true } : {}),
        ...(flags.pretty !== undefined ? { pretty: flags.pretty } : {}),
        ...(flags.output !== undefined ? { outputFile: flags.output } : {}),
      });
    }
  } catch (error) {
    // A reader that has seen enough (`dial URL | head -1`) is not a failure of the exchange.
    if (!isBrokenPipe(error)) throw bodyError(error, exchange.request.url, signal);
    await response.body?.cancel().catch(() => {});
    if (save && !response.ok) return statusExitCode(response.status);
  }
  const code = !flags.checkStatus || response.status < 300
    ? ExitCode.OK
    : statusExitCode(response.status);
  if (writeOut) {
    const { writeOutAfter } = await lazy.writeOutRun();
    await writeOutAfter(writeOut, {
      started,
      headAt,
      uploaded,
      exchange,
      size: counted?.size() ?? 0,
      exitCode: code,
      method,
      url,
    }, { out, err });
  }
  if (code === ExitCode.OK) return code;
  if (!flags.silent && (!out.isTerminal || flags.output !== undefined)) {
    await warn(err, `HTTP ${response.status} ${response.statusText}`.trimEnd());
  }
  return code;
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

function describeBody(body: BodySource): string {
  switch (body.kind) {
    case "text":
      return body.text;
    case "file":
      return `(body streamed from file "${body.path}")`;
    case "stdin":
      return "(body streamed from stdin)";
    case "stream":
      return "(body streamed from a pipe, chunked)";
    case "bytes":
      return `(${body.bytes.byteLength} bytes)`;
    case "form":
      return body.fields
        .map((f) =>
          "path" in f
            ? `${f.name}: (file "${f.path}" as "${f.filename}", ${f.contentType})`
            : `${f.name}: ${f.value}`
        )
        .join("\n");
  }
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
