/**
 * `dial grpc`: the declaration only; the implementation (and the gRPC stack) is loaded when
 * the command runs.
 * @module
 */
import { AUTH_CONFLICTS, AUTH_FLAGS } from "./auth_flags.ts";
import { TRANSPORT_FLAGS } from "./transport_flags.ts";
import { lazy } from "./lazy.ts";
import { command, flag, flags, type FlagValues } from "./declare.ts";

const EPILOG = `
Examples:
  dial grpc api.example.com:8443 list
  dial grpc api.example.com:8443 describe greet.v1.Greeter
  dial grpc api.example.com:8443 greet.v1.Greeter/SayHello -d '{"name":"ann"}' -B @env:TOKEN
  dial grpc --plaintext localhost:50051 greet.v1.Greeter/StreamHellos -d @request.json
  cat requests.jsonl | dial grpc --plaintext localhost:50051 greet.v1.Greeter/Chat -d @-
  dial grpc --proto greeter.proto --import-path protos/ localhost:50051 greet.v1.Greeter/SayHello
  dial grpc localhost:50051 greet.v1.Greeter/SayHello -d '{"name":"ann"}' --save api.http --name hello

Services and types come from server reflection (v1, then v1alpha), or from --proto files.
Replies print in the proto3 JSON mapping, one document per line as they arrive; -d @- sends
each JSON document from stdin as soon as it is read (streaming methods).
Exit codes: 0 ok, 2 usage (nothing sent), 6/7 network, 35/60 TLS handshake/certificate,
8 deadline (-m, DEADLINE_EXCEEDED), 9 auth, 64 + the gRPC status code for any other status
(69 NOT_FOUND, 80 UNAUTHENTICATED …).`;

/** HTTP's ways to authenticate that gRPC has no use for: a challenge, a signature, a query. */
const NOT_GRPC = new Set(["digest", "aws-sigv4", "aws-session-token", "api-key-query"]);

/** The flags of `dial grpc`. */
export const GRPC_FLAGS = flags([
  ...AUTH_FLAGS.filter((flag) => !NOT_GRPC.has(flag.long)),
  ...TRANSPORT_FLAGS,
  flag.value(
    "data",
    "json|@file|@-",
    "the request message(s) as JSON; several documents for client and bidi streaming",
    { short: "d" },
  ),
  flag.value(
    "proto",
    "file",
    "describe services with this .proto file instead of reflection (repeatable)",
    { file: true, repeatable: true },
  ),
  flag.value(
    "import-path",
    "dir",
    "look up the imports of --proto files in this folder (repeatable)",
    { file: true, repeatable: true },
  ),
  { long: "plaintext", help: "speak HTTP/2 without TLS (h2c)" },
  flag.seconds("max-time", "the call's deadline (sent to the server as grpc-timeout)", {
    short: "m",
  }),
  flag.verbose("print the metadata sent, the response headers and trailers to stderr"),
  flag.value(
    "save",
    "file.http",
    "also append this call to a .http file as a GRPC request (secrets go to its private env file)",
    { file: true },
  ),
  { long: "name", value: "name", help: "with --save: the request's name (# @name)" },
]);

/** The flag values of `dial grpc`. */
export type GrpcFlagValues = FlagValues<typeof GRPC_FLAGS>;

/** `dial grpc`. */
export const grpcCommand = command({
  name: "grpc",
  summary: "Call gRPC methods; list and describe services by reflection or .proto files",
  usage: "[flags] HOST:PORT (list [SERVICE] | describe [SYMBOL] | package.Service/Method)\n" +
    "       dial grpc --proto FILE.proto [flags] (list [SERVICE] | describe [SYMBOL])",
  args: [{
    name: "words",
    variadic: true,
    help: "HOST:PORT, then list, describe or a method",
  }],
  flags: GRPC_FLAGS,
  conflicts: [{ flags: ["plaintext", "insecure"] }, ...AUTH_CONFLICTS],
  epilog: EPILOG,
  run: async ({ args, flags }, context) =>
    (await lazy.grpcRun()).runGrpc(args.words, flags, context),
});
