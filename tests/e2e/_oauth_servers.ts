/**
 * OAuth 2.0 servers for end-to-end tests, started in-process from npm on 127.0.0.1 port 0:
 * oauth2-mock-server (any client, PKCE checked, password grant) and oidc-provider (a
 * certified OpenID Provider: strict about clients, PKCE, redirect URIs and refresh tokens).
 * @module
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { OAuth2Server } from "oauth2-mock-server";
import Provider from "oidc-provider";

/** @returns a server's origin and its token and authorization endpoints */
function endpoints(origin: string, authPath: string) {
  return { origin, tokenUrl: `${origin}/token`, authUrl: `${origin}${authPath}` };
}

/** A running oauth2-mock-server. */
export interface MockOAuthServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `<origin>/token` */
  tokenUrl: string;
  /** `<origin>/authorize` */
  authUrl: string;
  /** Every token request's form body and headers, in order. */
  tokenRequests: Array<{ body: URLSearchParams; authorization: string | undefined }>;
  /** The server, for `service.on("beforeResponse", …)` customisations. */
  server: OAuth2Server;
  /** Stops the server. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts oauth2-mock-server, issuing tokens that live `ttl` seconds.
 *
 * @param ttl `expires_in` of issued tokens
 * @returns the running server
 */
export async function startMockServer(ttl = 3600): Promise<MockOAuthServer> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate("RS256");
  await server.start(0, "127.0.0.1");
  const origin = `http://127.0.0.1:${server.address().port}`;
  server.issuer.url = origin;
  // Without a jti, two tokens signed in the same second are byte-for-byte equal.
  server.service.on("beforeTokenSigning", (token) => {
    token.payload.jti = crypto.randomUUID();
  });
  const tokenRequests: MockOAuthServer["tokenRequests"] = [];
  server.service.on("beforeResponse", (response, req) => {
    const body = typeof req.body === "object" && req.body !== null ? req.body : {};
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(body)) {
      if (typeof value === "string") params.set(name, value);
    }
    const auth = req.headers.authorization;
    tokenRequests.push({
      body: params,
      authorization: typeof auth === "string" ? auth : undefined,
    });
    if (typeof response.body === "object" && response.body !== null) {
      Object.assign(response.body, { expires_in: ttl });
    }
  });
  const close = () => server.stop();
  return {
    ...endpoints(origin, "/authorize"),
    tokenRequests,
    server,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** A running oidc-provider. */
export interface OidcServer {
  /** `http://127.0.0.1:<port>`, also the issuer */
  origin: string;
  /** `<origin>/token` */
  tokenUrl: string;
  /** `<origin>/auth` */
  authUrl: string;
  /** Counts of token requests by grant type. */
  grants: Record<string, number>;
  /** The path of every request, in order. */
  paths: string[];
  /** The provider. */
  provider: Provider;
  /** Stops the server. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Options for {@link startOidcProvider}. */
export interface OidcOptions {
  /** The exact redirect URIs registered for the clients. */
  redirectUris: string[];
  /** Access token lifetime in seconds (default 3600). */
  accessTokenTtl?: number;
  /**
   * Accept RFC 8707 `resource` parameters: a resource's tokens are JWTs with the resource as
   * `aud` and the scope `api:read`.
   */
  resourceIndicators?: boolean;
  /** Enable the device authorization grant (RFC 8628) for the `device` client. */
  deviceFlow?: boolean;
  /**
   * Public keys of the `jwt` client (private_key_jwt); with them the `hs` client
   * (client_secret_jwt) is registered too. Both may use client_credentials.
   */
  clientKeys?: JsonWebKey[];
}

/** The clients registered with {@link startOidcProvider}. */
export const OIDC_CLIENTS = {
  /** Confidential web client, client_secret_basic; authorization_code + refresh + client_credentials. */
  web: { id: "web-app", secret: "web:s3cret&more" },
  /** The same grants with client_secret_post. */
  post: { id: "post-app", secret: "post-s3cret" },
  /** Public client (no secret), authorization_code + refresh. */
  public: { id: "cli-app" },
  /** Public client for the device flow (with `deviceFlow`), device_code + refresh. */
  device: { id: "device-app" },
  /** private_key_jwt client (with `clientKeys`), client_credentials. */
  jwt: { id: "jwt-app" },
  /** client_secret_jwt client (with `clientKeys`), client_credentials; HS256 needs 32 bytes. */
  hs: { id: "hs-app", secret: "hs-secret-of-at-least-32-bytes-long!" },
} as const;

/**
 * Starts oidc-provider with devInteractions (its built-in login and consent pages).
 *
 * @param options the redirect URIs and token lifetime
 * @returns the running provider
 */
export async function startOidcProvider(options: OidcOptions): Promise<OidcServer> {
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const ttl = options.accessTokenTtl ?? 3600;
  const grantTypes = ["authorization_code", "refresh_token", "client_credentials"];
  const provider = new Provider(origin, {
    clients: [
      {
        client_id: OIDC_CLIENTS.web.id,
        client_secret: OIDC_CLIENTS.web.secret,
        grant_types: grantTypes,
        redirect_uris: options.redirectUris,
        token_endpoint_auth_method: "client_secret_basic",
      },
      {
        client_id: OIDC_CLIENTS.post.id,
        client_secret: OIDC_CLIENTS.post.secret,
        grant_types: grantTypes,
        redirect_uris: options.redirectUris,
        token_endpoint_auth_method: "client_secret_post",
      },
      {
        client_id: OIDC_CLIENTS.public.id,
        grant_types: ["authorization_code", "refresh_token"],
        redirect_uris: options.redirectUris,
        token_endpoint_auth_method: "none",
      },
      ...(options.clientKeys
        ? [{
          client_id: OIDC_CLIENTS.jwt.id,
          grant_types: ["client_credentials"],
          response_types: [],
          redirect_uris: [],
          token_endpoint_auth_method: "private_key_jwt",
          jwks: { keys: options.clientKeys },
        }, {
          client_id: OIDC_CLIENTS.hs.id,
          client_secret: OIDC_CLIENTS.hs.secret,
          grant_types: ["client_credentials"],
          response_types: [],
          redirect_uris: [],
          token_endpoint_auth_method: "client_secret_jwt",
        }]
        : []),
      ...(options.deviceFlow
        ? [{
          client_id: OIDC_CLIENTS.device.id,
          grant_types: ["urn:ietf:params:oauth:grant-type:device_code", "refresh_token"],
          response_types: [],
          redirect_uris: [],
          token_endpoint_auth_method: "none",
        }]
        : []),
    ],
    features: {
      clientCredentials: { enabled: true },
      devInteractions: { enabled: true },
      ...(options.deviceFlow
        ? {
          deviceFlow: {
            enabled: true,
            // Plain pages of our own keep oidc-provider from printing a notice for its defaults;
            // `form` is its own confirmation form (xsrf and user code).
            userCodeConfirmSource: (
              ctx: { body: string },
              form: string,
              _c: unknown,
              _d: unknown,
              code: string,
            ) => {
              ctx.body =
                `<!DOCTYPE html><p>Code ${code}</p>${form}<button type="submit" form="op.deviceConfirmForm">Continue</button>`;
            },
            successSource: (ctx: { body: string }) => {
              ctx.body = "<!DOCTYPE html><p>Signed in</p>";
            },
          },
        }
        : {}),
      ...(options.resourceIndicators
        ? {
          resourceIndicators: {
            enabled: true,
            getResourceServerInfo: (_ctx: unknown, resource: string) => ({
              scope: "api:read",
              audience: resource,
              accessTokenFormat: "jwt",
              accessTokenTTL: ttl,
            }),
          },
        }
        : {}),
    },
    scopes: ["openid", "offline_access", "api:read"],
    issueRefreshToken: (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed("refresh_token"),
    ttl: {
      AccessToken: ttl,
      ClientCredentials: ttl,
      DeviceCode: 600,
      // Explicit lifetimes keep oidc-provider from printing a notice for each default.
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      RefreshToken: 86400,
      IdToken: 3600,
    },
  });
  const grants: Record<string, number> = {};
  provider.on("grant.success", (ctx: { oidc: { params?: Record<string, unknown> } }) => {
    const type = String(ctx.oidc.params?.grant_type ?? "unknown");
    grants[type] = (grants[type] ?? 0) + 1;
  });
  const paths: string[] = [];
  http.on("request", (req) => paths.push(new URL(req.url ?? "/", origin).pathname));
  http.on("request", provider.callback());
  const close = () =>
    new Promise<void>((resolve, reject) => {
      http.closeAllConnections();
      http.close((error) => error ? reject(error) : resolve());
    });
  return {
    ...endpoints(origin, "/auth"),
    grants,
    paths,
    provider,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** `$BROWSER` for the authorization-code and device flows: runs the test browser `./_browser.ts`. */
export const BROWSER = `${Deno.execPath()} run -A --quiet ${
  new URL("./_browser.ts", import.meta.url).pathname
}`;

/** @returns a new empty HOME, so that a test starts with an empty token cache of its own */
export async function oauthHome(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "dial-oauth-home-" });
}

/**
 * The flags of the password grant for the user `ann`.
 *
 * @param tokenUrl the token endpoint
 * @param password ann's password (`--oauth2-password`), or null to leave the flag out
 * @param client the client id, `:secret` after it for a confidential client
 * @returns `--oauth2 password:…`, `--oauth2-username ann` and `--oauth2-password`
 */
export function passwordGrant(
  tokenUrl: string,
  password: string | null = "pw",
  client = "app",
): string[] {
  return [
    "--oauth2",
    `password:${tokenUrl}:${client}`,
    "--oauth2-username",
    "ann",
    ...(password === null ? [] : ["--oauth2-password", password]),
  ];
}
