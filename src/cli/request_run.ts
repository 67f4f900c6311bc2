/**
 * The request command's implementation, `dial <METHOD> <url> [flags]`: flags to a spec, send,
 * print. Loaded when the command runs; its declaration is in `request.ts`.
 * @module
 */
import { statusExitCode } from "../http/status.ts";
import {
  DialError,
  ErrorCode,
  ExitCode,
  outputError,
  TimeoutError,
  TransportError,
  UsageError,
} from "../errors.ts";
import { authorize } from "../http/credentials.ts";
import { framingOf, send, withCookies } from "../http/send.ts";
import type { BodySource, RequestSpec } from "../http/request_spec.ts";
import { formatRequestHead, formatResponseHead } from "../output/http.ts";
import { warn } from "../output/report.ts";
import { printResponse } from "../output/response.ts";
import { isBrokenPipe, stderr, stdout, writeSync } from "../output/terminal.ts";
import { redactUrlsInText } from "../redact_url.ts";
import { parseAuthFlags } from "./auth_flags.ts";
import { parseBodyFlags } from "./body_flags.ts";
import type { CliContext } from "./context.ts";
import { lazy } from "./lazy.ts";
import { methodAndUrl } from "./flag_values.ts";
import type { RequestFlagValues } from "./request.ts";
import { curlTransportArgs, parseTransportFlags } from "./transport_flags.ts";

/**
 * Runs the request command.
 *
 * @param first METHOD, or the URL
 * @param second the URL
 * @param flags the flag values
 * @param context exit code and Ctrl-C signal
 * @returns the exit code
 */
export async function runRequest(
  first: string | undefined,
  second: string | undefined,
  flags: RequestFlagValues,
  context: CliContext,
): Promise<number> {
  if (first === undefined) {
    const [{ helpText }, { ROOT }] = await Promise.all([
      import("./help.ts"),
      import("./program.ts"),
    ]);
    writeSync("stderr", helpText([ROOT]));
    return ExitCode.Usage;
  }
  const body = await parseBodyFlags(flags);
  const { method, url } = methodAndUrl(first, second, body.body !== undefined);
  const auth = await parseAuthFlags(flags, url);
  // -b and -c load their module only when given.
  const cookieFlags = flags.cookie !== undefined || flags.cookieJar !== undefined
    ? await import("./cookie_flags.ts")
    : undefined;
  const cookies = await cookieFlags?.parseCookieFlags(flags) ??
    { headers: [], jar: undefined, files: {}, saveTo: undefined };
  if (cookies.headers.length && auth.headers.some((h) => h.name.toLowerCase() === "cookie")) {
    throw new UsageError('Conflicting flags -b and -H "Cookie: …": both set the Cookie header', {
      hint: "use only one of them",
    });
  }
  if (body.body && (method === "GET" || method === "HEAD")) {
    throw new UsageError(`A request body cannot be sent with ${method}`, {
      hint: "give another method, e.g. POST",
    });
  }
  const timeout = flags.timeout;
  const maxRedirects = flags.maxRedirects;
  const headers = [...auth.headers, ...cookies.headers, ...body.headers];
  // -C and --download load their module only when given.
  const saving = flags.continue || (flags.download && flags.output === undefined);
  const save = saving ? await import("./request_save.ts") : undefined;
  const resume = await save?.resumeTarget(flags, url, headers);
  const transport = await parseTransportFlags(flags, flags.verbose);
  const spec: RequestSpec = {
    method,
    url,
    headers: [...headers, ...(save?.resumeHeaders(resume, headers) ?? [])],
    auth: auth.auth,
    ...(body.body ? { body: body.body } : {}),
  };
  if (flags.name !== undefined && flags.save === undefined) {
    throw new UsageError("--name needs --save FILE.http", {
      hint: "dial … --save api.http --name me",
    });
  }
  if (flags.save !== undefined) {
    const { reportSaved, saveHttpRequest } = await lazy.saveHttp();
    await reportSaved(await saveHttpRequest(spec, flags, flags.save));
  }
  const out = stdout();
  const err = stderr();
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
      fetch: (await import("../http/client.ts")).transportFetch(transport),
    });
    const { toCurl } = await import("../output/curl.ts");
    const curl = toCurl(request, {
      follow: flags.follow,
      maxRedirects,
      cookieFiles: cookies.files,
      ...(timeout !== undefined ? { timeout: timeout / 1000 } : {}),
      extra: curlTransportArgs(flags),
    });
    await out.write(curl + "\n");
    return ExitCode.OK;
  }
  const signal = timeout === undefined
    ? context.signal
    : AbortSignal.any([context.signal, AbortSignal.timeout(timeout)]);
  const exchange = await send(spec, {
    transport,
    follow: flags.follow,
    maxRedirects,
    signal,
    ...(cookies.jar ? { cookies: cookies.jar } : {}),
    onNotice: (text) => void warn(err, text),
    ...(flags.verbose
      ? {
        onNote: (text) => void warn(err, text),
        onRequest: (request, framing) => err.write(formatRequestHead(request, framing, err)),
        onResponse: (_request, response) =>
          err.write(formatResponseHead(response, err, { trace: true })),
      }
      : {}),
  });
  const { response } = exchange;
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
        ExitCode.Failure,
        { cause: error },
      );
    });
  }
  try {
    if (save) {
      return await save.saveResponse(response, exchange.request.url, flags, { out, err }, resume);
    }
    await printResponse(response, {
      ...(flags.include ? { include: true } : {}),
      ...(flags.silent ? { silent: true } : {}),
      ...(flags.output !== undefined ? { outputFile: flags.output } : {}),
    });
  } catch (error) {
    // A reader that has seen enough (`dial URL | head -1`) is not a failure of the exchange.
    if (!isBrokenPipe(error)) throw bodyError(error, exchange.request.url, signal);
    await response.body?.cancel().catch(() => {});
    if (save && !response.ok) return statusExitCode(response.status);
  }
  if (!flags.checkStatus || response.status < 300) return ExitCode.OK;
  if (!flags.silent && (!out.isTerminal || flags.output !== undefined)) {
    await warn(err, `HTTP ${response.status} ${response.statusText}`.trimEnd());
  }
  return statusExitCode(response.status);
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
