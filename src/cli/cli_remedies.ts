/**
 * The CLI's words for the core's remedies: each names the flags to use. The UI words the same
 * remedies as its controls, in a table of its own.
 * @module
 */
import { type DialError, type RemedyWords, wordRemedy } from "../errors/mod.ts";

const TRUST = "trust its CA (or the self-signed certificate itself) with --cacert file.pem, " +
  "or skip verification for this run with -k (insecure)";
const schemes = (choices: readonly string[] | undefined) =>
  (choices ?? []).map((p) => `${p}//`).join(" or ");
const OAUTH2_SHAPE = "write --oauth2 <flow>:<token_url>:<client_id>[:<client_secret>]";

/** Every remedy as the command line says it. */
export const CLI_REMEDIES: RemedyWords = {
  raise: {
    timeout: "raise --timeout",
    connect_timeout: "raise --connect-timeout",
    max_redirects: "raise --max-redirects, or drop -L to see the redirect",
    login_timeout: "open the printed URL in a browser, or raise --oauth2-timeout",
    max_retries: "raise --max-retries, or check that the endpoint sends events",
    device_timeout: "raise --oauth2-timeout",
  },
  check: {
    credentials: "check the credentials (-u, -B, -K, -H, --oauth2)",
    permissions: "the credentials were accepted but do not allow this endpoint",
    init_payload: "check the credentials or --init-payload",
    token_url: "check the token URL in --oauth2",
    token_endpoint: "the token URL must point at an OAuth 2.0 token endpoint",
    client: "check the client id and secret in --oauth2, and --oauth2-client-auth",
    client_id: "check the client id and secret in --oauth2",
    grant: "the credentials, code or refresh token were refused",
    flow: "the client is not allowed to use this flow",
    scope: "check --oauth2-scope",
    login: "the login was denied or cancelled",
    subprotocols: "check --subprotocol against what the server supports",
    introspection: "the server may have introspection turned off",
    event_stream: "is this URL a server-sent events endpoint?",
    websocket_url: "the server answered like a plain HTTP endpoint; is this a WebSocket URL?",
    proxy: ({ proxySource }) =>
      proxySource === "--proxy"
        ? "check --proxy, or bypass it for this host with --noproxy <host>"
        : `check ${proxySource}, or bypass it with --noproxy <host> (or --proxy "" for none)`,
    clock: "check this machine's clock, or have the certificate renewed; " +
      "-k skips verification for this run (insecure)",
    stray_newline: "check the token or value for a stray newline",
    ca_variable: ({ variable }) => `point ${variable} at a PEM bundle, or unset it`,
    script_sandbox: "scripts run sandboxed, with only the script API of docs/request-files.md",
    file_format: "see the request file format in docs/request-files.md",
    dpop:
      "add --oauth2-dpop to bind the token to a key of this run, or ask the provider for Bearer tokens",
    key_algorithm:
      "RS256 and PS256 need an RSA key, ES256 an EC key on P-256 (--oauth2-client-key, --oauth2-client-key-alg)",
    issuer: "check --oauth2-issuer, or give the endpoints with --oauth2-token-url",
    import_path: "add the folder that holds it with --import-path DIR (repeatable)",
    include_dirs:
      'add the folder that holds it to the proto line\'s includeDirs, e.g. includeDirs: ["./protos"]',
  },
  choose: {
    callback_port: "pick another port with --oauth2-port or --oauth2-redirect-uri",
    final_url: "streaming endpoints are not redirected; use the final URL",
    certificate_name:
      "use the host name the certificate names, or skip verification for this run with -k (insecure)",
    oauth2_flow: ({ choices = [] }) => `use one of ${choices.join(", ")}; ${OAUTH2_SHAPE}`,
    environment: "give --env with one of them, or --env-file PATH",
    request: ({ choices = [] }) =>
      choices.length
        ? `its requests are: ${choices.map((n) => `"${n}"`).join(", ")} (or give a number from 1)`
        : "name requests with # @name NAME, or give a number from 1",
    grpc_name: ({ choices = [] }) =>
      choices.length
        ? `did you mean ${choices.map((n) => `"${n}"`).join(" or ")}? (dial grpc HOST:PORT list)`
        : "see what it offers with dial grpc HOST:PORT list",
  },
  trust: {
    server_certificate: TRUST,
    client_certificate: "present one with --cert client.pem --key client.key",
    proxy_certificate: "trust the proxy's CA with --cacert file.pem (or one of the CA variables)",
  },
  write: {
    header: ({ example = `-H "Name: value"` }) => `write ${example}, or Name; for an empty value`,
    header_name: ({ example = `-H "Name: value"` }) =>
      `write ${example}; a name has no spaces or separators`,
    url_scheme: ({ url = "", scheme = "https:" }) =>
      `write the scheme too, e.g. ${scheme}//${url.replace(/^\/+/, "")}`,
    url_start: ({ choices }) => `start the URL with ${schemes(choices)}`,
    url_scheme_once: ({ choices }) => `write it once, as ${schemes(choices)}`,
    host_name: "a host name holds letters, digits, '-', '_' and dots",
    url_encoding: "percent-encode spaces and other characters a URL cannot hold (a space is %20)",
    proxy_url: "give http://host:port, optionally http://user:pass@host:port",
    oauth2: OAUTH2_SHAPE,
    pem:
      "--cacert, --cert and --key take PEM files, --key unencrypted (openssl x509 -inform der converts DER, openssl pkey decrypts a key)",
    resolve: "give host:port:address, e.g. --resolve example.com:443:127.0.0.1",
    connect_to: "give host:port:host2:port2, e.g. --connect-to example.com:443:127.0.0.1:8443",
    variable: "write --var host=localhost:8080",
    security_auth: ({ name }) =>
      `define "Security": {"Auth": {"${name}": {…}}} in http-client.env.json and give --env`,
    request_name: ({ name }) => `name a request with # @name ${name} above it in the same file`,
    sigv4: "write --aws-sigv4 provider1[:provider2[:region[:service]]], e.g. aws:amz:us-east-1:s3",
    sigv4_region: "write them: --aws-sigv4 aws:amz:REGION:SERVICE",
    issuer: "give the issuer exactly as the provider names it (scheme, host, path, trailing slash)",
    private_key: "give --oauth2-client-key a PKCS#8, PKCS#1 (RSA) or SEC1 (EC) private key in PEM",
    oauth2_param: "e.g. --oauth2-param audience=https://api.example.com",
  },
  use: {
    proto_file:
      "pass the service's .proto file with --proto FILE.proto (--import-path DIR for its imports)",
    openapi_url: "give the URL on the command line: --openapi URL",
    proxy_tunnel: "give the proxy with --proxy: dial opens the tunnel itself",
    body_file: "send the body from a file with @file",
    undecoded: "save it undecoded with a pipe from curl, or ask without Accept-Encoding",
    default_header: "leave it out; dial sends it when it applies",
    one_authorization: "use only one of them",
    no_follow: "drop -L to see the redirect",
    identity_encoding: "to save it undecoded, add -H 'Accept-Encoding: identity' and -o <file>",
    scope_setting: "use --oauth2-scope",
    own_setting: "use the flag for it, see dial --help",
    new_device_code: "run again and enter the new code within its lifetime",
    sigv4_body_file: "give the body from a file (@file); only S3 accepts UNSIGNED-PAYLOAD",
    client_secret_post:
      "the client secret was sent with HTTP Basic (client_secret_basic); if the provider expects it in the form, add --oauth2-client-auth post",
    address_in_url: "give the address in the URL",
    body_include: "save the body to a file and include it with < ./file",
    private_env:
      "move it to http-client.private.env.json (which git ignores), or give it on the command line with --var NAME=@exec:…",
  },
  give: {
    home: "set HOME (or XDG_CACHE_HOME) to a directory of your own",
    client_secret:
      "write --oauth2 client_credentials:<token_url>:<client_id>:<client_secret>, or sign with --oauth2-client-key",
    auth_url:
      "give the provider's authorization endpoint, e.g. --oauth2-auth-url https://id.example.com/authorize, or --oauth2-issuer",
    device_url:
      "give the provider's device authorization endpoint, e.g. --oauth2-device-url https://id.example.com/device/code, or --oauth2-issuer to discover it",
    client_key: "give the signing key with --oauth2-client-key PATH (PEM)",
    token_url: "give the token URL, or --oauth2-issuer to discover it",
    issuer: ({ url }) =>
      `if ${url} is your provider, give it as --oauth2-issuer ${url}; if not, check the authorization and token URLs`,
    username: "add --oauth2-username USER (and --oauth2-password, or type it when asked)",
    variable: ({ name }) =>
      name?.startsWith("$dotenv")
        ? `add ${
          name.split(/\s+/)[1] ?? "it"
        }=… to the .env file beside the request file, or check its spelling`
        : name?.startsWith("$")
        ? "set the environment variable it reads, or check its spelling"
        : `define it in http-client.env.json (with --env NAME), as @${name} = … in the file, or with --var ${name}=VALUE`,
  },
  remove: {
    cache_file: ({ path }) => `remove it (rm ${path}) and run again`,
    cache_dir: ({ path }) => `remove it (rm -r ${path}) and run again`,
  },
  wait: {
    other_login: "raise --timeout, or finish the login in the other process",
  },
  allow: {
    path: ({ path }) =>
      `if you trust this file, allow that folder with --allow-path ${
        path ? path.slice(0, path.lastIndexOf("/")) || "/" : "DIR"
      }`,
  },
};

/**
 * @param error an error dial reports
 * @returns the `hint:` line's text: the face's own hint, or the remedy in the CLI's words
 */
export function cliHint(error: DialError): string | undefined {
  return error.hint ?? wordRemedy(error.remedy, error.details, CLI_REMEDIES);
}
