/**
 * dial as a library for Deno scripts: build and send requests with the same auth rules as
 * the `dial` command line.
 *
 * @example
 * ```ts
 * import { send, Secret } from "./mod.ts";
 * const { response } = await send({
 *   method: "GET",
 *   url: new URL("https://api.example.com/me"),
 *   headers: [],
 *   auth: { authorization: { kind: "bearer", token: new Secret(Deno.env.get("TOKEN")!) }, queryKeys: [] },
 * });
 * console.log(response.status);
 * ```
 * @module
 */
export { type Exchange, send, type SendOptions, sendPrepared } from "./src/http/send.ts";
export {
  ConnectionPool,
  type ExchangeTiming,
  type ResponseMeta,
  responseMeta,
  transportFetch,
  type TransportOptions,
  type TransportPlan,
} from "./src/http/client.ts";
export {
  DialWebSocket,
  type DialWebSocketInit,
  transportWebSocket,
  type TransportWebSocketFactory,
} from "./src/http/websocket.ts";
export { describePlan, type Endpoint, planFor, type TlsPlan } from "./src/http/plan.ts";
export type { NodeTlsReason } from "./src/http/plan.ts";
export type { TrustSource, TrustStore } from "./src/http/trust.ts";
export {
  bypasses,
  chooseProxy,
  type EnvLookup,
  type ProxyChoice,
  type ProxySettings,
  type ProxySource,
} from "./src/http/proxy.ts";
export type {
  BodySource,
  FormField,
  HeaderField,
  PreparedRequest,
  RequestSigner,
  RequestSpec,
} from "./src/http/request_spec.ts";
export {
  buildRequest,
  redirectRequest,
  requestUrl,
  withQueryKeys,
} from "./src/http/build_request.ts";
export { isCredentialName } from "./src/credential_name.ts";
export { type NamedKey, redactUrl } from "./src/redact_url.ts";
export {
  type Cookie,
  CookieJar,
  loadPublicSuffixList,
  parseSetCookie,
} from "./src/http/cookies.ts";
export { type Framing, type WireHead, wireHead } from "./src/http/wire.ts";
export type { Authorization, AuthSpec, QueryKey } from "./src/auth/auth_spec.ts";
export type { SigV4Options } from "./src/auth/sigv4_value.ts";
export {
  authorizationHeader,
  type AuthorizeOptions,
  basicAuthorization,
} from "./src/auth/auth_header.ts";
export { type MaybeSecret, Secret } from "./src/secret.ts";
export * from "./src/errors/mod.ts";
