// The request-file model of `dial grpc … --save`: the target as JetBrains writes it (grpcs://
// for TLS, none for --plaintext), credentials as variables, no HTTP-only directives.
import assert from "node:assert/strict";
import { grpcRequestModel, saveGrpcRequest } from "../../../src/cli/grpc_save.ts";
import type { GrpcFlagValues } from "../../../src/cli/grpc.ts";
import { Secret } from "../../../src/secret.ts";
import { parseHttpFile } from "../../../src/files/parse_http_file.ts";
import { parseGrpcTarget } from "../../../src/grpc/grpc_target.ts";

const FLAGS = { proto: [], importPath: [], header: [] } as unknown as GrpcFlagValues;

Deno.test("grpc --save model: grpcs:// for TLS, host:port for --plaintext, Basic credentials as a variable, read back to the same target", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const tls = {
      url: new URL("https://[::1]:8443"),
      target: "[::1]:8443",
      headers: [],
      auth: {
        authorization: { kind: "basic" as const, username: "ann", password: new Secret("pw") },
        queryKeys: [],
      },
    };
    const built = grpcRequestModel(tls, { ...FLAGS, auth: "ann:pw", name: "tls" }, `${dir}/a.http`);
    assert.deepEqual(built.secrets, { tls_password: "pw" });
    await saveGrpcRequest(built, tls, "greet.v1.Greeter/SayHello", `${dir}/a.http`);
    const plain = { ...tls, url: new URL("http://localhost:50051"), target: "localhost:50051" };
    const second = grpcRequestModel(plain, { ...FLAGS, data: '{"name":"bo"}' }, `${dir}/a.http`);
    await saveGrpcRequest(second, plain, "greet.v1.Greeter/SayHello", `${dir}/a.http`);
    const file = parseHttpFile(await Deno.readTextFile(`${dir}/a.http`));
    assert.deepEqual(file.requests.map((r) => [r.method, r.url, r.directives.map((d) => d.name)]), [
      ["GRPC", "grpcs://[::1]:8443/greet.v1.Greeter/SayHello", ["name"]],
      ["GRPC", "localhost:50051/greet.v1.Greeter/SayHello", []],
    ]);
    assert.equal(file.requests[0]!.headers[0]!.value, "Basic ann {{tls_password}}");
    assert.equal(parseGrpcTarget(file.requests[0]!.url).url.href, "https://[::1]:8443/");
    assert.equal(parseGrpcTarget(file.requests[1]!.url).url.href, "http://localhost:50051/");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
