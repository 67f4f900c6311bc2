/**
 * The `dial grpc` implementation: `list`, `describe` and calls of the four kinds. Everything
 * the user gave (the address, the request JSON, the files, the credentials) is read and
 * checked before the call is sent.
 * @module
 */
import { load } from "../load.ts";
import { GrpcStatusError, UsageError } from "../errors/mod.ts";
import { authorize, type Authorized } from "../http/credentials.ts";
import type { PreparedRequest } from "../http/request_spec.ts";
import { hostPort } from "../http/authority.ts";
import { isCredentialName } from "../credential_name.ts";
import { reveal } from "../secret.ts";
import { prettyJson } from "../output/json.ts";
import { escapeControls, isBrokenPipe } from "../output/terminal.ts";
import { type Channel, openChannel } from "../grpc/channel.ts";
import { callMethod, methodName } from "../grpc/call.ts";
import { describe } from "../grpc/describe.ts";
import { registryOf } from "../grpc/descriptors.ts";
import { jsonDocuments } from "../grpc/json_documents.ts";
import { ReflectionClient } from "../grpc/reflection.ts";
import {
  type DescriptorSource,
  fileSource,
  findMethod,
  findSymbol,
  reflectionSource,
} from "../grpc/schema.ts";
import { parseAuthFlags } from "./auth_flags.ts";
import { grpcRequestModel, saveGrpcRequest } from "./grpc_save.ts";
import { reportSaved } from "./save_http.ts";
import type { CliContext } from "./context.ts";
import type { GrpcFlagValues } from "./grpc.ts";
import { claimStdin } from "./secret_ref.ts";
import { parseTransportFlags } from "./transport_flags.ts";
import type { TransportOptions } from "../http/plan.ts";

const VERBS = new Set(["list", "describe"]);

/** The words of the command line, sorted out. */
type Action =
  | { verb: "list"; symbol?: string }
  | { verb: "describe"; symbol?: string }
  | { verb: "call"; method: string };

function parseWords(words: readonly string[], hasProto: boolean) {
  const [first, ...rest] = words;
  if (first === undefined) {
    throw new UsageError("Missing HOST:PORT and what to do", {
      hint: "dial grpc HOST:PORT list, or dial grpc HOST:PORT package.Service/Method -d '{…}'",
    });
  }
  let address: string | undefined;
  let tail: string[];
  if (VERBS.has(first)) {
    if (!hasProto) {
      throw new UsageError(`Missing HOST:PORT before "${first}"`, {
        hint:
          `dial grpc HOST:PORT ${first}, or give --proto FILE.proto to read the services from files`,
      });
    }
    tail = words.slice();
  } else {
    address = first;
    tail = rest;
  }
  const [verb, symbol, ...extra] = tail;
  if (verb === undefined) {
    throw new UsageError(`Missing what to do with ${address}`, {
      hint: `dial grpc ${address} list, or dial grpc ${address} package.Service/Method -d '{…}'`,
    });
  }
  if (VERBS.has(verb)) {
    if (extra.length) throw new UsageError(`Unexpected argument "${extra[0]}"`);
    const action: Action = verb === "list"
      ? { verb: "list", ...(symbol !== undefined ? { symbol } : {}) }
      : { verb: "describe", ...(symbol !== undefined ? { symbol } : {}) };
    return { address, action };
  }
  if (symbol !== undefined) throw new UsageError(`Unexpected argument "${symbol}"`);
  return { address, action: { verb: "call", method: verb } as Action };
}

/**
 * @param address `host:port`, `[v6]:port`
 * @param plaintext h2c instead of TLS
 * @returns the URL of the server
 */
function serverUrl(address: string, plaintext: boolean): URL {
  const scheme = plaintext ? "http" : "https";
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(address)) {
    throw new UsageError(`Invalid address "${address}": write HOST:PORT without a scheme`, {
      hint: "TLS is the default; --plaintext speaks h2c",
    });
  }
  let url: URL;
  try {
    url = new URL(`${scheme}://${address}`);
  } catch {
    throw new UsageError(`Invalid address "${address}": write HOST:PORT`);
  }
  if (url.pathname !== "/" || url.search || url.username || !/:\d+$/.test(address)) {
    throw new UsageError(`Invalid address "${address}": write HOST:PORT`, {
      hint: "e.g. localhost:50051 or [::1]:50051",
    });
  }
  // new URL drops a default port; gRPC servers rarely listen there, so it is kept explicit.
  return url;
}

async function* stdinText(context: CliContext): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  for await (const chunk of context.stdin.readable) yield decoder.decode(chunk, { stream: true });
  const last = decoder.decode();
  if (last) yield last;
}

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}

/** The request documents of `-d`: text, `@file` or `@-` (read as the call goes). */
async function requestText(
  data: string | undefined,
  context: CliContext,
): Promise<{ open: () => AsyncIterable<string>; source: string; replayable: boolean }> {
  if (data === "@-") {
    claimStdin(context, "-d @-");
    return { open: () => stdinText(context), source: "standard input", replayable: false };
  }
  let text = data ?? "{}";
  let source = data === undefined ? "the request" : "-d";
  if (data?.startsWith("@")) {
    const path = data.slice(1);
    try {
      text = await Deno.readTextFile(path);
    } catch (error) {
      const why = error instanceof Deno.errors.NotFound ? "no such file" : (error as Error).message;
      throw new UsageError(`Cannot read -d @${path}: ${why}`);
    }
    source = `"${path}"`;
  }
  return { open: () => once(text), source, replayable: true };
}

/** The metadata of a call: the prepared request's headers, credentials revealed. */
function metadataOf(request: PreparedRequest): Headers {
  const headers = new Headers();
  for (const field of request.headers) headers.append(field.name, reveal(field.value));
  return headers;
}

function metadataLines(prefix: string, headers: Headers): string {
  let out = "";
  headers.forEach((value, name) => {
    const shown = isCredentialName(name) ? "(redacted)" : escapeControls(value);
    out += `${prefix} ${name}: ${shown}\n`;
  });
  return out;
}

/** What `dial grpc` does, decided from its words and flags before anything is sent. */
interface GrpcPlan {
  action: Action;
  /** The server (none with `--proto` and `list`/`describe`). */
  url?: URL | undefined;
  /** `host:port`, for messages. */
  target: string;
  /** The credentials and `-H` metadata. */
  auth: Awaited<ReturnType<typeof parseAuthFlags>>;
  /** The request documents of a call. */
  requests?: Awaited<ReturnType<typeof requestText>> | undefined;
  /** How to connect to the server. */
  transport?: TransportOptions | undefined;
  /** The services of `--proto` files, instead of reflection. */
  files?: ReturnType<typeof registryOf> | undefined;
  /** `--save`: the request to write once the method is known. */
  saved?: ReturnType<typeof grpcRequestModel> | undefined;
}

/** Checks the words and flags and reads what they name (files, stdin, references). */
async function grpcPlan(
  words: readonly string[],
  flags: GrpcFlagValues,
  context: CliContext,
): Promise<GrpcPlan> {
  const { address, action } = parseWords(words, flags.proto.length > 0);
  if (action.verb !== "call" && flags.data !== undefined) {
    throw new UsageError(`-d does not apply to ${action.verb}`);
  }
  if (action.verb !== "call" && flags.save !== undefined) {
    throw new UsageError(`--save does not apply to ${action.verb}: it saves a call`);
  }
  if (flags.name !== undefined && flags.save === undefined) {
    throw new UsageError("--name needs --save FILE.http", {
      hint: "dial grpc HOST:PORT package.Service/Method --save api.http --name hello",
    });
  }
  const url = address === undefined ? undefined : serverUrl(address, flags.plaintext);
  const target = url ? hostPort(url) : "";
  // The flags gRPC leaves out (--digest, --aws-sigv4, -K) are absent, not empty.
  const auth = await parseAuthFlags({ ...flags, apiKeyQuery: [] }, url, context);
  const requests = action.verb === "call" ? await requestText(flags.data, context) : undefined;
  // The saved request is built (and refused) before anything is sent; written once the
  // method is known.
  const saved = flags.save !== undefined && action.verb === "call"
    ? grpcRequestModel(savedCall({ url, target, auth }), flags, flags.save)
    : undefined;
  const transport = url ? await parseTransportFlags(flags, context, flags.verbose) : undefined;
  const files = flags.proto.length
    ? registryOf((await load.protoFiles()).readProtoFiles(flags.proto, flags.importPath))
    : undefined;
  return { action, url, target, auth, requests, transport, files, saved };
}

/** The server and credentials a saved call names. */
function savedCall(plan: Pick<GrpcPlan, "url" | "target" | "auth">) {
  return {
    url: plan.url!,
    target: plan.target,
    headers: plan.auth.headers,
    auth: plan.auth.auth,
  };
}

/**
 * Runs `dial grpc`.
 *
 * @param words the positional arguments
 * @param flags the flag values
 * @param context the run
 * @returns the exit code
 */
export async function runGrpc(
  words: readonly string[],
  flags: GrpcFlagValues,
  context: CliContext,
): Promise<number> {
  const plan = await grpcPlan(words, flags, context);
  const { action, target } = plan;
  const signal = context.signal;
  let channel: Channel | undefined;
  try {
    let headers = new Headers();
    let authorized: Authorized | undefined;
    if (plan.url) {
      authorized = await authorize(
        { method: "POST", url: plan.url, headers: plan.auth.headers, auth: plan.auth.auth },
        { signal },
      );
      headers = metadataOf(authorized.request);
      channel = await openChannel(plan.url, plan.transport!, signal);
    }
    const source: DescriptorSource = plan.files ? fileSource(plan.files) : reflectionSource(
      new ReflectionClient(channel!.transport, {
        headers,
        signal,
        ...(flags.maxTime !== undefined ? { timeoutMs: flags.maxTime } : {}),
      }),
      target,
    );
    if (action.verb === "list") return await printList(source, action.symbol, target, context);
    if (action.verb === "describe") {
      const symbols = action.symbol === undefined ? await source.services() : [action.symbol];
      for (const symbol of symbols) {
        await context.stdout.write(
          escapeControls(describe(await findSymbol(source, symbol, target))),
        );
      }
      return 0;
    }
    const found = await findMethod(source, action.method, target);
    if (plan.saved) {
      const path = flags.save!;
      const written = await saveGrpcRequest(
        plan.saved,
        savedCall(plan),
        methodName(found.method),
        path,
      );
      await reportSaved(written, context.stderr);
    }
    const call = { ...found, channel: channel!, requests: plan.requests!, authorized, flags };
    return await callAndPrint(call, headers, context);
  } finally {
    channel?.close();
  }
}

/** `list`: the services, or the methods of one. */
async function printList(
  source: DescriptorSource,
  symbol: string | undefined,
  target: string,
  context: CliContext,
): Promise<number> {
  const out = context.stdout;
  if (symbol === undefined) {
    for (const name of await source.services()) await out.write(`${escapeControls(name)}\n`);
    return 0;
  }
  const found = await findSymbol(source, symbol, target);
  if (found.kind !== "service") {
    throw new UsageError(`"${symbol}" is a ${found.kind}, not a service`);
  }
  for (const m of found.desc.methods) {
    await out.write(`${escapeControls(`${found.desc.typeName}.${m.name}`)}\n`);
  }
  return 0;
}

/** A call to make: the method, the channel, the request documents and the credentials. */
type Call = Awaited<ReturnType<typeof findMethod>> & {
  channel: Channel;
  requests: NonNullable<GrpcPlan["requests"]>;
  authorized: Authorized | undefined;
  flags: GrpcFlagValues;
};

/** Makes the call and prints each reply as it arrives; `-v` prints the metadata. */
async function callAndPrint(call: Call, metadata: Headers, context: CliContext): Promise<number> {
  const { method, registry, requests, flags } = call;
  const { stdout: out, stderr: err, signal } = context;
  const documents = jsonDocuments(requests.open(), requests.source);
  if (flags.verbose) {
    await err.write(`* Calling ${methodName(method)} (${method.methodKind.replace("_", " ")})\n`);
    await err.write(metadataLines(">", metadata));
  }
  const replies = callMethod(call.channel.transport, method, documents, {
    headers: metadata,
    signal,
    registry,
    ...(flags.maxTime !== undefined ? { timeoutMs: flags.maxTime } : {}),
    ...(flags.verbose
      ? {
        onHeaders: (h: Headers) => void err.write(metadataLines("<", h)),
        onTrailers: (h: Headers) => void err.write(metadataLines("< (trailer)", h)),
      }
      : {}),
  });
  let printed = 0;
  try {
    for await (const reply of replies) {
      const text = JSON.stringify(reply);
      await out.write(out.isTerminal ? prettyJson(text, out.color) : `${text}\n`);
      printed++;
    }
  } catch (error) {
    if (isBrokenPipe(error)) return 0;
    // The one rule of the credential step: an OAuth 2.0 token from the cache that the
    // server refused is renewed once, when the call can be made again unseen.
    const refused = error instanceof GrpcStatusError && error.statusName === "UNAUTHENTICATED";
    if (refused && printed === 0 && requests.replayable && call.authorized?.renewable) {
      if (flags.verbose) await err.write("* UNAUTHENTICATED: renewing the OAuth 2.0 token\n");
      return await callAndPrint(call, metadataOf(await call.authorized.renew()), context);
    }
    throw error;
  }
  return 0;
}
