/**
 * `dial grpc … --save FILE.http [--name NAME]`: the call as a `GRPC` request of a request file,
 * which `dial run` makes again: JetBrains' target (`grpcs://` for TLS, none for `--plaintext`),
 * metadata as header lines, the message as the body (`-d @file` as a `< file` include),
 * `--proto`/`--import-path` as httpyac's `proto <` and `includeDirs` lines, `-m` as
 * `# @timeout`. Secrets go to the private environment file as HTTP's `--save` puts them.
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import type { AuthSpec } from "../auth/auth_spec.ts";
import type { BodySource, HeaderField } from "../http/request_spec.ts";
import {
  type FlagRequestModel,
  relativeTo,
  requestModel,
  type SavedRequest,
  saveModel,
} from "./save_http.ts";
import type { GrpcFlagValues } from "./grpc.ts";

/** What `dial grpc` knows of the call when it saves it. */
export interface GrpcCall {
  /** The server (`http:` for `--plaintext`, `https:` for TLS). */
  url: URL;
  /** `host:port` as the request line writes it. */
  target: string;
  /** Metadata (`-H`) and the auth flags, as parsed. */
  headers: HeaderField[];
  /** The auth flags, as parsed. */
  auth: AuthSpec;
}

function targetText(call: GrpcCall, method: string): string {
  return `${call.url.protocol === "https:" ? "grpcs://" : ""}${call.target}/${method}`;
}

/**
 * Appends the call to the request file, once the method is known by its full name.
 *
 * @param built the model ({@link grpcRequestModel})
 * @param call the server
 * @param method `package.Service/Method`, as the server or the files name it
 * @param path the `.http` file
 * @returns where things went
 * @throws {DialError} when a file cannot be written
 */
export async function saveGrpcRequest(
  built: FlagRequestModel,
  call: GrpcCall,
  method: string,
  path: string,
): Promise<SavedRequest> {
  built.model.url = targetText(call, method);
  return await saveModel(built, path);
}

function dirOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "." : path.slice(0, slash) || "/";
}

/**
 * The call as a request-file model.
 *
 * @param call the server, the metadata and credentials
 * @param flags the flags as typed (references kept as written)
 * @param path the `.http` file the model is for (paths are written relative to its folder)
 * @returns the model, its secrets and auth configuration
 * @throws {UsageError} for `-d @-` (standard input is read once) or a bad `--name`
 */
export function grpcRequestModel(
  call: GrpcCall,
  flags: GrpcFlagValues,
  path: string,
): FlagRequestModel {
  if (flags.data === "@-") {
    throw new UsageError("Cannot save a call whose messages are read from stdin (-d @-)", {
      hint: "give the messages with -d @file",
    });
  }
  const body: BodySource | undefined = flags.data === undefined
    ? undefined
    : flags.data.startsWith("@")
    ? { kind: "file", path: flags.data.slice(1) }
    : { kind: "text", text: flags.data };
  const built = requestModel(
    {
      method: "GRPC",
      url: call.url,
      headers: call.headers,
      auth: call.auth,
      ...(body ? { body } : {}),
    },
    {
      name: flags.name,
      auth: flags.auth,
      bearer: flags.bearer,
      oauth2ClientKey: flags.oauth2ClientKey,
      apiKeyQuery: [],
      // Nothing redirects a gRPC call: no `# @no-redirect`.
      follow: true,
      timeout: flags.maxTime,
    },
    path,
  );
  const dir = dirOf(path);
  built.model.url = targetText(call, "");
  if (flags.proto.length) {
    const importPaths = flags.importPath.map((p) => relativeTo(dir, p));
    built.model.protos = flags.proto.map((p) => ({ path: relativeTo(dir, p), importPaths }));
  }
  return built;
}
