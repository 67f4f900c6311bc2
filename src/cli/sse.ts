/**
 * `dial sse [METHOD] <url>`: flags only; the implementation is loaded when the command runs.
 * @module
 */
import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import { withAuthFlags } from "./auth_flags.ts";
import { withBodyFlags } from "./body_flags.ts";
import type { CliContext } from "./context.ts";
import type { SseFlagValues } from "./sse_run.ts";
import { collect } from "./values.ts";

const EXAMPLES = `
Examples:
  dial sse https://api.example.com/events -B "$TOKEN"
  dial sse https://api.example.com/events --events --event update --max-events 5
  dial sse https://api.example.com/events --json               events as JSON lines
  dial sse POST https://api.example.com/v1/chat --json '{"stream":true}' --jsonl
  dial sse https://api.example.com/feed --last-event-id 41 --no-reconnect

Prints each event's data on its own line (--events: event, id and data; --json or --jsonl:
one JSON object per event; --json with a value is the JSON request body). When the stream ends or breaks, dial reconnects after the server's
retry: interval (default 3 s) with Last-Event-ID and the credentials again. A non-2xx
status or a non-event-stream response is retried with backoff, at most --max-retries times.
Exit codes: 0 ok, 2 usage, 3/4/5 gave up on a 3xx/4xx/5xx status, 7 network, 9 auth,
130 interrupted.`;

/**
 * @param context shared exit code and Ctrl-C signal
 * @returns the `sse` command
 */
export function sseCommand(context: CliContext) {
  const command = new Command("sse")
    .description("Follow a server-sent event stream, reconnecting with Last-Event-ID")
    .argument("[method]", "HTTP method (default GET, or POST with a body)")
    .argument("[url]", "absolute http(s) URL");
  const withBody = withBodyFlags(withAuthFlags(command));
  // The issue gives --json two jobs: a JSON body (with a value, as for requests) and JSON
  // output (bare). Commander's Option fields `required`/`optional` are public.
  const json = withBody.options.find((option) => option.long === "--json");
  if (json) {
    json.required = false;
    json.optional = true;
    json.flags = "--json [json|@file|@->]";
    json.description = "with a value: JSON request body; bare: print events as JSON lines";
  }
  // Declared on an untyped view, as in withAuthFlags: chained generic .option() types make
  // deno check take minutes; the result type is spelled out once instead.
  (withBody as unknown as CommandUnknownOpts)
    .option("--events", "print event name, id and data for each event")
    .option("--jsonl", "print each event as one JSON object per line (also bare --json)")
    .option("--event <name>", "only events of this type (repeatable)", collect, [])
    .option("--max-events <n>", "exit after N events")
    .option("--last-event-id <id>", "start from this event id (sent as Last-Event-ID)")
    .option("--no-reconnect", "stop when the stream ends instead of reconnecting")
    .option("--reconnect-delay <seconds>", "reconnection time until the server sends retry:", "3")
    .option("--max-retries <n>", "failed attempts in a row before giving up", "3")
    .option("-L, --follow", "follow redirects (credentials never cross origins)")
    .option("-v, --verbose", "print request and response heads and reconnections to stderr");
  return (withBody as unknown as Command<[string | undefined, string | undefined], SseFlagValues>)
    .addHelpText("after", EXAMPLES)
    .action(async (first, second, flags) => {
      const { runSse } = await import("./sse_run.ts");
      context.exitCode = await runSse(first, second, flags, context);
    });
}
