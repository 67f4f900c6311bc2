/**
 * The `dial sse` implementation: flags to a plan ({@link ssePlan}, nothing sent), an
 * {@link SseSession}, each event printed as it arrives ({@link eventPrinter}).
 * @module
 */
import { type DialError, TimeoutError, UsageError } from "../errors/mod.ts";
import { formatRequestHead, formatResponseHead } from "../output/http.ts";
import { OrderedPrinter } from "../output/ordered_printer.ts";
import { warn } from "../output/report.ts";
import { type EventFormat, formatEvent } from "../output/stream.ts";
import { escapeControls, shown } from "../output/terminal.ts";
import type { RequestSpec } from "../http/request_spec.ts";
import { SseSession, type SseSessionEvent } from "../stream/sse_session.ts";
import { parseAuthFlags } from "./auth_flags.ts";
import { parseBodyFlags } from "./body_flags.ts";
import type { CliContext } from "./context.ts";
import { methodAndUrl } from "./flag_values.ts";
import type { SseFlagValues } from "./sse.ts";
import { parseTransportFlags } from "./transport_flags.ts";
import { transportFetch } from "../http/client.ts";

/** The time limits of `dial sse`, in milliseconds. */
export interface SseLimits {
  /** The whole session (`--timeout`). */
  timeoutMs?: number;
  /** No event or comment for this long (`--idle-timeout`). */
  idleTimeoutMs?: number;
}

/**
 * @param flags `--timeout` and `--idle-timeout`
 * @returns the limits
 */
export function sseLimits(flags: Pick<SseFlagValues, "timeout" | "idleTimeout">): SseLimits {
  return {
    ...(flags.timeout !== undefined ? { timeoutMs: flags.timeout } : {}),
    ...(flags.idleTimeout !== undefined ? { idleTimeoutMs: flags.idleTimeout } : {}),
  };
}

/** Aborts with a TimeoutError when the session runs too long or goes quiet. */
function limitTimers(limits: SseLimits, host: string) {
  const controller = new AbortController();
  const stop = (message: string) => {
    if (!controller.signal.aborted) controller.abort(new TimeoutError(message));
  };
  const seconds = (ms: number) => `${ms / 1000} s`;
  const deadline = limits.timeoutMs === undefined ? undefined : setTimeout(
    () => stop(`Timed out after ${seconds(limits.timeoutMs!)} (--timeout)`),
    limits.timeoutMs,
  );
  let idle: ReturnType<typeof setTimeout> | undefined;
  const touch = () => {
    if (limits.idleTimeoutMs === undefined) return;
    clearTimeout(idle);
    idle = setTimeout(
      () => stop(`No event from ${host} for ${seconds(limits.idleTimeoutMs!)} (--idle-timeout)`),
      limits.idleTimeoutMs,
    );
  };
  touch();
  return {
    signal: controller.signal,
    touch,
    hold: () => clearTimeout(idle),
    clear: () => {
      clearTimeout(deadline);
      clearTimeout(idle);
    },
  };
}

/** What `dial sse` does, decided from its flags before anything is sent. */
export interface SsePlan {
  /** The request (sent again on each reconnection). */
  spec: RequestSpec;
  /** How each event is printed. */
  format: EventFormat;
  /** Only these event types are printed; every type when empty (`--event`). */
  wanted: ReadonlySet<string>;
  /** Stop after this many printed events (`--max-events`). */
  maxEvents?: number;
  /** The time limits. */
  limits: SseLimits;
}

/**
 * Checks the flags and builds the request: nothing is sent; a mistake is a UsageError.
 *
 * @param first METHOD, or the URL
 * @param second the URL
 * @param flags the flag values
 * @param context stdin and the environment, for bodies and secret references
 * @returns the plan
 */
export async function ssePlan(
  first: string | undefined,
  second: string | undefined,
  flags: SseFlagValues,
  context: CliContext,
): Promise<SsePlan> {
  // --events with --jsonl is a declared conflict; bare --json is JSON output too.
  if (flags.events && flags.json === true) {
    throw new UsageError("Conflicting flags --events and --json: give one");
  }
  if (first === undefined) {
    throw new UsageError("Missing URL", { hint: "dial sse https://…/events" });
  }
  const parsedBody = await parseBodyFlags({
    ...flags,
    json: typeof flags.json === "string" ? flags.json : undefined,
  }, context);
  const { method, url } = methodAndUrl(first, second, parsedBody.body !== undefined);
  if (parsedBody.body && (method === "GET" || method === "HEAD")) {
    throw new UsageError(`A request body cannot be sent with ${method}`, {
      hint: "give another method, e.g. POST",
    });
  }
  if (flags.lastEventId !== undefined && /[\0\r\n]/.test(flags.lastEventId)) {
    throw new UsageError(`Invalid --last-event-id: it cannot hold NUL, CR or LF`);
  }
  const auth = await parseAuthFlags(flags, url, context);
  // A stdin body is read once so that every reconnection can send it again.
  let body = parsedBody.body;
  if (body?.kind === "stdin") {
    const text = await new Response(body.stream).text();
    body = { kind: "text", text, ...(body.contentType ? { contentType: body.contentType } : {}) };
  }
  // --json implies Accept: application/json; this endpoint answers with an event stream.
  const bodyHeaders = parsedBody.headers.filter((h) => h.name.toLowerCase() !== "accept");
  const jsonOutput = flags.jsonl === true || flags.json === true;
  return {
    spec: {
      method,
      url,
      headers: [...auth.headers, ...bodyHeaders],
      auth: auth.auth,
      ...(body ? { body } : {}),
    },
    format: jsonOutput ? "json" : flags.events ? "events" : "data",
    wanted: new Set(flags.event),
    ...(flags.maxEvents !== undefined ? { maxEvents: flags.maxEvents } : {}),
    limits: sseLimits(flags),
  };
}

/**
 * Runs `dial sse`: the plan, the session, each event printed as it arrives.
 *
 * @param first METHOD, or the URL
 * @param second the URL
 * @param flags the flag values
 * @param context exit code and Ctrl-C signal
 * @returns the exit code
 */
export async function runSse(
  first: string | undefined,
  second: string | undefined,
  flags: SseFlagValues,
  context: CliContext,
): Promise<number> {
  const plan = await ssePlan(first, second, flags, context);
  const transport = await parseTransportFlags(flags, context, flags.verbose);
  const timers = limitTimers(plan.limits, plan.spec.url.host);
  const err = context.stderr;
  // Events go through a byte-bounded queue: while it is full, the session stops reading.
  const printer = new OrderedPrinter(context.stdout, {
    // `dial sse URL | head -3`: the reader has what it wanted; end like --max-events.
    onReaderGone: () => session.close("the reader of stdout went away"),
  });
  const session: SseSession = new SseSession(plan.spec, {
    signal: AbortSignal.any([context.signal, timers.signal]),
    fetch: transportFetch(transport),
    reconnect: flags.reconnect,
    maxRetries: flags.maxRetries,
    retryMs: flags.reconnectDelay,
    follow: flags.follow,
    ...(flags.lastEventId !== undefined ? { lastEventId: flags.lastEventId } : {}),
    ready: () => {
      const pause = printer.writer.ready();
      if (!pause) return undefined;
      // Waiting for our own output is not the server's silence.
      timers.hold();
      return pause.finally(timers.touch);
    },
    ...(flags.verbose
      ? {
        onRequest: (request, framing) => err.write(formatRequestHead(request, framing, err)),
        onResponse: (_request, response) =>
          err.write(formatResponseHead(response, err, { trace: true })),
      }
      : {}),
  });
  session.events.subscribe(eventPrinter(plan, session, printer, {
    context,
    touch: timers.touch,
    maxRetries: flags.maxRetries,
    verbose: flags.verbose,
  }));
  try {
    await session.run();
  } catch (error) {
    if (!timers.signal.aborted) throw error;
  } finally {
    timers.clear();
    await printer.finish();
  }
  if (timers.signal.aborted && !context.signal.aborted) throw timers.signal.reason;
  return 0;
}

/** What the event printer needs besides the plan, the session and the output. */
interface EventPrinterOptions {
  context: CliContext;
  /** Any sign of life from the server resets the idle timer. */
  touch(): void;
  maxRetries: number;
  verbose: boolean;
}

/** Prints each event the plan wants, counts them, and notes reconnections on stderr. */
function eventPrinter(
  plan: SsePlan,
  session: SseSession,
  printer: OrderedPrinter,
  options: EventPrinterOptions,
): (event: SseSessionEvent) => void {
  const { stdout: out, stderr: err } = options.context;
  let printed = 0;
  let failure: DialError | undefined;
  const enough = () => plan.maxEvents !== undefined && printed >= plan.maxEvents;
  return (event) => {
    if (event.type === "event" || event.type === "comment" || event.type === "open") {
      options.touch();
    }
    if (event.type === "event") {
      if ((plan.wanted.size > 0 && !plan.wanted.has(event.event)) || enough()) return;
      printed++;
      printer.writer.push(
        formatEvent(out.isTerminal ? shownOnTerminal(event) : event, plan.format, out.color),
      );
      if (printer.checkFailure() !== undefined) session.close("the output failed");
      if (enough()) session.close(`received ${plan.maxEvents} events`);
    } else if (event.type === "error") {
      failure = event.error;
    } else if (event.type === "reconnecting" && event.failures > 0 && failure) {
      const text =
        `${failure.message}: retrying in ${event.delayMs} ms (${event.failures} of ${options.maxRetries})`;
      printer.print(() => warn(err, text));
    } else if (options.verbose) {
      const note = describe(event);
      if (note) printer.print(() => err.write(`* ${shown(err, note)}\n`));
    }
  };
}

/** An event with control characters escaped, for a terminal. */
function shownOnTerminal<E extends { event: string; id?: string; data: string }>(event: E): E {
  return {
    ...event,
    event: escapeControls(event.event),
    data: escapeControls(event.data),
    ...(event.id !== undefined ? { id: escapeControls(event.id) } : {}),
  };
}

function describe(event: SseSessionEvent): string | undefined {
  switch (event.type) {
    case "retry":
      return `server set the reconnection time to ${event.retryMs} ms`;
    case "disconnected":
      return `disconnected: ${event.reason}`;
    case "reconnecting":
      return `reconnecting in ${event.delayMs} ms (attempt ${event.attempt}${
        event.lastEventId ? `, Last-Event-ID: ${event.lastEventId}` : ""
      })`;
    case "comment":
      return `comment: ${event.text}`;
    case "closed":
      return `closed: ${event.reason}`;
    default:
      return undefined;
  }
}
