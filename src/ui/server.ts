/**
 * The local server behind `dial ui`: serves the bundled app and a JSON API that turns the
 * browser's JSON into the CLI's specs and calls the CLI's functions. Every request passes
 * {@link checkRequest} first (secret cookie, Host, Origin).
 * @module
 */
import { redactUrlsInText } from "../redact_url.ts";
import { DialError, ExitCode, UsageError } from "../errors.ts";
import { transportFetch, type TransportOptions } from "../http/client.ts";
import { loadAssets, type UiAssets } from "./assets.ts";
import { appUrl, checkRequest, type GuardConfig, newSecret, SECURITY_HEADERS } from "./guard.ts";
import type { ApiContext } from "./api/http_api.ts";
import { API_ROUTES } from "./api/routes.ts";
import { indexHtml } from "./page.ts";

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
  /** Called before the bundle is built from source. */
  onBuild?: () => void;
  /** The secret; default: a fresh random one. */
  secret?: string;
  /** The OAuth 2.0 token cache directory; default the CLI's, so both share tokens. */
  oauthCacheDir?: string;
  /** The GraphQL introspection cache directory; default the CLI's. */
  graphqlCacheDir?: string;
}

/** A running UI server. */
export interface UiServer {
  /** The URL to open, secret included. */
  url: URL;
  /** The port it listens on. */
  port: number;
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
    await loadAssets(options.onBuild ? { onBuild: options.onBuild } : {});
  const hostname = options.hostname ?? "127.0.0.1";
  const secret = options.secret ?? newSecret();
  const controller = new AbortController();
  const signal = options.signal
    ? AbortSignal.any([options.signal, controller.signal])
    : controller.signal;
  const context: ApiContext = {
    signal,
    fetch: options.fetch ?? transportFetch(options.transport),
    ...(options.transport ? { transport: options.transport } : {}),
    oauth: options.oauthCacheDir !== undefined ? { cacheDir: options.oauthCacheDir } : {},
    ...(options.graphqlCacheDir !== undefined ? { graphqlCacheDir: options.graphqlCacheDir } : {}),
  };
  const launch: { config?: GuardConfig } = {};
  let server: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = Deno.serve(
      { hostname, port: options.port ?? 0, signal, onListen() {} },
      (request) => {
        if (!launch.config) return new Response(null, { status: 503 });
        return checkRequest(request, launch.config) ?? route(request, assets, context);
      },
    );
  } catch (error) {
    if (error instanceof Deno.errors.AddrInUse) {
      throw new UsageError(`Port ${options.port} is already in use`, {
        hint: "choose another with --port, or leave it out for a free one",
      });
    }
    throw new DialError(`Cannot listen on ${hostname}: ${error}`, "ui_listen", ExitCode.Failure);
  }
  const config = launch.config = { secret, port: server.addr.port, hostname };
  const shutdown = async () => {
    controller.abort();
    await server.finished;
  };
  return {
    url: appUrl(config),
    port: server.addr.port,
    finished: server.finished,
    shutdown,
    [Symbol.asyncDispose]: shutdown,
  };
}

async function route(request: Request, assets: UiAssets, context: ApiContext): Promise<Response> {
  const url = new URL(request.url);
  const key = `${request.method} ${url.pathname}`;
  const handler = API_ROUTES.get(key);
  if (handler) {
    try {
      return withSecurity(await handler(request, context));
    } catch (error) {
      return errorResponse(error);
    }
  }
  switch (key) {
    case "GET /":
      return asset(indexHtml(), "text/html; charset=utf-8");
    case "GET /app.js":
      return asset(assets.js, "text/javascript; charset=utf-8");
    case "GET /app.css":
      return asset(assets.css, "text/css; charset=utf-8");
  }
  const known = [...API_ROUTES.keys(), "GET /", "GET /app.js", "GET /app.css"]
    .some((k) => k.endsWith(` ${url.pathname}`));
  return Response.json(
    { error: { message: known ? "Method not allowed" : "Not found" } },
    { status: known ? 405 : 404, headers: SECURITY_HEADERS },
  );
}

function asset(text: string, type: string): Response {
  return new Response(text, { headers: { ...SECURITY_HEADERS, "Content-Type": type } });
}

function withSecurity(response: Response): Response {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    if (!response.headers.has(name)) response.headers.set(name, value);
  }
  return response;
}

/**
 * @param error what a handler threw
 * @returns `{error: {message, hint?, code}}`: 400 for bad input, 502 when the target or the
 * token endpoint failed
 */
export function errorResponse(error: unknown): Response {
  // DialErrors never hold secrets; anything else may quote a URL with keys or userinfo.
  const message = error instanceof DialError
    ? error.message
    : redactUrlsInText(error instanceof Error ? error.message : String(error));
  const status = error instanceof UsageError ? 400 : error instanceof DialError ? 502 : 500;
  const body = {
    error: {
      message,
      code: error instanceof DialError ? error.code : "internal",
      ...(error instanceof DialError && error.hint ? { hint: error.hint } : {}),
    },
  };
  return Response.json(body, { status, headers: SECURITY_HEADERS });
}
