/**
 * The request command, `dial <METHOD> <url> [flags]`: flags to a spec, send, print.
 * @module
 */
import { statusExitCode } from "../http/status.ts";
import type { Command, CommandUnknownOpts } from "@commander-js/extra-typings";
import { authorizationHeader } from "../auth/authorize.ts";
import { DialError, ExitCode, TimeoutError, TransportError, UsageError } from "../errors.ts";
import { buildRequest } from "../http/build_request.ts";
import { send } from "../http/send.ts";
import type { BodySource, RequestSpec } from "../http/spec.ts";
import { toCurl } from "../output/curl.ts";
import { saveDownload } from "../output/download.ts";
import { formatRequestHead, formatResponseHead } from "../output/http.ts";
import { warn } from "../output/report.ts";
import { printResponse } from "../output/response.ts";
import { stderr, stdout } from "../output/terminal.ts";
import { Secret } from "../secret.ts";
import { type AuthFlagValues, parseAuthFlags } from "./auth_flags.ts";
import { type BodyFlagValues, parseBodyFlags } from "./body_flags.ts";
import type { CliContext } from "./context.ts";
import { parseCount, parseMethod, parseSeconds, parseUrl } from "./values.ts";

/**
 * Adds the request flags that are not auth or body: redirects, timeout, output.
 *
 * @param command a command
 * @returns the command, typed with the new options
 */
// deno-lint-ignore no-explicit-any
export function withRequestFlags<A extends any[], O extends Record<string, unknown>>(
  command: Command<A, O>,
): Command<A, O & RequestOnlyFlagValues> {
  // Declared on an untyped view: eleven chained generic .option() types make deno check
  // take minutes; the result type is spelled out once instead.
  const untyped = command as unknown as CommandUnknownOpts;
  untyped
    .option("-L, --follow", "follow redirects (credentials never cross origins)")
    .option("--max-redirects <n>", "the most redirects to follow", "10")
    .option("--timeout <seconds>", "limit the whole exchange (decimal seconds)")
    .option("--check-status", "exit 3, 4 or 5 on a 3xx, 4xx or 5xx response")
    .option("-i, --include", "print the status line and headers even when piped")
    .option("-v, --verbose", "print request and response heads to stderr (secrets redacted)")
    .option("-o, --output <file>", "write the body to a file (progress bar on a terminal)")
    .option("--download", "save the body to a new file named by the server or the URL")
    .option("-s, --silent", "print only the body")
    .option("--curl", "print the equivalent curl command instead of sending")
    .option("--offline", "print the request that would be sent, without sending");
  return command as unknown as Command<A, O & RequestOnlyFlagValues>;
}

/** The flag values of the request command. */
export interface RequestFlagValues extends AuthFlagValues, BodyFlagValues, RequestOnlyFlagValues {}

/** The flag values that {@link withRequestFlags} adds. */
export type RequestOnlyFlagValues = {
  follow?: true;
  maxRedirects: string;
  timeout?: string;
  checkStatus?: true;
  include?: true;
  verbose?: true;
  output?: string;
  download?: true;
  silent?: true;
  curl?: true;
  offline?: true;
};

/** Commands that a lowercase first word may have been meant as. */
export const SUBCOMMANDS = ["graphql", "ws", "sse", "ui", "auth", "completions"];

/**
 * Works out method and URL from the positional arguments: `dial <url>` means GET, or POST
 * when a body is given.
 *
 * @param first the first positional argument
 * @param second the second positional argument
 * @param hasBody whether a body flag was given
 * @returns the method and the URL
 */
export function methodAndUrl(
  first: string | undefined,
  second: string | undefined,
  hasBody: boolean,
): { method: string; url: URL } {
  if (first === undefined) throw new UsageError("Missing URL", { hint: "dial GET https://…" });
  if (second === undefined) {
    if (!first.includes("://")) {
      const suggestion = suggestCommand(first);
      throw new UsageError(`Missing URL after "${first}"`, {
        hint: suggestion ? `did you mean "dial ${suggestion}"?` : "dial <METHOD> <url>",
      });
    }
    return { method: hasBody ? "POST" : "GET", url: parseUrl(first) };
  }
  const suggestion = suggestCommand(first);
  if (suggestion) {
    throw new UsageError(`Unknown command "${first}"`, {
      hint: `did you mean "dial ${suggestion}"? Methods are sent as written, e.g. GET`,
    });
  }
  return { method: parseMethod(first), url: parseUrl(second) };
}

function suggestCommand(word: string): string | undefined {
  if (word !== word.toLowerCase() || SUBCOMMANDS.includes(word)) return undefined;
  return SUBCOMMANDS.find((name) =>
    distance(word, name) <= Math.max(1, Math.floor(name.length / 3))
  );
}

function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(
        row[j]! + 1,
        next[j - 1]! + 1,
        row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    row = next;
  }
  return row[b.length]!;
}

/**
 * Runs the request command.
 *
 * @param first METHOD, or the URL
 * @param second the URL
 * @param flags the flag values
 * @param context exit code and Ctrl-C signal
 * @returns the exit code
 */
export async function requestCommand(
  first: string | undefined,
  second: string | undefined,
  flags: RequestFlagValues,
  context: CliContext,
): Promise<number> {
  const body = await parseBodyFlags(flags);
  const { method, url } = methodAndUrl(first, second, body.body !== undefined);
  const auth = await parseAuthFlags(flags);
  if (body.body && (method === "GET" || method === "HEAD")) {
    throw new UsageError(`A request body cannot be sent with ${method}`, {
      hint: "give another method, e.g. POST",
    });
  }
  const timeout = flags.timeout === undefined
    ? undefined
    : parseSeconds(flags.timeout, "--timeout");
  const maxRedirects = parseCount(flags.maxRedirects, "--max-redirects");
  if (flags.curl && flags.offline) {
    throw new UsageError("Conflicting flags --curl and --offline: give one");
  }
  const spec: RequestSpec = {
    method,
    url,
    headers: [...auth.headers, ...body.headers],
    auth: auth.auth,
    ...(body.body ? { body: body.body } : {}),
  };
  const out = stdout();
  const err = stderr();
  if (flags.offline) {
    const header = spec.auth.authorization &&
      (spec.auth.authorization.kind === "oauth2"
        ? new Secret("")
        : await authorizationHeader(spec.auth.authorization));
    await out.write(formatRequestHead(buildRequest(spec, header), out.color));
    if (spec.body) await out.write(describeBody(spec.body) + "\n");
    return ExitCode.OK;
  }
  if (flags.curl) {
    const header = spec.auth.authorization &&
      await authorizationHeader(spec.auth.authorization, { signal: context.signal });
    const curl = toCurl(buildRequest(spec, header), {
      follow: flags.follow,
      maxRedirects,
      ...(timeout !== undefined ? { timeout: timeout / 1000 } : {}),
    });
    await out.write(curl + "\n");
    return ExitCode.OK;
  }
  const signal = timeout === undefined
    ? context.signal
    : AbortSignal.any([context.signal, AbortSignal.timeout(timeout)]);
  const exchange = await send(spec, {
    follow: flags.follow ?? false,
    maxRedirects,
    signal,
    ...(flags.verbose
      ? {
        onRequest: (request) => err.write(formatRequestHead(request, err.color)),
        onResponse: (_request, response) => err.write(formatResponseHead(response, err.color)),
      }
      : {}),
  });
  const { response } = exchange;
  const download = flags.download && flags.output === undefined;
  try {
    if (download && response.ok) {
      if (flags.include) await out.write(formatResponseHead(response, out.color));
      await saveDownload(response, exchange.request.url, { err, silent: flags.silent ?? false });
    } else {
      if (download && !flags.silent) {
        await warn(err, `Not saved: HTTP ${response.status} ${response.statusText}`.trimEnd());
      }
      await printResponse(response, {
        ...(flags.include ? { include: true } : {}),
        ...(flags.silent ? { silent: true } : {}),
        ...(flags.output !== undefined ? { outputFile: flags.output } : {}),
      });
    }
  } catch (error) {
    throw bodyError(error, exchange.request.url, signal);
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
    case "form":
      return body.fields
        .map((f) =>
          "path" in f ? `${f.name}: (file "${f.path}", ${f.contentType})` : `${f.name}: ${f.value}`
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
  if (error instanceof Deno.errors.PermissionDenied || error instanceof Deno.errors.NotFound) {
    return new DialError(`Cannot write output: ${error.message}`, "output", ExitCode.Failure, {
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
  return new TransportError(`Response body from ${host} was cut off: ${message}`, {
    cause: error,
  });
}
