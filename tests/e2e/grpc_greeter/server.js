/**
 * The greeter server of the gRPC tests, built on `@grpc/grpc-js` (the reference Node server)
 * with `@grpc/reflection`; run as a child process by `startGreeter()`. It prints one JSON line
 * when it is ready: `{"port":…,"tlsPort":…}`.
 *
 * Arguments: `--no-reflection` (a server that only `.proto` files describe), `--tls CERT KEY`
 * (also listen with TLS), `--grpc-tls CERT KEY` (grpc-js's own TLS server, for the canary).
 *
 * TLS: grpc-js's own TLS server (`ServerCredentials.createSsl`, through Deno's
 * `http2.createSecureServer`) answers the handshake with bytes that are not TLS under Deno
 * 2.9.6, so `--tls` puts `Deno.listenTls` (ALPN h2) in front of the plaintext server and copies
 * bytes both ways; tests/e2e/grpc_test.ts has the canary.
 *
 * Its packages are in a configuration of their own (`deno.json` beside it, run with
 * `--config`): `@grpc/grpc-js` brings protobufjs 7 and with it `@types/node`, whose Node types
 * would replace Deno's in the type check of every test (any package that refers to Node's types
 * would then find them); for the same reason it is JavaScript, outside the type check.
 * @module
 */
import { Buffer } from "node:buffer";
import * as grpc from "@grpc/grpc-js";
import * as loader from "@grpc/proto-loader";
import { ReflectionService } from "@grpc/reflection";

const PROTOS = new URL("../fixtures/grpc/protos/", import.meta.url).pathname;
const args = Deno.args;
const definition = loader.loadSync("greeter.proto", {
  includeDirs: [PROTOS],
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
});
const pkg = grpc.loadPackageDefinition(definition);
const server = new grpc.Server();
const seen = new Set();
if (args.includes("--v1alpha-only")) {
  // A server that offers only the older reflection API (grpc-go before 1.45, most Java ones).
  new ReflectionService(definition).addToServer({
    addService(service, implementation) {
      const path = Object.values(service)[0].path;
      if (path.includes(".v1alpha.")) server.addService(service, implementation);
    },
  });
} else if (!args.includes("--no-reflection")) {
  new ReflectionService(definition).addToServer(server);
}

const reply = (name, mood = "HAPPY") => ({
  message: `Hello ${name}`,
  big_number: "9007199254740993",
  mood,
  stamp: { seconds: "12", big_count: "18446744073709551615" },
  tags: ["a"],
});

server.addService(pkg.greet.v1.Greeter.service, {
  SayHello: (call, callback) => {
    call.sendMetadata(new grpc.Metadata({}));
    callback(null, reply(call.request.name, call.request.mood));
  },
  StreamHellos: (call) => {
    for (let i = 0; i < (call.request.times || 3); i++) {
      call.write(reply(`${call.request.name} ${i}`));
    }
    call.end();
  },
  CollectHellos: (call, callback) => {
    const names = [];
    call.on("data", (r) => names.push(r.name));
    call.on("end", () => callback(null, reply(names.join(","))));
  },
  // Answers each message as it comes: a client that waits for an answer before sending the
  // next message proves that dial sends as it reads.
  Chat: (call) => {
    call.on("data", (r) => call.write(reply(r.name)));
    call.on("end", () => call.end());
  },
  Missing: (_call, callback) =>
    callback({ code: grpc.status.NOT_FOUND, details: "no such greeting" }),
  // Never answers; ends when the client's deadline cancels the call.
  Slow: (call, callback) => {
    call.on("cancelled", () => callback({ code: grpc.status.CANCELLED }));
  },
  EchoShapes: (call, callback) => callback(null, call.request),
  OnlyFresh: (call, callback) => {
    const token = String(call.metadata.get("authorization")[0] ?? "");
    if (!token || seen.has(token)) {
      return callback({ code: grpc.status.UNAUTHENTICATED, details: "token revoked" });
    }
    seen.add(token);
    callback(null, reply(token.slice(0, 10)));
  },
  EchoMetadata: (call, callback) => {
    const authorization = call.metadata.get("authorization");
    if (!authorization.length) {
      return callback({ code: grpc.status.UNAUTHENTICATED, details: "authorization required" });
    }
    const trailer = new grpc.Metadata();
    trailer.set("x-seen-by", "greeter");
    const echo = Object.entries(call.metadata.getMap()).map(([k, v]) => `${k}=${v}`).sort();
    callback(null, reply(echo.join(";")), trailer);
  },
});

function bind(credentials) {
  return new Promise((resolve, reject) =>
    server.bindAsync(
      "127.0.0.1:0",
      credentials,
      (error, port) => error ? reject(error) : resolve(port),
    )
  );
}

const port = await bind(grpc.ServerCredentials.createInsecure());
let tlsPort;
const tlsAt = args.indexOf("--tls");
if (tlsAt >= 0) {
  const listener = Deno.listenTls({
    hostname: "127.0.0.1",
    port: 0,
    cert: Deno.readTextFileSync(args[tlsAt + 1]),
    key: Deno.readTextFileSync(args[tlsAt + 2]),
    alpnProtocols: ["h2"],
  });
  tlsPort = listener.addr.port;
  (async () => {
    for await (const conn of listener) {
      (async () => {
        const backend = await Deno.connect({ hostname: "127.0.0.1", port });
        await Promise.all([
          conn.readable.pipeTo(backend.writable).catch(() => {}),
          backend.readable.pipeTo(conn.writable).catch(() => {}),
        ]);
      })().catch(() => {});
    }
  })();
}
const grpcTlsAt = args.indexOf("--grpc-tls");
if (grpcTlsAt >= 0) {
  tlsPort = await bind(grpc.ServerCredentials.createSsl(null, [{
    cert_chain: Buffer.from(Deno.readFileSync(args[grpcTlsAt + 1])),
    private_key: Buffer.from(Deno.readFileSync(args[grpcTlsAt + 2])),
  }]));
}
// deno-lint-ignore no-console -- the ready line the test waits for
console.log(JSON.stringify({ port, tlsPort }));
