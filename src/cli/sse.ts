/**
 * `dial sse [METHOD] <url>`: the declaration only; the implementation is loaded when the
 * command runs.
 * @module
 */
import { AUTH_CONFLICTS, AUTH_FLAGS } from "./auth_flags.ts";
import { TRANSPORT_FLAGS } from "./transport_flags.ts";
import { DATA_FLAG, FORM_FLAG } from "./body_flags.ts";
import { lazy } from "./lazy.ts";
import { command, flag, flags, type FlagValues } from "./declare.ts";
import { FOLLOW_FLAG } from "./request.ts";

const EPILOG = `
Examples:
  dial sse https://api.example.com/events -B "$TOKEN"
  dial sse https://api.example.com/events --events --event update --max-events 5
  dial sse https://api.example.com/events --json               events as JSON lines
  dial sse POST https://api.example.com/v1/chat --json '{"stream":true}' --jsonl
  dial sse https://api.example.com/feed --last-event-id 41 --no-reconnect

Prints each event's data on its own line (--events: event, id and data; --json or --jsonl:
one JSON object per event; --json with a value is the JSON request body). When the stream
ends or breaks, dial reconnects after the server's retry: interval (default 3 s) with
Last-Event-ID and the credentials again. Network errors, 408, 429, 5xx, non-event-stream
responses and streams that end before any event are retried with backoff (at least
Retry-After, never sooner than 0.25 s), at most --max-retries times; any other status (401,
403, 404, 405, 410 …) ends at once.
Exit codes: 0 ok, 2 usage, 3/4/5 gave up on a 3xx/4xx/5xx status, 7 network, 8 --timeout
or --idle-timeout, 9 auth, 130 interrupted.`;

/** The flags of `dial sse`. */
export const SSE_FLAGS = flags([
  ...AUTH_FLAGS,
  ...TRANSPORT_FLAGS,
  DATA_FLAG,
  flag.value(
    "json",
    "json|@file|@-",
    "with a value: JSON request body; bare: print events as JSON lines",
    { optionalValue: true },
  ),
  FORM_FLAG,
  { long: "events", help: "print event name, id and data for each event" },
  { long: "jsonl", help: "print each event as one JSON object per line (also bare --json)" },
  flag.value("event", "name", "only events of this type (repeatable)", { repeatable: true }),
  { long: "max-events", value: "n", kind: "count", min: 1, help: "exit after N events" },
  flag.value("last-event-id", "id", "start from this event id (sent as Last-Event-ID)"),
  { long: "no-reconnect", help: "stop when the stream ends instead of reconnecting" },
  flag.seconds("reconnect-delay", "reconnection time until the server sends retry:", {
    default: "3",
  }),
  flag.count("max-retries", "failed attempts in a row before giving up", { default: "3" }),
  flag.seconds("timeout", "end the whole session after N seconds (exit 8)"),
  flag.seconds("idle-timeout", "exit 8 when no event or comment arrives for N seconds"),
  FOLLOW_FLAG,
  flag.verbose("print request and response heads and reconnections to stderr"),
]);

/** The flag values of `dial sse`. */
export type SseFlagValues = FlagValues<typeof SSE_FLAGS>;

/** `dial sse [METHOD] <url>`. */
export const sseCommand = command({
  name: "sse",
  summary: "Follow a server-sent event stream, reconnecting with Last-Event-ID",
  args: [
    { name: "method", help: "HTTP method (default GET, or POST with a body)" },
    { name: "url", help: "http(s) URL; no scheme means http://, :PORT/path means localhost" },
  ],
  flags: SSE_FLAGS,
  conflicts: [{ flags: ["events", "jsonl"] }, ...AUTH_CONFLICTS],
  epilog: EPILOG,
  run: async ({ args, flags }, context) =>
    (await lazy.sseRun()).runSse(args.method, args.url, flags, context),
});
