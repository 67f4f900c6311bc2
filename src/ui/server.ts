/**
 * The local server behind `dial ui`: serves the bundled app and a JSON API that turns the
 * browser's JSON into the CLI's specs and calls the CLI's functions. Every request passes
 * {@link checkRequest} first (Host, Origin, session header); the wire format is
 * `src/ui/protocol.ts`.
 * @module
 */
import { AuthError, DialError, ErrorCode, UsageError } from "../errors/mod.ts";
import { transportFetch, type TransportOptions } from "../http/client.ts";
import { loadAssets, type UiAssets } from "./assets.ts";
import {
  appUrl,
  checkRequest,
  deny,
  type GuardConfig,
  pageHeaders,
  SECURITY_HEADERS,
  SessionKeys,
} from "./guard.ts";
import type { ApiContext } from "./api/http_api.ts";
import { API_ROUTES } from "./api/routes.ts";
import { loadConnection } from "./api/connection_api.ts";
import { processEnv } from "../env.ts";
import { errorJson, errorStatus } from "./api/error_json.ts";
import { isObject, object, readJson, string } from "./api/decode.ts";
import { BodyStore, type BodyStoreLimits } from "./api/body_store.ts";
import { UiStateStore } from "./api/ui_state.ts";
import { openWorkspace, type Workspace } from "./workspace_path.ts";
import { CookieJar } from "../http/cookies.ts";
import { WorkspaceSession } from "./api/file_send.ts";
import { indexHtml, shellListHtml, type WorkspaceShell } from "./page.ts";
import { listRequestFiles } from "./api/request_file_list.ts";
import {
  type FrontDoor,
  type FrontDoorOptions,
  openFrontDoor,
  type Standing,
} from "./front_door.ts";
import {
  type ErrorBody,
  MAIN_TABS,
  MAX_SESSION_JSON,
  SESSION_HEADER,
  type SessionAnswer,
  type ShellListAnswer,
  SIDEBAR_WIDTH,
} from "./protocol.ts";

/** Options for {@link startUiServer}. */
export interface UiServerOptions {
  /** The interface to listen on. Default `127.0.0.1`; anything else only when asked. */
  hostname?: string;
  /** The port; default 0, a free one. */
  port?: number;
  /** Stops the server. */
  signal?: AbortSignal;
  /** The fetch for outbound requests; tests may pass an in-memory handler. */
  fetch?: typeof fetch;
  /** CA certificates, client certificate, `-k`, proxy, connect timeout for outbound requests. */
  transport?: TransportOptions;
  /** The frontend; default: the built bundle. */
  assets?: UiAssets;
  /** The OAuth 2.0 token cache directory; default the CLI's, so both share tokens. */
  oauthCacheDir?: string;
  /** The GraphQL introspection cache directory; default the CLI's. */
  graphqlCacheDir?: string;
  /** How much of the responses' bodies is kept on disk for Save (tests lower it). */
  bodyLimits?: BodyStoreLimits;
  /**
   * The workspace folder (`dial ui [DIR]`): the UI's state is kept in its `.dial/`. Default:
   * none, the state lives in memory for this run.
   */
  workspace?: string;
  /** dial's config directory (default: `$XDG_CONFIG_HOME/dial`): the workspace's TLS and proxy settings. */
  configDir?: string;
  /** `dial ui --allow-path`: folders the workspace's files may reach besides the workspace. */
  allowPaths?: readonly string[];
}

/** A running UI server. */
export interface UiServer {
  /** A first launch URL: its one-time token (in the fragment) opens one session. */
  url: URL;
  /** The port it listens on. */
  port: number;
  /**
   * @param onRedeem called once when the page trades the token for a session
   * @returns another one-time launch URL
   */
  launchUrl(onRedeem?: () => void): URL;
  /** Resolves when the server has stopped. */
  finished: Promise<void>;
  /** Stops the server and waits for it. */
  shutdown(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts the UI server.
 *
 * @param options interface, port, signal, fetch and assets
 * @returns the running server
 * @throws {DialError} when the port is taken or the bundle is missing
 */
export async function startUiServer(options: UiServerOptions = {}): Promise<UiServer> {
  const assets = options.assets ??
    await loadAssets();
  const hostname = options.hostname ?? "127.0.0.1";
  const keys = new SessionKeys();
  const controller = new AbortController();
  const signal = options.signal
    ? AbortSignal.any([options.signal, controller.signal])
    : controller.signal;
  const bodies = new BodyStore(options.bodyLimits);
  const workspace = options.workspace === undefined
    ? undefined
    : await openWorkspace(options.workspace, options.allowPaths ?? []);
  const state = new UiStateStore(workspace?.root);
  const context: ApiContext = {
    signal,
    bodies,
    state,
    cookies: new CookieJar(),
    session: new WorkspaceSession(),
    ...(workspace ? { workspace } : {}),
    fetch: options.fetch ?? transportFetch(options.transport),
    ...(options.transport ? { transport: options.transport } : {}),
    connection: { base: options.transport ?? {}, settings: {}, ownFetch: !options.fetch },
    env: options.transport?.env ?? processEnv,
    oauth: {
      ...(options.oauthCacheDir !== undefined ? { cacheDir: options.oauthCacheDir } : {}),
      openBrowser: loginFirst,
      showDeviceCode: deviceLoginFirst,
    },
    ...(options.graphqlCacheDir !== undefined ? { graphqlCacheDir: options.graphqlCacheDir } : {}),
    ...(options.configDir !== undefined ? { configDir: options.configDir } : {}),
    isSession: (session) => keys.isSession(session),
  };
  await loadConnection(context);
  const site: Site = { assets, context, keys, pageHeaders: await pageHeaders(assets.boot) };
  const launch: { config?: GuardConfig } = {};
  // Every handler that started is awaited on shutdown: a browser that closes its connection
  // mid-request leaves the server done with it while the handler may still be writing a file.
  const running = new Set<Promise<unknown>>();
  const handler = (request: Request) => {
    if (!launch.config) return new Response(null, { status: 503 });
    const answer = Promise.resolve(
      checkRequest(request, launch.config) ??
        route(request, site),
    );
    const settled = answer.catch(() => {});
    running.add(settled);
    settled.finally(() => running.delete(settled));
    return answer;
  };
  const listen = { hostname, port: options.port ?? 0 };
  let served: Served;
  try {
    served = Deno.build.os === "windows"
      ? serveTcp(listen, signal, handler)
      : await serveBehindFrontDoor(listen, signal, handler, {
        standing: (head) => standingOf(head, keys),
        proves: (bytes) => carriesSession(bytes, keys),
      });
  } catch (error) {
    if (error instanceof Deno.errors.AddrInUse) {
      throw new UsageError(`Port ${options.port} is already in use`, {
        hint: "choose another with --port, or leave it out for a free one",
      });
    }
    throw new DialError(
      `Cannot listen on ${hostname}: ${error}`,
      ErrorCode.UiListen,
    );
  }
  const config = launch.config = { keys, port: served.port, hostname };
  // The folder's listing, read while the browser starts (kept while its folders are unchanged).
  const warm = site.warm = workspace
    ? listRequestFiles(workspace).then(() => {}, () => {})
    : undefined;
  // However it stops (shutdown(), or the caller's signal on Ctrl-C), the kept bodies go too.
  const finished = served.finished.then(async () => {
    await Promise.all([...running, warm]);
  }).finally(() => bodies.close());
  const shutdown = async () => {
    controller.abort();
    await finished;
  };
  const launchUrl = (onRedeem?: () => void) => appUrl(config, keys.issueLaunch(onRedeem));
  context.launchUrl = () => launchUrl().href;
  return {
    url: launchUrl(),
    port: served.port,
    launchUrl,
    finished,
    shutdown,
    [Symbol.asyncDispose]: shutdown,
  };
}

/** The HTTP server as the rest of this module sees it. */
interface Served {
  port: number;
  finished: Promise<void>;
}

type Handler = (request: Request) => Response | Promise<Response>;

/** Without Unix sockets: the HTTP server on the TCP port itself, without connection limits. */
function serveTcp(
  listen: { hostname: string; port: number },
  signal: AbortSignal,
  handler: Handler,
): Served {
  const server = Deno.serve({ ...listen, signal, onListen() {} }, handler);
  return { port: server.addr.port, finished: server.finished };
}

/**
 * The HTTP server on a Unix socket in a private directory, behind the relay that limits
 * connections ({@link openFrontDoor}).
 */
async function serveBehindFrontDoor(
  listen: { hostname: string; port: number },
  signal: AbortSignal,
  handler: Handler,
  doorOptions: FrontDoorOptions,
): Promise<Served> {
  const dir = await Deno.makeTempDir({ prefix: "dial-ui-" });
  await Deno.chmod(dir, 0o700);
  const path = `${dir}/server.sock`;
  let door: FrontDoor;
  try {
    door = openFrontDoor(listen, path, doorOptions);
  } catch (error) {
    await Deno.remove(dir, { recursive: true });
    throw error;
  }
  const server = Deno.serve({ path, signal, onListen() {} }, handler);
  const finished = (async () => {
    await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
    await door.close();
    await server.finished;
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  })();
  return { port: door.port, finished };
}

const latin1 = new TextDecoder("latin1");
const SESSION_LINE = new RegExp(`(?:^|\r\n)${SESSION_HEADER}:[ \t]*([^\r\n]*?)[ \t]*\r\n`, "gi");

/**
 * @param bytes request bytes from a connection (a head, or a later chunk)
 * @param keys the server's sessions
 * @returns whether they carry one of this server's sessions in the session header
 */
function carriesSession(bytes: Uint8Array, keys: SessionKeys): boolean {
  for (const match of latin1.decode(bytes).matchAll(SESSION_LINE)) {
    if (keys.isSession(match[1])) return true;
  }
  return false;
}

/**
 * @param head a connection's first request head, as received
 * @param keys the server's sessions
 * @returns `session` when it carries one of this server's sessions, `upgrade` for the stream
 *   bridge (which proves its session in its first message), else `public`
 */
function standingOf(head: Uint8Array, keys: SessionKeys): Standing {
  if (/^GET \/api\/stream[ ?]/.test(latin1.decode(head.subarray(0, 32)))) return "upgrade";
  return carriesSession(head, keys) ? "session" : "public";
}

/** What {@link route} serves from. */
interface Site {
  assets: UiAssets;
  context: ApiContext;
  keys: SessionKeys;
  /** The page's headers (its policy names the bootstrap's hash). */
  pageHeaders: Record<string, string>;
  /** Settles when the shell's list was first read (from the server's start). */
  warm?: Promise<void> | undefined;
}

async function route(request: Request, site: Site): Promise<Response> {
  const { assets, context, keys } = site;
  const url = new URL(request.url);
  const key = `${request.method} ${url.pathname}`;
  const handler = key === "POST /api/session"
    ? (request: Request) => tradeLaunch(request, site)
    : key === "POST /api/session/challenge"
    ? () => Promise.resolve(Response.json({ challenge: keys.issueChallenge() }))
    : key === "POST /api/workspace/shell"
    ? () => shellList(site)
    : API_ROUTES.get(key);
  if (handler) {
    try {
      return withSecurity(await handler(request, context));
    } catch (error) {
      return errorResponse(error, context.workspace);
    }
  }
  switch (key) {
    case "GET /":
      return new Response(indexHtml(await pageShell(site), assets.boot), {
        headers: { ...site.pageHeaders, "Content-Type": "text/html; charset=utf-8" },
      });
    case "GET /app.js":
      return asset(assets.js, "text/javascript; charset=utf-8");
    case "GET /app.css":
      return asset(assets.css, "text/css; charset=utf-8");
    case "GET /json_worker.js":
      return asset(assets.worker ?? "", "text/javascript; charset=utf-8");
  }
  const known = [
    ...API_ROUTES.keys(),
    "POST /api/session/challenge",
    "POST /api/workspace/shell",
    "GET /",
    "GET /app.js",
    "GET /app.css",
    "GET /json_worker.js",
  ]
    .some((k) => k.endsWith(` ${url.pathname}`));
  const body: ErrorBody = {
    error: known
      ? { code: "method_not_allowed", message: "Method not allowed" }
      : { code: "not_found", message: "Not found" },
  };
  return Response.json(body, { status: known ? 405 : 404, headers: SECURITY_HEADERS });
}

/**
 * The page's shell: with a workspace, the sidebar's width and the kind shown as the app's first
 * frame reads them. No file name: the page is public to this machine (it is what a launch link
 * opens); the bootstrap fetches the list with the session ({@link shellList}).
 */
async function pageShell(site: Site): Promise<WorkspaceShell | undefined> {
  if (!site.context.workspace) return undefined;
  // A state that cannot be read now is the app's to report: the page goes with the defaults.
  const state = await site.context.state?.load().catch(() => undefined);
  const saved = (key: string): unknown => {
    try {
      return JSON.parse(state?.[key] ?? "null");
    } catch {
      return null;
    }
  };
  const width = saved("layout.sidebar");
  const kind = saved("tab");
  return {
    // As the app reads them (`splitter.tsx`, `main_tab.ts`): its first frame is this one.
    sidebarWidth: typeof width === "number" && width >= SIDEBAR_WIDTH.min &&
        width <= SIDEBAR_WIDTH.max
      ? width
      : SIDEBAR_WIDTH.initial,
    kind: MAIN_TABS.find((known) => known === kind) ?? "http",
  };
}

/**
 * `POST /api/workspace/shell`: `{}` → {@link ShellListAnswer}, the shell's list (the
 * workspace's first files), for the page's bootstrap.
 */
async function shellList(site: Site): Promise<Response> {
  const answer: ShellListAnswer = { html: await shellListOf(site) };
  return Response.json(answer);
}

/** @returns the shell's list of the workspace (the trade of a launch's page answers it too) */
async function shellListOf(site: Site): Promise<string> {
  const workspace = site.context.workspace;
  // After the first read, a listing costs one stat per folder while none changed.
  await site.warm;
  return shellListHtml(workspace ? await listRequestFiles(workspace) : []);
}

/**
 * `POST /api/session`: `{launch, key?, shell?}` → `{session, shell?}`, once per launch token
 * (`key`: the browser's public key, kept for its later tabs; `shell`: the shell's list too); or `{challenge, signature}` → `{session}`
 * for a tab of a browser that registered its key (a challenge works once).
 */
async function tradeLaunch(request: Request, site: Site): Promise<Response> {
  const { keys } = site;
  const json = object(await readJson(request, MAX_SESSION_JSON), "request");
  if (json.launch === undefined && json.challenge !== undefined) {
    const session = await keys.redeemSignature(
      string(json.challenge, "challenge"),
      string(json.signature ?? "", "signature"),
    );
    return sessionAnswer(session, undefined, {
      code: "unauthorized",
      message: "This browser has no session of dial ui",
      remedy: "open the link dial ui printed (each works once), or stop dial ui and start it again",
    });
  }
  const session = keys.redeem(string(json.launch ?? "", "launch"));
  if (session !== undefined && isObject(json.key)) {
    // A key that is not an ECDSA P-256 public key is not kept: later tabs need the link then.
    await keys.addDevice(json.key as JsonWebKey).catch(() => {});
  }
  // A launch's page gets its list with its session: one round trip fewer before it paints.
  const shell = session !== undefined && json.shell === true && site.context.workspace
    ? await shellListOf(site)
    : undefined;
  return sessionAnswer(session, shell, {
    code: "launch_used",
    message: "This launch link was used already (each works once)",
    remedy: "use the dial window that is already open, or stop dial ui and start it again",
  });
}

/** The session a redeemed link or signature gave, or why there is none (401). */
function sessionAnswer(
  session: string | undefined,
  shell: string | undefined,
  refusal: { code: string; message: string; remedy: string },
): Response {
  if (session === undefined) return deny(401, refusal.code, refusal.message, refusal.remedy);
  const answer: SessionAnswer = { session, ...(shell !== undefined ? { shell } : {}) };
  return Response.json(answer);
}

function asset(text: string, type: string): Response {
  return new Response(text, { headers: { ...SECURITY_HEADERS, "Content-Type": type } });
}

function withSecurity(response: Response): Response {
  // A 101 upgrade's headers are not ours to add to.
  if (response.status === 101) return response;
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    if (!response.headers.has(name)) response.headers.set(name, value);
  }
  return response;
}

/**
 * A request, a query or introspection that needs an authorization-code login fails at once
 * (only the auth panel's Log in, `/api/auth/token`, shows the login page).
 */
function loginFirst(): never {
  throw new AuthError("Log in first: this OAuth 2.0 flow needs a browser login", {
    hint: "press Log in in the auth panel",
  });
}

/** The same for the device flow: its code is shown by the auth panel's Get token only. */
function deviceLoginFirst(): never {
  throw new AuthError("Log in first: this OAuth 2.0 flow shows a device code to enter", {
    hint: "press Get token in the auth panel",
  });
}

/**
 * @param error what a handler threw
 * @returns `{error: {code, message, hint?}}`: 400 for bad input, 413 for a body over the
 * limit, 502 when the target or the token endpoint failed
 * @param workspace the UI's workspace: its files are named relative to it
 */
export function errorResponse(error: unknown, workspace?: Workspace): Response {
  const body: ErrorBody = { error: errorJson(error, workspace) };
  return Response.json(body, { status: errorStatus(error), headers: SECURITY_HEADERS });
}
