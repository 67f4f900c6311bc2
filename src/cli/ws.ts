/**
 * `dial ws <url>`: flags only; the implementation is loaded when the command runs.
 * @module
 */
import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import { withAuthFlags } from "./auth_flags.ts";
import type { CliContext } from "./context.ts";
import { collect } from "./values.ts";
import type { WsFlagValues } from "./ws_run.ts";

const EXAMPLES = `
Examples:
  echo '{"op":"hello"}' | dial ws wss://echo.example.com/socket --json
  dial ws wss://api.example.com/live -B "$TOKEN" --subprotocol graphql-transport-ws
  dial ws ws://localhost:8080/feed -K api_key=abc123 --max-messages 10 < /dev/null
  dial ws wss://api.example.com/chat              interactive on a terminal (Ctrl-D ends)
  dial ws wss://api.example.com/bin --binary < frame.bin --hex

Each stdin line is one text message; each message received is one stdout line (binary as
base64:… or, with --hex, hex:…). When stdin ends, dial waits until no message has arrived
for --wait seconds, then closes with code 1000.
Exit codes: 0 ok, 2 usage, 3/4/5 handshake refused with a 3xx/4xx/5xx status, 7 network
or abnormal close, 8 timeout, 9 auth, 130 interrupted.`;

/**
 * @param context shared exit code and Ctrl-C signal
 * @returns the `ws` command
 */
export function wsCommand(context: CliContext) {
  const command = new Command("ws")
    .description("Talk to a WebSocket endpoint: stdin lines out, messages in")
    .argument("<url>", "ws:, wss:, http: or https: URL");
  const withAuth = withAuthFlags(command);
  // Declared on an untyped view, as in withAuthFlags: chained generic .option() types make
  // deno check take minutes; the result type is spelled out once instead.
  (withAuth as unknown as CommandUnknownOpts)
    .option("--subprotocol <name>", "offer a subprotocol (repeatable)", collect, [])
    .option("--binary", "send all of stdin as one binary message")
    .option("--json", "check that each stdin line is JSON before sending it")
    .option("--hex", "print binary messages as hex:… instead of base64:…")
    .option("--wait <seconds>", "after stdin ends, wait this long for more messages", "1")
    .option("--ping <seconds>", "keep-alive: send --ping-message every N seconds")
    .option("--ping-message <text>", "the keep-alive text message", "ping")
    .option("--max-messages <n>", "exit after N messages received")
    .option("--timeout <seconds>", "limit the handshake")
    .option("-v, --verbose", "print the handshake and close details to stderr (secrets redacted)");
  return (withAuth as unknown as Command<[string], WsFlagValues>)
    .addHelpText("after", EXAMPLES)
    .action(async (url, flags) => {
      const { runWs } = await import("./ws_run.ts");
      context.exitCode = await runWs(url, flags, context);
    });
}
