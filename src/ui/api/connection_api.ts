/**
 * The workspace's TLS and proxy settings: CA files, a client certificate and key, insecure, a
 * proxy and its exceptions, as the paths and values of `dial`'s `--cacert`, `--cert`, `--key`,
 * `-k`, `--proxy` and `--noproxy`, read by the CLI's own reader (`src/http/transport_settings.ts`)
 * into the one transport plan every UI request goes through. They are the person's, not the
 * repository's: kept in dial's config directory (`$XDG_CONFIG_HOME/dial/workspaces/`, a 0600
 * file keyed by the workspace's real path), never read from the workspace, where a cloned
 * repository could bring a proxy and insecure (`src/files/trust_rule.ts`). Paths and switches
 * only, never a file's contents, never a proxy password. Files are read from inside the
 * workspace only (symlinks resolved).
 * @module
 */
import { UsageError } from "../../errors/mod.ts";
import type { TransportOptions } from "../../http/plan.ts";
import { transportFetch } from "../../http/client.ts";
import type { TransportSettings } from "../../http/transport_fields.ts";
import { readTransportSettings } from "../../http/transport_settings.ts";
import type { Workspace } from "../workspace_path.ts";
import type { ApiContext } from "./http_api.ts";
import { boolean, isObject, object, optionalString, readJson } from "./decode.ts";
import type { ConnectionAnswer } from "../protocol.ts";
import { defaultConfigDir, joinPath, writePrivateFile } from "../../cache.ts";

/** The settings' names as the Connection panel labels them. */
const NAMES = {
  cacert: "CA file",
  cert: "Client certificate",
  key: "Client key",
  proxy: "Proxy",
} as const;

/** Where earlier versions kept the settings, in the workspace: never read. */
const WORKSPACE_FILE = ".dial/connection.json";

/**
 * The person's own file of a workspace's settings: in dial's config directory, named by a
 * digest of the workspace's real path (which the file also holds).
 */
async function settingsFile(context: ApiContext, workspace: Workspace): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(workspace.root),
  );
  const name = [...new Uint8Array(digest).slice(0, 16)]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
  const dir = context.configDir ?? defaultConfigDir(context.env);
  if (!/^(\/|[A-Za-z]:[\\/]|\\\\)/.test(dir)) {
    // Never the working directory, which may be the workspace itself.
    throw new UsageError("Cannot find dial's config directory: HOME is not set", {
      remedy: { give: "home" },
    });
  }
  return joinPath(dir, "workspaces", `${name}.json`);
}

/** Checks the page's (or the file's) JSON into settings. */
function settingsOf(value: unknown): TransportSettings {
  const json = object(value ?? {}, "settings");
  const text = (key: string) => {
    const v = optionalString(json[key], `settings.${key}`)?.trim();
    return v === undefined || v === "" ? undefined : v;
  };
  const cacert = Array.isArray(json.cacert)
    ? json.cacert.map((p, i) => optionalString(p, `settings.cacert[${i}]`)?.trim() ?? "")
      .filter((p) => p !== "")
    : [];
  const cert = text("cert");
  const key = text("key");
  const proxy = text("proxy");
  const noproxy = text("noproxy");
  if ((cert === undefined) !== (key === undefined)) {
    throw new UsageError(
      cert
        ? "Missing Client key for Client certificate"
        : "Missing Client certificate for Client key",
      { hint: "give both files, or neither" },
    );
  }
  if (proxy !== undefined && /^[a-z][a-z0-9+.-]*:\/\/[^/]*@/i.test(proxy)) {
    throw new UsageError("A proxy with a user name or password is not kept in the workspace", {
      hint: "give the proxy without credentials, or start dial ui with HTTPS_PROXY set",
    });
  }
  return {
    ...(cacert.length ? { cacert } : {}),
    ...(cert !== undefined ? { cert } : {}),
    ...(key !== undefined ? { key } : {}),
    ...(json.insecure !== undefined && boolean(json.insecure, "settings.insecure")
      ? { insecure: true }
      : {}),
    ...(proxy !== undefined ? { proxy } : {}),
    ...(noproxy !== undefined ? { noproxy } : {}),
  };
}

/** Reads the settings' files from inside the workspace only. */
function confinedRead(workspace: Workspace): (path: string) => Promise<string> {
  return async (path) => await Deno.readTextFile(await workspace.resolve(path));
}

/**
 * The workspace's settings over `dial ui`'s flags: CA files add to the flags' ones, a client
 * certificate, a proxy and a no-proxy list given here take the flags' place, insecure is on
 * when either sets it.
 */
function merged(base: TransportOptions, own: TransportOptions): TransportOptions {
  const caCerts = [...base.caCerts ?? [], ...own.caCerts ?? []];
  const cert = own.cert !== undefined ? own : base;
  return {
    ...base,
    ...(caCerts.length ? { caCerts } : {}),
    ...(cert.cert !== undefined && cert.key !== undefined
      ? { cert: cert.cert, key: cert.key }
      : {}),
    ...(base.insecure || own.insecure ? { insecure: true } : {}),
    ...(own.proxy !== undefined ? { proxy: own.proxy } : {}),
    ...(own.noProxy !== undefined ? { noProxy: own.noProxy } : {}),
  };
}

/** What the server keeps about the workspace's settings. */
export interface ConnectionState {
  /** `dial ui`'s flags. */
  base: TransportOptions;
  /** The saved settings. */
  settings: TransportSettings;
  /** Why the saved settings could not be used when the server started. */
  error?: string;
  /** Whether the server builds its own fetch (tests may pass another, which stays). */
  ownFetch: boolean;
}

/** Points the context's fetch and stream transport at the flags and these options. */
function apply(context: ApiContext, connection: ConnectionState, own: TransportOptions): void {
  const options = merged(connection.base, own);
  context.transport = options;
  if (connection.ownFetch) context.fetch = transportFetch(options);
}

/**
 * Reads the workspace's saved settings at start and applies them. A file that cannot be used
 * (a CA file removed since) leaves the flags alone and is reported in the panel.
 *
 * @param context the server's context (its workspace and connection state)
 */
export async function loadConnection(context: ApiContext): Promise<void> {
  const { workspace, connection } = context;
  if (!workspace || !connection) return;
  let text: string;
  try {
    const path = await settingsFile(context, workspace);
    // Only a file dial wrote for this user (0600, theirs).
    const info = await Deno.lstat(path);
    const uid = Deno.uid();
    if (
      !info.isFile || (info.mode !== null && (info.mode & 0o077) !== 0) ||
      (uid !== null && info.uid !== null && info.uid !== uid)
    ) {
      connection.error =
        `${path} is not a private file of yours (dial writes it 0600), so it is not used: save the settings again`;
      return;
    }
    text = await Deno.readTextFile(path);
  } catch {
    // None of the person's own. A settings file in the workspace may have come with a clone
    // (a proxy, insecure): it is never read, and the panel says so.
    if (await Deno.lstat(`${workspace.root}/${WORKSPACE_FILE}`).then(() => true, () => false)) {
      connection.error =
        `${WORKSPACE_FILE} is not used: TLS and proxy settings are kept in your own config, not in the workspace, where a cloned repository could bring them; save them here if you want them`;
    }
    return;
  }
  try {
    const json: unknown = JSON.parse(text);
    if (!isObject(json) || json.folder !== workspace.root) return;
    connection.settings = settingsOf(json.settings);
    apply(
      context,
      connection,
      await readTransportSettings(connection.settings, NAMES, confinedRead(workspace)),
    );
  } catch (error) {
    connection.error = error instanceof Error ? error.message : String(error);
  }
}

function answer(connection: ConnectionState): Response {
  const body: ConnectionAnswer = {
    settings: connection.settings,
    flags: transportSettingFlags(connection.settings),
    insecure: connection.settings.insecure === true || connection.base.insecure === true,
    ...(connection.error !== undefined ? { error: connection.error } : {}),
  };
  return Response.json(body);
}

function connectionOf(context: ApiContext): ConnectionState {
  if (!context.connection) throw new UsageError("This server keeps no connection settings");
  return context.connection;
}

/**
 * `POST /api/workspace/connection`: the saved settings and the `dial` flags that give them.
 *
 * @param request `{}`
 * @param context the connection state
 * @returns a {@link ConnectionAnswer}
 */
export async function handleConnection(request: Request, context: ApiContext): Promise<Response> {
  await readJson(request);
  return answer(connectionOf(context));
}

/**
 * `POST /api/workspace/connection/save`: `{settings}` checked, its files read from inside the
 * workspace, applied to every later request and stream, and kept in the person's config
 * (`$XDG_CONFIG_HOME/dial/workspaces/`, 0600 in a 0700 folder), never in the workspace.
 *
 * @param request `{settings}`
 * @param context the workspace and connection state
 * @returns a {@link ConnectionAnswer}
 */
export async function handleConnectionSave(
  request: Request,
  context: ApiContext,
): Promise<Response> {
  const connection = connectionOf(context);
  const workspace = context.workspace;
  if (!workspace) {
    throw new UsageError("TLS and proxy settings need a workspace: start dial ui in a folder");
  }
  const json = object(await readJson(request), "request");
  const settings = settingsOf(json.settings);
  const own = await readTransportSettings(settings, NAMES, confinedRead(workspace));
  await writePrivateFile(
    await settingsFile(context, workspace),
    JSON.stringify({ version: 1, folder: workspace.root, settings }, null, 1) + "\n",
  );
  connection.settings = settings;
  delete connection.error;
  apply(context, connection, own);
  return answer(connection);
}

/**
 * The `dial` flags that give the same settings, for showing beside them.
 *
 * @param settings the paths and values
 * @returns the flags and their values, in order
 */
export function transportSettingFlags(settings: TransportSettings): string[] {
  return [
    ...(settings.cacert ?? []).flatMap((path) => ["--cacert", path]),
    ...(settings.cert !== undefined ? ["--cert", settings.cert] : []),
    ...(settings.key !== undefined ? ["--key", settings.key] : []),
    ...(settings.insecure ? ["-k"] : []),
    ...(settings.proxy !== undefined ? ["--proxy", settings.proxy] : []),
    ...(settings.noproxy !== undefined ? ["--noproxy", settings.noproxy] : []),
  ];
}
