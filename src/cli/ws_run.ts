/**
 * The `dial ws` implementation: stdin lines out, messages in, a clean close.
 * @module
 */
import { DialError, ErrorCode, ExitCode, TransportError, UsageError } from "../errors/mod.ts";
import { formatRequestHead } from "../output/http.ts";
import { warn } from "../output/report.ts";
import { type BinaryEncoding, formatMessage } from "../output/stream.ts";
import { BoundedWriter } from "../output/bounded_writer.ts";
import { escapeControls, isBrokenPipe, shown } from "../output/terminal.ts";
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

/**
 * Runs `dial ws`.
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
  const url = parseUrl(urlText, ["ws:", "wss:", "http:", "https:"], true);
  for (const name of flags.subprotocol) {
    if (!SUBPROTOCOL.test(name)) {
      throw new UsageError(`Invalid --subprotocol "${name}": not an HTTP token`);
    }
  }
  const { wait: waitMs, ping: pingMs, maxMessages, timeout: timeoutMs } = flags;
  const auth = await parseAuthFlags(flags, url, context);

  const out = context.stdout;
  const err = context.stderr;
  // Timestamps and arrows only when a person both types and reads.
  const interactive = context.stdin.isTerminal && out.isTerminal;
  const binary: BinaryEncoding = flags.hex ? "hex" : "base64";
  const session = new WebSocketSession(
    { method: "GET", url, headers: auth.headers, auth: auth.auth },
    {
      protocols: flags.subprotocol,
      signal: context.signal,
      transport: await parseTransportFlags(flags, context, flags.verbose),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(pingMs !== undefined
        ? { keepAlive: { intervalMs: pingMs, data: flags.pingMessage } }
        : {}),
      ...(flags.verbose
        ? { onRequest: (request) => void err.write(formatRequestHead(request, "none", err)) }
        : {}),
    },
  );

  // Printing is chained so lines keep their order; received messages go through a bounded
  // queue, and while it is full the session stops reading the socket: TCP then slows the
  // server down, and no message is dropped.
  let printing = Promise.resolve();
  const done = Promise.withResolvers<"max" | "idle" | "server" | "interrupted">();
  const print = (write: () => Promise<void>) => {
    printing = printing.then(() => writer.flush()).then(write).catch((error) => {
      // `dial ws URL | head -3`: the reader has what it wanted; end like --max-messages.
      if (!isBrokenPipe(error)) throw error;
      done.resolve("max");
    });
    // Awaited at the end; until then a failed write must not count as unhandled.
    printing.catch(() => {});
    return printing;
  };
  const prompt = interactive && err.isTerminal;
  const writer = new BoundedWriter(out, {
    ...(prompt
      ? { around: { before: () => err.write("\r\x1b[K"), after: () => err.write("> ") } }
      : {}),
  });
  let received = 0;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  let stdinEnded = false;
  const armIdle = () => {
    clearTimeout(idleTimer);
    if (stdinEnded) idleTimer = setTimeout(() => done.resolve("idle"), waitMs);
  };
  session.events.subscribe((event: WebSocketSessionEvent) => {
    if (event.type === "message") {
      if (event.direction === "out" && !interactive) return;
      if (maxMessages !== undefined && received >= maxMessages) return;
      // On a terminal, control characters from the server are shown escaped.
      const shown = out.isTerminal && typeof event.data === "string"
        ? { ...event, data: escapeControls(event.data) }
        : event;
      writer.push(formatMessage(shown, { interactive, color: out.color, binary }));
      if (writer.failure !== undefined) {
        // `dial ws URL | head -3` ends quietly, like --max-messages.
        if (isBrokenPipe(writer.failure)) done.resolve("max");
        else done.reject(writer.failure);
      }
      if (writer.full) {
        session.pause();
        void writer.ready()?.then(() => session.resume());
      }
      if (event.direction === "in") {
        received++;
        if (maxMessages !== undefined && received >= maxMessages) done.resolve("max");
        armIdle();
      }
    } else if (event.type === "close") {
      done.resolve("server");
    }
  });

  await session.connect();
  if (flags.verbose || interactive) {
    const chosen = session.protocol ? `, subprotocol "${session.protocol}"` : "";
    await print(() => err.write(`Connected to ${url.host}${shown(err, chosen)}\n`));
  }
  const onAbort = () => done.resolve("interrupted");
  context.signal.addEventListener("abort", onAbort, { once: true });
  const pump = pumpStdin(session, context, {
    binary: flags.binary,
    json: flags.json,
    interactive,
    prompt,
    print,
  })
    .then(() => {
      stdinEnded = true;
      armIdle();
    }, (error) => {
      done.reject(error);
    });
  let reason: "max" | "idle" | "server" | "interrupted";
  try {
    reason = await done.promise;
  } catch (error) {
    await session.close(1000);
    await printing;
    await flushOutput(writer);
    throw error;
  } finally {
    clearTimeout(idleTimer);
    context.signal.removeEventListener("abort", onAbort);
  }
  void pump;
  const info = reason === "server" && session.state === "closed"
    ? await session.finished
    : await session.close(1000);
  await printing;
  await flushOutput(writer);
  if (context.signal.aborted) return ExitCode.Interrupted;
  if (flags.verbose || interactive) {
    if (prompt) await err.write("\r\x1b[K");
    const closed = describeClose(info);
    await err.write(`Closed: ${shown(err, closed)}\n`);
  }
  return closeOutcome(info, url.host);
}

/** Writes what is queued; a reader that went away (`| head`) is not an error. */
async function flushOutput(writer: BoundedWriter): Promise<void> {
  await writer.flush().catch((error) => {
    if (!isBrokenPipe(error)) throw error;
  });
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
