/**
 * `dial ws <url>`: the declaration only; the implementation is loaded when the command runs.
 * @module
 */
import { AUTH_CONFLICTS, AUTH_FLAGS } from "./auth_flags.ts";
import { TRANSPORT_FLAGS } from "./transport_flags.ts";
import { lazy } from "./lazy.ts";
import { command, flag, flags, type FlagValues } from "./declare.ts";

const EPILOG = `
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

/** The flags of `dial ws`. */
export const WS_FLAGS = flags([
  ...AUTH_FLAGS,
  ...TRANSPORT_FLAGS,
  flag.value("subprotocol", "name", "offer a subprotocol (repeatable)", { repeatable: true }),
  { long: "binary", help: "send all of stdin as one binary message" },
  { long: "json", help: "check that each stdin line is JSON before sending it" },
  { long: "hex", help: "print binary messages as hex:… instead of base64:…" },
  flag.seconds("wait", "after stdin ends, wait this long for more messages", { default: "1" }),
  flag.seconds("ping", "keep-alive: send --ping-message every N seconds"),
  flag.value("ping-message", "text", "the keep-alive text message", { default: "ping" }),
  flag.count("max-messages", "exit after N messages received", { min: 1 }),
  { long: "timeout", value: "seconds", kind: "seconds", help: "limit the handshake" },
  flag.verbose("print the handshake and close details to stderr (secrets redacted)"),
]);

/** The flag values of `dial ws`. */
export type WsFlagValues = FlagValues<typeof WS_FLAGS>;

/** `dial ws <url>`. */
export const wsCommand = command({
  name: "ws",
  summary: "Talk to a WebSocket endpoint: stdin lines out, messages in",
  args: [{ name: "url", required: true, help: "ws:, wss:, http: or https: URL" }],
  flags: WS_FLAGS,
  conflicts: [{ flags: ["binary", "json"] }, ...AUTH_CONFLICTS],
  epilog: EPILOG,
  run: async ({ args, flags }, context) => (await lazy.wsRun()).runWs(args.url, flags, context),
});
