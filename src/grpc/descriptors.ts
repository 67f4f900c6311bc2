/**
 * Descriptors as servers and `.proto` parsers hand them over, made into one registry of
 * services and message types (`@bufbuild/protobuf`), which encodes, decodes and maps to and
 * from the proto3 JSON form.
 *
 * Servers built on `@grpc/reflection` (and `.proto` files read by protobufjs) describe files
 * loosely: file names by package, no dependency list, type names relative to their scope and
 * no `json_name`. protoc and the registry expect fully qualified names (`.pkg.Type`), listed
 * dependencies, files in dependency order and JSON names, so {@link registryOf} completes them
 * first, by the scoping rules of the protobuf language.
 * @module
 * @see https://protobuf.dev/reference/protobuf/proto3-spec/ (type names and scope)
 */
import { createFileRegistry, type FileRegistry } from "@bufbuild/protobuf";
import * as wkt from "@bufbuild/protobuf/wkt";
import type { DescriptorProto, FileDescriptorProto } from "@bufbuild/protobuf/wkt";

/** The well-known types, for files that use them without sending them along. */
const WELL_KNOWN = [
  wkt.file_google_protobuf_any,
  wkt.file_google_protobuf_api,
  wkt.file_google_protobuf_duration,
  wkt.file_google_protobuf_empty,
  wkt.file_google_protobuf_field_mask,
  wkt.file_google_protobuf_source_context,
  wkt.file_google_protobuf_struct,
  wkt.file_google_protobuf_timestamp,
  wkt.file_google_protobuf_type,
  wkt.file_google_protobuf_wrappers,
];

/**
 * The lowerCamelCase JSON name of a field, as protoc derives it.
 *
 * @param name the field's name in the `.proto` file
 * @returns its JSON name
 */
export function jsonNameOf(name: string): string {
  return name.replace(/_+([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/**
 * Builds one registry from file descriptors, completing loose ones (see the module's notes).
 *
 * @param files file descriptors, in any order; they are changed in place
 * @returns the registry of their services and types
 * @throws {Error} when a type a file uses is described nowhere
 */
export function registryOf(files: FileDescriptorProto[]): FileRegistry {
  const given = new Set(files.map((f) => f.name));
  const all = [...files, ...WELL_KNOWN.filter((w) => !given.has(w.name)).map((w) => w.proto)];
  const owner = new Map<string, FileDescriptorProto>();
  const index = (file: FileDescriptorProto, scope: string, messages: DescriptorProto[]) => {
    for (const message of messages) {
      const name = `${scope}.${message.name}`;
      owner.set(name, file);
      for (const e of message.enumType) owner.set(`${name}.${e.name}`, file);
      index(file, name, message.nestedType);
    }
  };
  for (const file of all) {
    const scope = file.package ? `.${file.package}` : "";
    for (const e of file.enumType) owner.set(`${scope}.${e.name}`, file);
    index(file, scope, file.messageType);
  }
  // The innermost scope that defines the name wins, as in protoc.
  const resolve = (scope: string, name: string): string => {
    if (name.startsWith(".")) return name;
    const parts = scope.split(".");
    for (let i = parts.length; i >= 1; i--) {
      const candidate = [...parts.slice(0, i), name].join(".");
      const qualified = candidate.startsWith(".") ? candidate : `.${candidate}`;
      if (owner.has(qualified)) return qualified;
    }
    return `.${name}`;
  };
  for (const file of files) {
    const scope = file.package ? `.${file.package}` : "";
    const deps = new Set(file.dependency);
    const fix = (within: string, name: string): string => {
      const qualified = resolve(within, name);
      const other = owner.get(qualified);
      if (other && other !== file) deps.add(other.name);
      return qualified;
    };
    const fixMessages = (within: string, messages: DescriptorProto[]) => {
      for (const message of messages) {
        const name = `${within}.${message.name}`;
        for (const field of message.field) {
          if (field.typeName) field.typeName = fix(name, field.typeName);
          if (!field.jsonName) field.jsonName = jsonNameOf(field.name);
        }
        fixMessages(name, message.nestedType);
      }
    };
    fixMessages(scope, file.messageType);
    for (const service of file.service) {
      for (const method of service.method) {
        method.inputType = fix(scope, method.inputType);
        method.outputType = fix(scope, method.outputType);
      }
    }
    file.dependency = [...deps];
  }
  const byName = new Map(all.map((f) => [f.name, f]));
  const ordered: FileDescriptorProto[] = [];
  const seen = new Set<string>();
  const visit = (file: FileDescriptorProto) => {
    if (seen.has(file.name)) return;
    seen.add(file.name);
    for (const dep of file.dependency) {
      const found = byName.get(dep);
      if (found) visit(found);
    }
    ordered.push(file);
  };
  files.forEach(visit);
  const built = new Map<string, FileRegistry>();
  const registries: FileRegistry[] = [];
  for (const file of ordered) {
    const registry = createFileRegistry(file, (name) => {
      const dep = built.get(name)?.getFile(name);
      if (dep) return dep;
      return WELL_KNOWN.find((w) => w.name === name);
    });
    built.set(file.name, registry);
    registries.push(registry);
  }
  return createFileRegistry(...registries);
}
