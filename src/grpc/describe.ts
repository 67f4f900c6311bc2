/**
 * `describe`: a service, method, message or enum written back in the `.proto` language, as
 * grpcurl shows them.
 * @module
 */
import type { DescEnum, DescField, DescMessage, DescMethod, DescService } from "@bufbuild/protobuf";
import type { Described } from "./schema.ts";

function rpc(method: DescMethod): string {
  const stream = (yes: boolean) => yes ? "stream " : "";
  const kind = method.methodKind;
  const input = `${
    stream(kind === "client_streaming" || kind === "bidi_streaming")
  }.${method.input.typeName}`;
  const output = `${
    stream(kind === "server_streaming" || kind === "bidi_streaming")
  }.${method.output.typeName}`;
  return `rpc ${method.name} ( ${input} ) returns ( ${output} );`;
}

function fieldType(field: DescField): string {
  switch (field.fieldKind) {
    case "scalar":
      return scalarName(field.proto.type);
    case "enum":
      return `.${field.enum.typeName}`;
    case "message":
      return `.${field.message.typeName}`;
    case "list":
      return field.listKind === "scalar"
        ? scalarName(field.proto.type)
        : `.${(field.listKind === "enum" ? field.enum : field.message).typeName}`;
    case "map": {
      const value = field.mapKind === "scalar"
        ? scalarName(field.scalar)
        : `.${(field.mapKind === "enum" ? field.enum : field.message).typeName}`;
      return `map<${scalarName(field.mapKey)}, ${value}>`;
    }
  }
}

const SCALARS: Record<number, string> = {
  1: "double",
  2: "float",
  3: "int64",
  4: "uint64",
  5: "int32",
  6: "fixed64",
  7: "fixed32",
  8: "bool",
  9: "string",
  12: "bytes",
  13: "uint32",
  15: "sfixed32",
  16: "sfixed64",
  17: "sint32",
  18: "sint64",
};

function scalarName(type: number): string {
  return SCALARS[type] ?? "bytes";
}

function message(desc: DescMessage, indent = ""): string {
  const lines = [`${indent}message ${desc.name} {`];
  for (const field of desc.fields) {
    const label = field.fieldKind === "list"
      ? "repeated "
      : field.proto.proto3Optional
      ? "optional "
      : "";
    const oneof = field.oneof && !field.proto.proto3Optional ? ` // oneof ${field.oneof.name}` : "";
    lines.push(
      `${indent}  ${label}${fieldType(field)} ${field.name} = ${field.number}; ${
        field.jsonName !== field.name ? `// JSON: ${field.jsonName}` : ""
      }${oneof}`.trimEnd(),
    );
  }
  for (const nested of desc.nestedMessages) lines.push(message(nested, `${indent}  `));
  for (const nested of desc.nestedEnums) lines.push(enumText(nested, `${indent}  `));
  lines.push(`${indent}}`);
  return lines.join("\n");
}

function enumText(desc: DescEnum, indent = ""): string {
  return [
    `${indent}enum ${desc.name} {`,
    ...desc.values.map((v) => `${indent}  ${v.name} = ${v.number};`),
    `${indent}}`,
  ].join("\n");
}

function service(desc: DescService): string {
  return [`service ${desc.name} {`, ...desc.methods.map((m) => `  ${rpc(m)}`), "}"].join("\n");
}

/**
 * @param found what `describe` found
 * @returns its description: a first line saying what it is, then its definition
 */
export function describe(found: Described): string {
  switch (found.kind) {
    case "service":
      return `${found.desc.typeName} is a service:\n${service(found.desc)}\n`;
    case "method":
      return `${found.desc.parent.typeName}.${found.desc.name} is a method:\n${rpc(found.desc)}\n`;
    case "message":
      return `${found.desc.typeName} is a message:\n${message(found.desc)}\n`;
    case "enum":
      return `${found.desc.typeName} is an enum:\n${enumText(found.desc)}\n`;
  }
}
