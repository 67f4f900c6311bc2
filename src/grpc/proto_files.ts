/**
 * `.proto` files read with protobufjs (the parser behind `@grpc/proto-loader`) and handed on as
 * file descriptors, for servers without reflection. Loaded only when `--proto` is given.
 * @module
 * @see https://protobuf.dev/reference/protobuf/proto3-spec/
 */
import * as fs from "node:fs";
import protobuf from "protobufjs";
// Adds Root#toDescriptor.
import "protobufjs/ext/descriptor/index.js";
import { fromBinary } from "@bufbuild/protobuf";
import { type FileDescriptorProto, FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { UsageError } from "../errors/mod.ts";

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/**
 * Parses `.proto` files and the files they import.
 *
 * @param files the files named on the command line
 * @param importPaths folders that imports are looked up in, in order (as protoc's `-I`); the
 *   folder of each file comes last
 * @param options `check` is called with each file before it is read (the named files and
 *   every import found on disk) and throws to refuse one (a request file's paths are
 *   confined); `remedy` names where import folders are given (`include_dirs` in a request file)
 * @returns their file descriptors
 * @throws {UsageError} for a file or import that cannot be found or parsed, or that `check`
 *   refused
 */
export function readProtoFiles(
  files: readonly string[],
  importPaths: readonly string[],
  options: { check?: (path: string) => void; remedy?: "import_path" | "include_dirs" } = {},
): FileDescriptorProto[] {
  const check = options.check ?? (() => {});
  // protobufjs finds `fs` with an indirect require, which the bundled build does not have.
  protobuf.util.fs ??= fs;
  const root = new protobuf.Root();
  const missing: string[] = [];
  root.resolvePath = (origin: string, target: string) => {
    if (files.includes(target) && origin === "") return target;
    for (const dir of importPaths) {
      const path = `${dir.replace(/\/+$/, "")}/${target}`;
      if (isFile(path)) {
        check(path);
        return path;
      }
    }
    const beside = protobuf.util.path.resolve(origin, target);
    if (isFile(beside)) {
      check(beside);
      return beside;
    }
    // protobufjs knows google/protobuf/*.proto itself; any other name is not there.
    if (!target.startsWith("google/protobuf/")) missing.push(`"${target}"`);
    return beside;
  };
  for (const file of files) {
    if (!isFile(file)) {
      throw new UsageError(`Cannot read the .proto file "${file}": no such file`, {
        details: { path: file },
      });
    }
    check(file);
  }
  try {
    root.loadSync([...files], { keepCase: true });
    root.resolveAll();
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const why = error instanceof Error ? error.message : String(error);
    if (missing.length) {
      throw new UsageError(`Cannot find ${missing.join(", ")}, imported by the .proto files`, {
        remedy: { check: options.remedy ?? "import_path" },
        cause: error,
      });
    }
    throw new UsageError(`Cannot parse the .proto files: ${why}`, { cause: error });
  }
  const described = root as unknown as { toDescriptor(syntax: string): protobuf.Message };
  const set = described.toDescriptor("proto3");
  const bytes: Uint8Array = set.$type.encode(set).finish();
  return fromBinary(FileDescriptorSetSchema, bytes).file;
}
