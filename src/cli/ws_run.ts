/**
 * The `dial ws` implementation: flags to a plan ({@link wsPlan}, nothing sent), then stdin
 * lines out, messages in, a clean close.
 * @module
 */
import { DialError, ErrorCode, ExitCode, TransportError, UsageError } from "../errors/mod.ts";
import { formatRequestHead } from "../output/http.ts";
import { warn } from "../output/report.ts";
import { type BinaryEncoding, formatMessage } from "../output/stream.ts";
import { OrderedPrinter } from "../output/ordered_printer.ts";
import type { RequestSpec } from "../http/request_spec.ts";
import { escapeControls, shown } from "../output/terminal.ts";
import {
  type WebSocketCloseInfo,
  WebSocketSession,
  type WebSocketSessionEvent,
} from "../stream/ws_session.ts";
import { parseAuthFlags } from "./auth_flags.ts";
import type { CliContext } from "./context.ts";
import { parseJsonText, parseUrl } from "../http/values.ts";
import type { WsFlagValues } from "./ws.ts";
import { parseTransportFlags } from "./transport_flags.ts";

const SUBPROTOCOL = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** What `dial ws` does, decided from its flags before anything is sent. */
export interface WsPlan {
  /** The handshake request. */
  spec: RequestSpec;
  /** Subprotocols offered (`--subprotocol`), each an HTTP token. */
  protocols: string[];
  /** Binary messages printed as hex or base64. */
  binary: BinaryEncoding;
}

/**
 * Checks the flags and builds the handshake request: nothing is sent.
 *
 * @param urlText the URL argument
 * @param flags the flag values
 * @param context the environment and stdin, for secret references
 * @returns the plan
 */
export async function wsPlan(
  urlText: string,
  flags: WsFlagValues,
  context: CliContext,
): Promise<WsPlan> {
  const url = parseUrl(urlText, ["ws:", "wss:", "http:", "https:"], true);
  for (const name of flags.subprotocol) {
    if (!SUBPROTOCOL.test(name)) {
      throw new UsageError(`Invalid --subprotocol "${name}": not an HTTP token`);
    }
  }
  const auth = await parseAuthFlags(flags, url, context);
  return {
    spec: { method: "GET", url, headers: auth.headers, auth: auth.auth },
    protocols: flags.subprotocol,
    binary: flags.hex ? "hex" : "base64",
  };
}

/** Why a `dial ws` session ends. */
type Ending = "max" | "idle" | "server" | "interrupted";

/**
 * Runs `dial ws`: the plan, the session, stdin lines out and messages in, a clean close.
 *
 * @param urlText the URL argument
 * @param flags the flag values
 * @param context exit code and Ctrl-C signal
 * @returns the exit code
 */
export async function runWs(
  urlText: string,
  flags: WsFlagValues,
  context: CliContext,
): Promise<number> {
  const plan = await wsPlan(urlText, flags, context);
  const err = context.stderr;
  // Timestamps and arrows only when a person both types and reads.
  const interactive = context.stdin.isTerminal && context.stdout.isTerminal;
  const prompt = interactive && err.isTerminal;
  const session = await openSession(plan, flags, context);
  const done = Promise.withResolvers<Ending>();
  // Lines keep their order; received messages go through a bounded queue, and while it is full
  // the session stops reading the socket: TCP then slows the server down, and no message is
  // dropped. `dial ws URL | head -3` ends quietly, like --max-messages.
  const printer = new OrderedPrinter(context.stdout, {
    onReaderGone: () => done.resolve("max"),
    ...(prompt
      ? { around: { before: () => err.write("\r\x1b[K"), after: () => err.write("> ") } }
      : {}),
  });
  const idle = idleTimer(flags.wait, () => done.resolve("idle"));
  session.events.subscribe(messagePrinter(plan, session, printer, {
    context,
    interactive,
    done,
    received: () => idle.arm(),
    ...(flags.maxMessages !== undefined ? { maxMessages: flags.maxMessages } : {}),
  }));

  await session.connect();
  if (flags.verbose || interactive) {
    const chosen = session.protocol ? `, subprotocol "${session.protocol}"` : "";
    await printer.print(() =>
      err.write(`Connected to ${plan.spec.url.host}${shown(err, chosen)}\n`)
    );
  }
  const onAbort = () => done.resolve("interrupted");
  context.signal.addEventListener("abort", onAbort, { once: true });
  const print = (write: () => Promise<void>) => printer.print(write);
  pumpStdin(session, context, {
    binary: flags.binary,
    json: flags.json,
    interactive,
    prompt,
    print,
  })
    .then(() => idle.stdinEnded(), (error) => done.reject(error));
  let reason: Ending;
  try {
    reason = await done.promise;
  } catch (error) {
    await session.close(1000);
    await printer.finish();
    throw error;
  } finally {
    idle.clear();
    context.signal.removeEventListener("abort", onAbort);
  }
  return await closeSession(session, reason, printer, {
    context,
    host: plan.spec.url.host,
    tell: flags.verbose || interactive,
    prompt,
  });
}

/** Closes the session (unless the server did), says how it closed, and gives the exit code. */
async function closeSession(
  session: WebSocketSession,
  reason: Ending,
  printer: OrderedPrinter,
  how: { context: CliContext; host: string; tell: boolean; prompt: boolean },
): Promise<number> {
  const { context, host } = how;
  const err = context.stderr;
  const info = reason === "server" && session.state === "closed"
    ? await session.finished
    : await session.close(1000);
  await printer.finish();
  if (context.signal.aborted) return ExitCode.Interrupted;
  if (how.tell) {
    if (how.prompt) await err.write("\r\x1b[K");
    await err.write(`Closed: ${shown(err, describeClose(info))}\n`);
  }
  return closeOutcome(info, host);
}

/** The session the plan describes: subprotocols, the handshake's limit, keep-alive pings, `-v`. */
async function openSession(
  plan: WsPlan,
  flags: WsFlagValues,
  context: CliContext,
): Promise<WebSocketSession> {
  const { ping: pingMs, timeout: timeoutMs } = flags;
  const err = context.stderr;
  return new WebSocketSession(plan.spec, {
    protocols: plan.protocols,
    signal: context.signal,
    transport: await parseTransportFlags(flags, context, flags.verbose),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(pingMs !== undefined ? { keepAlive: { intervalMs: pingMs, data: flags.pingMessage } } : {}),
    ...(flags.verbose
      ? { onRequest: (request) => void err.write(formatRequestHead(request, "none", err)) }
      : {}),
  });
}

/** `--wait`: once stdin has ended, the session ends after this long without a message. */
function idleTimer(waitMs: number, expire: () => void) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ended = false;
  const arm = () => {
    clearTimeout(timer);
    if (ended) timer = setTimeout(expire, waitMs);
  };
  return {
    arm,
    stdinEnded: () => {
      ended = true;
      arm();
    },
    clear: () => clearTimeout(timer),
  };
}

/** What the message printer needs besides the plan, the session and the output. */
interface MessagePrinterOptions {
  context: CliContext;
  interactive: boolean;
  /** Resolved when the session should end. */
  done: PromiseWithResolvers<Ending>;
  /** Called for each message received (the idle timer starts again). */
  received(): void;
  /** End after this many received messages (`--max-messages`). */
  maxMessages?: number;
}

/** Prints each message (received ones, and sent ones when a person types), pausing the session
 * while the output queue is full. */
function messagePrinter(
  plan: WsPlan,
  session: WebSocketSession,
  printer: OrderedPrinter,
  options: MessagePrinterOptions,
): (event: WebSocketSessionEvent) => void {
  const out = options.context.stdout;
  const { interactive, done, maxMessages } = options;
  let received = 0;
  return (event) => {
    if (event.type === "close") {
      done.resolve("server");
      return;
    }
    if (event.type !== "message") return;
    if (event.direction === "out" && !interactive) return;
    if (maxMessages !== undefined && received >= maxMessages) return;
    // On a terminal, control characters from the server are shown escaped.
    const message = out.isTerminal && typeof event.data === "string"
      ? { ...event, data: escapeControls(event.data) }
      : event;
    printer.writer.push(
      formatMessage(message, { interactive, color: out.color, binary: plan.binary }),
    );
    const failure = printer.checkFailure();
    if (failure !== undefined) done.reject(failure);
    if (printer.writer.full) {
      session.pause();
      void printer.writer.ready()?.then(() => session.resume());
    }
    if (event.direction === "in") {
      received++;
      if (maxMessages !== undefined && received >= maxMessages) done.resolve("max");
      options.received();
    }
  };
}

function describeClose(info: WebSocketCloseInfo): string {
  const who = info.by === "client" ? "by dial" : "by the server";
  return `code ${info.code}${info.reason ? ` "${info.reason}"` : ""} ${who}`;
}

/** A close by the server with anything but 1000/1001 is an error carrying code and reason. */
function closeOutcome(info: WebSocketCloseInfo, host: string): number {
  if (info.by === "client" || info.code === 1000 || info.code === 1001) return ExitCode.OK;
  const reason = info.reason ? `: ${info.reason}` : "";
  if (info.code === 1006) {
    throw new TransportError(
      `WebSocket connection to ${host} closed abnormally (code 1006, no close frame)${reason}`,
    );
  }
  throw new DialError(
    `WebSocket closed by ${host} with code ${info.code}${reason}`,
    ErrorCode.WebSocketClose,
  );
}

interface PumpOptions {
  binary: boolean;
  json: boolean;
  interactive: boolean;
  prompt: boolean;
  print: (write: () => Promise<void>) => Promise<void>;
}

/** Sends stdin: all of it as one binary message, or each line as a text message. */
async function pumpStdin(
  session: WebSocketSession,
  context: CliContext,
  options: PumpOptions,
): Promise<void> {
  // A credential read stdin (e.g. -B @-): there are no messages to send.
  if (context.stdinClaimedBy) return;
  if (options.binary) {
    const bytes = new Uint8Array(await new Response(context.stdin.readable).arrayBuffer());
    if (session.state === "open") session.send(bytes);
    return;
  }
  const err = context.stderr;
  if (options.prompt) await options.print(() => err.write("> "));
  let lineNumber = 0;
  for await (const line of readLines(context.stdin.readable)) {
    lineNumber++;
    if (session.state !== "open") return;
    if (options.interactive && line.trim() === "") {
      if (options.prompt) await options.print(() => err.write("> "));
      continue;
    }
    if (options.json) {
      try {
        parseJsonText(line, `JSON on stdin line ${lineNumber}`);
      } catch (error) {
        const message = (error as Error).message;
        if (!options.interactive) {
          throw new DialError(message, ErrorCode.InvalidJson, {
            hint: "the lines before it were sent; --json checks each line separately",
          });
        }
        await options.print(async () => {
          await warn(err, `${message} (not sent)`);
          if (options.prompt) await err.write("> ");
        });
        continue;
      }
    }
    // The message event prints the line and the next prompt.
    session.send(line);
  }
}

/**
 * Splits a byte stream into lines (LF or CRLF), UTF-8 decoded; a last line without a
 * newline counts.
 *
 * @param stream the bytes
 * @returns the lines, without their ends
 */
export async function* readLines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  let pending = "";
  for await (const text of stream.pipeThrough(new TextDecoderStream())) {
    pending += text;
    let newline: number;
    while ((newline = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      yield line.endsWith("\r") ? line.slice(0, -1) : line;
    }
  }
  if (pending !== "") yield pending.endsWith("\r") ? pending.slice(0, -1) : pending;
}
