import assert from "node:assert/strict";
import { create, fromJson, toJson } from "@bufbuild/protobuf";
import {
  FieldDescriptorProto_Label as Label,
  FieldDescriptorProto_Type as Type,
  FileDescriptorProtoSchema,
} from "@bufbuild/protobuf/wkt";
import { registryOf } from "../../../src/grpc/descriptors.ts";
import { jsonDocuments } from "../../../src/grpc/json_documents.ts";
import { requestMessage } from "../../../src/grpc/call.ts";
import { parseGrpcTarget } from "../../../src/grpc/grpc_target.ts";
import { UsageError } from "../../../src/errors/mod.ts";

async function documents(chunks: string[]) {
  const out: unknown[] = [];
  for await (
    const doc of jsonDocuments(
      (async function* () {
        yield* chunks;
      })(),
      "standard input",
    )
  ) out.push(doc);
  return out;
}

Deno.test("grpc json documents: one per line, concatenated, split anywhere across chunks", async () => {
  const text = '{"a":1}\n{"b":"}{\\""} {"c":[{"d":2}]}{}\n';
  const whole = await documents([text]);
  assert.deepEqual(whole, [{ a: 1 }, { b: '}{"' }, { c: [{ d: 2 }] }, {}]);
  for (let cut = 1; cut < text.length; cut++) {
    assert.deepEqual(await documents([text.slice(0, cut), text.slice(cut)]), whole, `cut ${cut}`);
  }
  assert.deepEqual(await documents([...text]), whole);
});

Deno.test("grpc json documents: a document that is not JSON, or not an object, is a usage error naming it", async () => {
  await assert.rejects(
    documents(['{"a":1}\n{"a":}']),
    /Invalid JSON in document 2 of standard input/,
  );
  await assert.rejects(
    documents(['{"a":1} 5']),
    /document 2 of standard input: a request is an object/,
  );
  await assert.rejects(documents(['{"a":']), UsageError);
});

/** Descriptors as @grpc/reflection sends them: named by package, relative type names, no dependencies, no JSON names. */
function looseFiles() {
  const field = (name: string, number: number, type: Type, typeName = "") => ({
    name,
    number,
    type,
    typeName,
    label: Label.OPTIONAL,
  });
  return [
    create(FileDescriptorProtoSchema, {
      name: "greet_v1.proto",
      package: "greet.v1",
      syntax: "proto3",
      messageType: [{
        name: "Reply",
        field: [
          field("big_number", 1, Type.INT64),
          field("mood", 2, Type.ENUM, "common.Mood"),
          field("inner", 3, Type.MESSAGE, "Reply.Inner"),
          field("at", 4, Type.MESSAGE, "google.protobuf.Timestamp"),
        ],
        nestedType: [{ name: "Inner", field: [field("snake_case_name", 1, Type.STRING)] }],
      }],
      service: [{ name: "G", method: [{ name: "M", inputType: "Reply", outputType: "Reply" }] }],
    }),
    create(FileDescriptorProtoSchema, {
      name: "common.proto",
      package: "common",
      syntax: "proto3",
      enumType: [{
        name: "Mood",
        value: [{ name: "NONE", number: 0 }, { name: "HAPPY", number: 1 }],
      }],
    }),
  ];
}

Deno.test("grpc descriptors: loose descriptors get qualified names, dependencies, order and JSON names", () => {
  const registry = registryOf(looseFiles());
  const reply = registry.getMessage("greet.v1.Reply");
  assert.ok(reply);
  assert.equal(registry.getService("greet.v1.G")?.methods[0]?.input.typeName, "greet.v1.Reply");
  const message = fromJson(reply, {
    bigNumber: "9007199254740993",
    mood: "HAPPY",
    inner: { snakeCaseName: "x" },
    at: "2024-01-02T03:04:05Z",
  });
  assert.deepEqual(toJson(reply, message), {
    bigNumber: "9007199254740993",
    mood: "HAPPY",
    inner: { snakeCaseName: "x" },
    at: "2024-01-02T03:04:05Z",
  });
});

Deno.test("grpc request: a value that does not fit names the field's path", () => {
  const reply = registryOf(looseFiles()).getMessage("greet.v1.Reply")!;
  assert.throws(() => requestMessage(reply, { inner: { snakeCaseNme: "x" } }), {
    message: /field "inner\.snakeCaseNme": .*key "snakeCaseNme" is unknown/,
  });
  assert.throws(() => requestMessage(reply, { at: "soon" }), { message: /field "at": / });
  assert.throws(() => requestMessage(reply, { mood: "SAD" }), { message: /field "mood": / });
});

Deno.test("grpc target: JetBrains' and httpyac's forms of a GRPC request line", () => {
  const plain = parseGrpcTarget("localhost:50051/greet.v1.Greeter/SayHello");
  assert.equal(plain.url.href, "http://localhost:50051/");
  assert.equal(plain.method, "greet.v1.Greeter/SayHello");
  assert.equal(parseGrpcTarget("grpcs://api.test:8443/a.B/C").url.href, "https://api.test:8443/");
  assert.equal(parseGrpcTarget("grpc://[::1]:9/a.B/C").url.href, "http://[::1]:9/");
  assert.throws(
    () => parseGrpcTarget("localhost:50051"),
    /write host:port\/package\.Service\/Method/,
  );
  assert.throws(() => parseGrpcTarget("localhost:1/NoService"), UsageError);
});
