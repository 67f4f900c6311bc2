/**
 * Where the descriptors of a call come from, reflection or `.proto` files, and the lookup of
 * services, methods and types by name, with the near names when a name is unknown.
 * @module
 */
import { editDistance } from "../edit_distance.ts";
import type {
  DescEnum,
  DescMessage,
  DescMethod,
  DescService,
  FileRegistry,
} from "@bufbuild/protobuf";
import { UsageError } from "../errors/mod.ts";
import { statusError } from "./call.ts";
import { registryOf } from "./descriptors.ts";
import { splitMethodName } from "./grpc_target.ts";
import { type ReflectionClient, reflectionFailure } from "./reflection.ts";

/** The descriptors a call can use. */
export interface DescriptorSource {
  /** @returns the fully qualified names of the services, sorted */
  services(): Promise<string[]>;
  /**
   * @param symbol a fully qualified service, method, message or enum name
   * @returns a registry that holds it, or undefined when the source knows no such name
   */
  registryFor(symbol: string): Promise<FileRegistry | undefined>;
}

/**
 * Descriptors read from files.
 *
 * @param registry the registry of the files
 * @returns the source
 */
export function fileSource(registry: FileRegistry): DescriptorSource {
  const services: string[] = [];
  for (const type of registry) if (type.kind === "service") services.push(type.typeName);
  return {
    services: () => Promise.resolve(services.sort()),
    registryFor: (symbol) => Promise.resolve(registry.get(symbol) ? registry : undefined),
  };
}

/**
 * Descriptors asked of the server by reflection.
 *
 * @param client the reflection client
 * @param target `host:port`, for messages
 * @returns the source
 */
export function reflectionSource(client: ReflectionClient, target: string): DescriptorSource {
  const unsupported = (error: unknown) =>
    new UsageError(`The server at ${target} does not offer reflection`, {
      details: { target },
      remedy: { use: "proto_file" },
      cause: error,
    });
  return {
    async services() {
      try {
        return await client.listServices();
      } catch (error) {
        if (reflectionFailure(error)) throw unsupported(error);
        throw statusError(error, `Reflection at ${target}`);
      }
    },
    async registryFor(symbol) {
      try {
        return registryOf(await client.filesForSymbol(symbol));
      } catch (error) {
        const failure = reflectionFailure(error);
        if (failure === "not_found") return undefined;
        if (failure) throw unsupported(error);
        throw statusError(error, `Reflection at ${target}`);
      }
    },
  };
}

/** The names among `names` close to `name`: a few edits away in their last part. */
function near(name: string, names: readonly string[]): string[] {
  const split = (n: string) => {
    const cut = Math.max(n.lastIndexOf("."), n.lastIndexOf("/"));
    return [n.slice(0, cut + 1).toLowerCase(), n.slice(cut + 1).toLowerCase()] as const;
  };
  const [prefix, last] = split(name);
  const scored = names.map((n) => {
    const [p, l] = split(n);
    const d = p === prefix
      ? editDistance(last, l)
      : editDistance(name.toLowerCase(), n.toLowerCase());
    return { n, d, limit: Math.max(2, Math.floor((p === prefix ? l : n).length / 3)) };
  }).filter(({ d, limit }) => d <= limit);
  return scored.sort((a, b) => a.d - b.d).slice(0, 3).map(({ n }) => n);
}

function unknown(kind: string, name: string, choices: readonly string[], target: string) {
  const at = target ? ` at ${target}` : "";
  return new UsageError(`Unknown ${kind} "${name}"${at}`, {
    details: { name, choices: near(name, choices), ...(target ? { target } : {}) },
    remedy: { choose: "grpc_name" },
  });
}

/**
 * Finds a method by its name.
 *
 * @param source the descriptors
 * @param text `package.Service/Method`
 * @param target `host:port`, for messages ("" for files)
 * @returns the method and the registry it lives in
 * @throws {UsageError} naming the near services or methods when there is no such method
 */
export async function findMethod(
  source: DescriptorSource,
  text: string,
  target: string,
): Promise<{ method: DescMethod; registry: FileRegistry }> {
  const { service: serviceName, method: methodName } = splitMethodName(text);
  const registry = await source.registryFor(serviceName);
  const service = registry?.getService(serviceName);
  if (!registry || !service) {
    throw unknown("service", serviceName, await source.services(), target);
  }
  const method = service.methods.find((m) => m.name === methodName);
  if (!method) {
    throw unknown(
      "method",
      `${serviceName}/${methodName}`,
      service.methods.map((m) => `${serviceName}/${m.name}`),
      target,
    );
  }
  return { method, registry };
}

/** What `describe` found. */
export type Described =
  | { kind: "service"; desc: DescService }
  | { kind: "method"; desc: DescMethod }
  | { kind: "message"; desc: DescMessage }
  | { kind: "enum"; desc: DescEnum };

/**
 * Finds a service, method, message or enum by its name.
 *
 * @param source the descriptors
 * @param symbol a fully qualified name; a method also as `package.Service/Method`
 * @param target `host:port`, for messages ("" for files)
 * @returns what it names
 * @throws {UsageError} naming the near names when there is no such symbol
 */
export async function findSymbol(
  source: DescriptorSource,
  symbol: string,
  target: string,
): Promise<Described> {
  const name = symbol.replace(/^\./, "");
  if (name.includes("/")) {
    const { method } = await findMethod(source, name, target);
    return { kind: "method", desc: method };
  }
  const registry = await source.registryFor(name);
  const found = registry?.get(name);
  if (found?.kind === "service") return { kind: "service", desc: found };
  if (found?.kind === "message") return { kind: "message", desc: found };
  if (found?.kind === "enum") return { kind: "enum", desc: found };
  // A method as package.Service.Method.
  const cut = name.lastIndexOf(".");
  if (cut > 0) {
    const parent = await source.registryFor(name.slice(0, cut)).catch(() => undefined);
    const service = parent?.getService(name.slice(0, cut));
    const method = service?.methods.find((m) => m.name === name.slice(cut + 1));
    if (method) return { kind: "method", desc: method };
  }
  throw unknown("symbol", name, await source.services(), target);
}
