/**
 * The request command, `dial [METHOD] <url> [flags]`: its declaration (flags, arguments, help).
 * The implementation (`request_run.ts`) is loaded when it runs.
 * @module
 */
import { lazy } from "./lazy.ts";
import { AUTH_CONFLICTS, AUTH_FLAGS } from "./auth_flags.ts";
import { BODY_FLAGS } from "./body_flags.ts";
import { CURL_FLAGS, CURL_HINTS } from "./curl_flags.ts";
import { type Command, command, flags, type FlagValues } from "./declare.ts";
import { EXPORT_FORMATS, WITH_SECRETS_FLAG } from "./interchange.ts";
import { TRANSPORT_FLAGS } from "./transport_flags.ts";
import { OPENAPI_FLAGS } from "./file_flags.ts";

/** `-L`: shared with `dial sse`. */
export const FOLLOW_FLAG = {
  long: "follow",
  short: "L",
  aliases: ["location"],
  help: "follow redirects (credentials never cross origins)",
} as const;

/** `-v`: shared with `dial run`, `dial test` and `dial graphql`. */
export const VERBOSE_FLAG = {
  long: "verbose",
  short: "v",
  help: "print request and response heads to stderr (secrets redacted)",
} as const;

/** The request flags that are not auth or body: redirects, timeout, output. */
export const REQUEST_ONLY_FLAGS = flags([
  FOLLOW_FLAG,
  {
    long: "max-redirects",
    aliases: ["max-redirs"],
    value: "n",
    kind: "count",
    default: "10",
    help: "the most redirects to follow",
  },
  {
    long: "timeout",
    short: "m",
    aliases: ["max-time"],
    value: "seconds",
    kind: "seconds",
    help: "limit the whole exchange (decimal seconds)",
  },
  {
    long: "check-status",
    short: "f",
    aliases: ["fail"],
    help: "exit 3, 4 or 5 on a 3xx, 4xx or 5xx response",
  },
  {
    long: "fail-with-body",
    help: "as -f, and -o writes a 4xx/5xx body too (-f leaves no file then, as curl)",
  },
  { long: "include", short: "i", help: "print the status line and headers even when piped" },
  VERBOSE_FLAG,
  {
    long: "output",
    short: "o",
    value: "file",
    file: true,
    help: "write the body to a file (progress bar on a terminal; - for stdout)",
  },
  { long: "download", help: "save the body to a new file named by the server or the URL" },
  {
    long: "continue",
    short: "C",
    aliases: ["continue-at"],
    value: "-",
    optionalValue: true,
    valueShape: /^(-|\d+)$/,
    help: "resume a partial -o/--download file from its size with a Range request (curl's -C -)",
  },
  { long: "silent", short: "s", help: "print only the body" },
  {
    long: "filter",
    value: "jsonpath",
    help: "print what this RFC 9535 JSONPath selects from the JSON body, one value per line",
  },
  {
    long: "pretty",
    value: "style",
    choices: ["all", "colors", "format", "none"],
    help: "format and/or colour the body, also piped (default all on a terminal, none piped)",
  },
  {
    long: "cookie",
    short: "b",
    value: "name=value;…|file",
    help: "send cookies, or read a Netscape cookie file",
  },
  {
    long: "cookie-jar",
    short: "c",
    value: "file",
    file: true,
    help: "read and save cookies in a Netscape cookie file (0600)",
  },
  {
    long: "session",
    value: "name|path",
    help: "keep headers, cookies and auth (as references) for this host between runs (0600)",
  },
  {
    long: "session-read-only",
    value: "name|path",
    help: "use a session without changing it",
  },
  {
    long: "curl",
    help: "print the equivalent curl command instead of sending (secrets as $NAME lookups)",
  },
  {
    long: "save",
    value: "file.http",
    file: true,
    help: "also append this request to a .http file (secrets go to its private env file)",
  },
  { long: "name", value: "name", help: "with --save: the request's name (# @name)" },
  { long: "offline", help: "print the request that would be sent, without sending" },
  {
    long: "export",
    value: EXPORT_FORMATS.join("|"),
    choices: EXPORT_FORMATS,
    help: "print the request as curl, .http, Postman, HAR or code instead of sending it",
  },
  {
    ...WITH_SECRETS_FLAG,
    help: "with --curl or --export: write secret values as they are",
  },
]);

/** Every flag of the request command. */
export const REQUEST_FLAGS = flags([
  ...AUTH_FLAGS,
  ...BODY_FLAGS,
  ...REQUEST_ONLY_FLAGS,
  ...CURL_FLAGS,
  ...TRANSPORT_FLAGS,
  ...OPENAPI_FLAGS,
]);

/** The flag values of the request command. */
export type RequestFlagValues = FlagValues<typeof REQUEST_FLAGS>;

const EPILOG = `
Examples:
  dial https://api.example.com/users                      GET, pretty on a terminal
  dial POST https://api.example.com/users --json '{"name":"Ann"}'
  dial PATCH https://api.example.com/users/1 -d @body.json -H "Content-Type: application/json"
  dial GET https://api.example.com/me -u ann:s3cret        HTTP Basic
  dial GET https://api.example.com/me -B "$TOKEN"          Bearer token
  dial GET https://api.example.com/data -K api_key=abc123  API key in the query
  dial GET https://api.example.com/data -H "X-Api-Key: abc123"
  dial GET https://api.example.com/me \\
    --oauth2 client_credentials:https://id.example.com/oauth/token:my-app:my-secret
  dial GET https://example.com/big.iso -o big.iso          download to a file
  dial GET https://example.com/files/report --download     save under the server's name
  dial GET https://api.example.com/pets/1 --openapi openapi.yaml   check against the contract

Exit codes: 0 ok, 2 usage, 3/4/5 HTTP 3xx/4xx/5xx with --check-status, 6 too many
redirects, 7 network, 8 timeout, 9 auth, 10 GraphQL errors, 11 the exchange broke the
--openapi description (its violations on stderr), 130 interrupted.`;

/** The request command, `dial [METHOD] <url> [flags]`: the root of the tree in `program.ts`. */
export const REQUEST_COMMAND: Command = command({
  name: "dial",
  summary: "Call HTTP APIs with Basic, Bearer, API-key or OAuth 2.0 auth",
  usage: "[METHOD] <url> [items…] [flags]\ndial <command> [flags]",
  args: [
    {
      name: "method",
      help:
        "HTTP method; GET POST … in any case are sent upper-case, others as written (default GET, or POST with a body)",
    },
    { name: "url", help: "http(s) URL; no scheme means http://, :PORT/path means localhost" },
    {
      name: "items",
      variadic: true,
      help:
        "HTTPie request items: Header:value Header; name=value name:=json name==query name@file",
    },
  ],
  flags: REQUEST_FLAGS,
  conflicts: [
    { flags: ["curl", "offline"] },
    { flags: ["session", "session-read-only"] },
    ...["data", "data-raw", "data-urlencode", "json", "form"].map((other) => ({
      flags: ["upload-file", other],
      reason: "give one request body",
    })),
    ...["data-raw", "data-urlencode"].flatMap((data) =>
      ["json", "form"].map((other) => ({ flags: [data, other], reason: "give one request body" }))
    ),
    { flags: ["head", "request"], reason: "-I sends HEAD" },
    ...["curl", "offline", "export"].map((other) => ({
      flags: ["openapi", other],
      reason: "--openapi checks a response dial receives",
    })),
    ...AUTH_CONFLICTS,
  ],
  flagHints: CURL_HINTS,
  epilog: EPILOG,
  run: async ({ args, flags, order }, context) => {
    const { runRequest } = await lazy.requestRun();
    return await runRequest([args.method, args.url, ...args.items], flags, context, order);
  },
});
