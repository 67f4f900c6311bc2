/**
 * The UI's words for the core's remedies: each names a control of the desktop UI ("raise
 * Timeout in the tab"), never a flag. A remedy that only makes sense on the command line has
 * no words here. TLS trust and proxies name the workspace's TLS and proxy settings.
 * @module
 */
import type { RemedyWords } from "../../errors/mod.ts";

/** Every remedy as the desktop UI says it. */
export const UI_REMEDIES: RemedyWords = {
  raise: {
    timeout: "raise Timeout in the tab",
    connect_timeout: "raise Timeout in the tab",
    max_redirects: "untick Follow redirects to see the redirect",
    login_timeout: "press Log in again, or raise Login timeout in the auth panel",
    max_retries: undefined,
    device_timeout: "raise Login timeout in the auth panel",
  },
  check: {
    credentials: "check the auth panel and the headers you added",
    permissions: "the credentials were accepted but do not allow this endpoint",
    init_payload: "check the credentials in the auth panel",
    token_url: "check the Token URL in the auth panel",
    token_endpoint: "the token URL must point at an OAuth 2.0 token endpoint",
    client: "check the client id and secret in the auth panel, and Client authentication",
    client_id: "check the client id and secret in the auth panel",
    grant: "the credentials, code or refresh token were refused",
    flow: "the client is not allowed to use this flow",
    scope: "check Scope",
    login: "the login was denied or cancelled",
    subprotocols: "check Subprotocols against what the server supports",
    introspection: "the server may have introspection turned off",
    event_stream: "is this URL a server-sent events endpoint?",
    websocket_url: "the server answered like a plain HTTP endpoint; is this a WebSocket URL?",
    proxy: undefined,
    clock: "check this machine's clock, or have the certificate renewed",
    stray_newline: "check the token or value for a stray newline",
    ca_variable: ({ variable }) =>
      `point ${variable} at a PEM bundle, or unset it, and restart dial ui`,
    script_sandbox: "scripts run sandboxed, with only the script API of docs/request-files.md",
    file_format: "see the request file format in docs/request-files.md",
    dpop:
      "register the client without DPoP-bound access tokens, or ask the provider for Bearer tokens",
    key_algorithm: "RS256 and PS256 need an RSA key, ES256 an EC key on P-256",
    issuer: "check the issuer, or give the endpoints in the auth panel",
    import_path: undefined,
    include_dirs:
      'add the folder that holds it to the proto line\'s includeDirs, e.g. includeDirs: ["./protos"]',
  },
  choose: {
    callback_port: "pick another Callback port in the auth panel",
    final_url: "streaming endpoints are not redirected; use the final URL",
    certificate_name: "use the host name the certificate names",
    oauth2_flow: undefined,
    environment: "choose one of the environments the files define",
    request: undefined,
    grpc_name: undefined,
  },
  trust: {
    server_certificate:
      "add its CA as a CA file in TLS and proxy settings, or tick Skip certificate checks there (insecure)",
    client_certificate: "set Client certificate and Client key in TLS and proxy settings",
    proxy_certificate: "add the proxy's CA as a CA file in TLS and proxy settings",
  },
  write: {
    header: "write the header as Name in one column and the value in the other",
    header_name: "a header name has no spaces or separators",
    url_scheme: ({ url = "", scheme = "https:" }) =>
      `write the scheme too, e.g. ${scheme}//${url.replace(/^\/+/, "")}`,
    url_start: ({ choices = [] }) =>
      `start the URL with ${choices.map((p) => `${p}//`).join(" or ")}`,
    url_scheme_once: ({ choices = [] }) =>
      `write it once, as ${choices.map((p) => `${p}//`).join(" or ")}`,
    host_name: "a host name holds letters, digits, '-', '_' and dots",
    url_encoding: "percent-encode spaces and other characters a URL cannot hold (a space is %20)",
    proxy_url: undefined,
    oauth2: undefined,
    pem:
      "CA files, Client certificate and Client key take PEM files, the key unencrypted (openssl converts and decrypts them)",
    resolve: undefined,
    connect_to: undefined,
    variable: undefined,
    security_auth: ({ name }) =>
      `define "Security": {"Auth": {"${name}": {…}}} in http-client.env.json`,
    request_name: ({ name }) => `name a request with # @name ${name} above it in the same file`,
    sigv4: "expected provider1[:provider2[:region[:service]]], e.g. aws:amz:us-east-1:s3",
    sigv4_region: "write them: aws:amz:REGION:SERVICE",
    issuer: "give the issuer exactly as the provider names it (scheme, host, path, trailing slash)",
    private_key: "give a PKCS#8, PKCS#1 (RSA) or SEC1 (EC) private key in PEM",
    oauth2_param: "write NAME=VALUE, e.g. audience=https://api.example.com",
  },
  use: {
    proto_file: undefined,
    openapi_url: "save the description in the workspace and name its path",
    proxy_tunnel: "set Proxy in TLS and proxy settings: dial opens the tunnel itself",
    body_file: undefined,
    undecoded: "save it undecoded with a pipe from curl, or ask without Accept-Encoding",
    default_header: "leave it out; dial sends it when it applies",
    one_authorization: "remove the header or set auth to None",
    no_follow: "untick Follow redirects to see the redirect",
    identity_encoding: "to save it undecoded, send it with the header Accept-Encoding: identity",
    scope_setting: "use the Scope field",
    own_setting: "use the auth panel's field for it",
    new_device_code: "log in again and enter the new code within its lifetime",
    sigv4_body_file: "only S3 accepts UNSIGNED-PAYLOAD",
    client_secret_post:
      "the client secret was sent with HTTP Basic (client_secret_basic); if the provider expects it in the form, set Client authentication to post",
    address_in_url: "give the address in the URL",
    body_include: "save the body to a file and include it with < ./file",
    private_env: "set it with Set a secret, which writes http-client.private.env.json",
  },
  give: {
    home: "start dial ui with HOME (or XDG_CACHE_HOME) set to a directory of your own",
    client_secret: "fill in Client secret in the auth panel",
    auth_url: "fill in Authorization URL in the auth panel, or the issuer to discover it",
    device_url: "give it, or the issuer to discover it",
    client_key: "fill in Client private key (PEM) in the auth panel",
    token_url: "give the token URL, or the issuer to discover it",
    issuer: ({ url }) =>
      `if ${url} is your provider, set Issuer to it: under "Issuer and extra parameters" in the auth panel, or "Issuer" in the environment's Security.Auth; if not, check the Authorization and Token URLs`,
    username: "fill in OAuth username in the auth panel",
    variable: ({ name }) =>
      name?.startsWith("$dotenv")
        ? `add ${
          name.split(/\s+/)[1] ?? "it"
        }=… to the .env file beside the request file, or check its spelling`
        : name?.startsWith("$")
        ? "set the environment variable it reads, or check its spelling"
        : `define it in http-client.env.json, or as @${name} = … in the file`,
  },
  remove: {
    cache_file: ({ path }) => `remove it (rm ${path}) and run again`,
    cache_dir: ({ path }) => `remove the directory ${path} and try again`,
  },
  wait: {
    other_login: "finish the login in the other process, or raise Timeout in the tab",
  },
  allow: {
    path: ({ path }) =>
      `if you trust this file, open a workspace that holds ${
        path ? path.slice(0, path.lastIndexOf("/")) || "/" : "that folder"
      } too, or allow that folder when you start dial ui`,
  },
};
