/**
 * The services of a server (or of `.proto` files) as a list to pick from, each method with a
 * template of its request message in the proto3 JSON form: every field of the message with its
 * default value (`""`, `0`, `"0"` for 64-bit integers, `false`, the enum's zero value by name,
 * `[]`, `{}`), nested messages filled in the same way a few levels deep (members of a oneof
 * left out). The UI's gRPC tab shows it.
 * @module
 */
import {
  create,
  type DescMessage,
  type JsonObject,
  type JsonValue,
  toJson,
} from "@bufbuild/protobuf";
import type { DescriptorSource } from "./schema.ts";

/** A method as the picker lists it. */
export interface MethodEntry {
  /** `package.Service/Method`. */
  name: string;
  /** `unary`, `server_streaming`, `client_streaming` or `bidi_streaming`. */
  kind: string;
  /** The request message's full name. */
  input: string;
  /** The reply message's full name. */
  output: string;
  /** The request message with every field at its default, as pretty JSON text. */
  template: string;
}

/** How deep nested messages are filled in (a recursive type ends with `{}`). */
const DEPTH = 3;

/**
 * A request message with every field at its default.
 *
 * @param desc the message type
 * @param depth how many more levels of nested messages to fill in
 * @returns the message in the proto3 JSON form
 */
export function messageTemplate(desc: DescMessage, depth = DEPTH): JsonValue {
  const json = toJson(desc, create(desc), { alwaysEmitImplicit: true });
  // A well-known type's JSON form is not an object of its fields (Timestamp is a string).
  if (json === null || typeof json !== "object" || Array.isArray(json)) return json;
  const out: JsonObject = { ...json };
  for (const field of desc.fields) {
    // A member of a oneof stays out: a message holds one of them at most.
    if (field.fieldKind !== "message" || field.oneof || depth === 0 || field.jsonName in out) {
      continue;
    }
    out[field.jsonName] = messageTemplate(field.message, depth - 1);
  }
  return out;
}

/**
 * Every method of every service of a source.
 *
 * @param source reflection or `.proto` files
 * @returns the methods, by service name and then as declared
 * @throws {UsageError} when the server offers no reflection
 * @throws {GrpcStatusError} when reflection fails with a status
 */
export async function listMethods(source: DescriptorSource): Promise<MethodEntry[]> {
  const entries: MethodEntry[] = [];
  for (const name of await source.services()) {
    const service = (await source.registryFor(name))?.getService(name);
    for (const method of service?.methods ?? []) {
      entries.push({
        name: `${service!.typeName}/${method.name}`,
        kind: method.methodKind,
        input: method.input.typeName,
        output: method.output.typeName,
        template: JSON.stringify(messageTemplate(method.input), null, 2),
      });
    }
  }
  return entries;
}
