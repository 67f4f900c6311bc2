/**
 * The curl spellings the request command accepts because they have one meaning in dial
 * (`-X`, `-I`, `-A`, `-e`, `-T`, `-G`, `--data-urlencode`, `--data-raw`, `-D`, `-w`, `--retry…`), and the
 * hints for curl flags dial deliberately does otherwise.
 * @module
 */
import { flags, type FlagValues } from "./declare.ts";

/** curl's flags that dial has under its own name or does differently: the hint names dial's way. */
export const CURL_HINTS: Readonly<Record<string, string>> = {
  "-O": "dial --download saves under the name from the server or the URL",
  "--remote-name": "dial --download saves under the name from the server or the URL",
  "-J": "dial --download uses the Content-Disposition name",
  "--remote-header-name": "dial --download uses the Content-Disposition name",
  "-S": "dial always shows errors, also with -s",
  "--show-error": "dial always shows errors, also with -s",
  "-N": "dial streams the body as it arrives; leave it out",
  "--no-buffer": "dial streams the body as it arrives; leave it out",
  "-n": "dial reads ~/.netrc by default (--no-netrc turns it off)",
  "--netrc": "dial reads ~/.netrc by default (--no-netrc turns it off)",
  "--netrc-optional": "dial reads ~/.netrc when it exists; leave it out",
  "-r": 'write -H "Range: bytes=0-99"',
  "--range": 'write -H "Range: bytes=0-99"',
  "--url": "give the URL as an argument: dial [METHOD] <url>",
  "--http1.1": "dial negotiates the protocol (HTTP/2 over TLS when offered); leave it out",
  "--http2": "dial negotiates the protocol (HTTP/2 over TLS when offered); leave it out",
  "-#": "dial shows a progress bar for -o on a terminal",
  "--progress-bar": "dial shows a progress bar for -o on a terminal",
  "--location-trusted": "dial never sends credentials to another origin; leave it out",
  "--oauth2-bearer": "write -B TOKEN",
  "--basic": "-u sends HTTP Basic; leave it out",
  "--retry-connrefused": "write --retry-all-errors (a refused connection is retried then)",
  "-Z": "run one dial per request, or a request file with dial run",
  "--create-dirs": "create the directory first; dial writes into an existing one",
  "--append": "curl appends only on FTP/SFTP uploads; over HTTP it does nothing: leave it out",
  "--socks5": "write -x socks5://HOST:PORT",
  "--socks5-hostname": "write -x socks5h://HOST:PORT (the proxy resolves the name)",
  "-q": "dial reads no .curlrc; its config file is $XDG_CONFIG_HOME/dial/config.json",
};

/** The request command's curl-habit flags. */
export const CURL_FLAGS = flags([
  {
    long: "request",
    short: "X",
    value: "method",
    help: "the method (instead of the METHOD argument), as curl -X",
  },
  { long: "head", short: "I", help: "send HEAD and print the head, as curl -I" },
  { long: "user-agent", short: "A", value: "text", help: "the User-Agent header" },
  { long: "referer", short: "e", value: "url", help: "the Referer header" },
  {
    long: "upload-file",
    short: "T",
    value: "file|-",
    file: true,
    help: "PUT the file (streamed) or stdin; a URL ending in / gets the file's name",
  },
  {
    long: "get",
    short: "G",
    help: "send -d and --data-urlencode data in the query of a GET, as curl -G",
  },
  {
    long: "data-urlencode",
    value: "[name]=text|[name]@file",
    repeatable: true,
    help: "urlencoded form data (joined with -d in the order given; the query with -G)",
  },
  {
    long: "data-raw",
    value: "text",
    repeatable: true,
    help: "as -d, but a leading @ is sent as it is (no file is read)",
  },
  {
    long: "dump-header",
    short: "D",
    value: "file|-",
    file: true,
    help: "write the response head to a file (- for stdout)",
  },
  {
    long: "retry",
    value: "n",
    kind: "count",
    help: "retry a timeout, unresolved host or HTTP 408/429/500/502/503/504 up to N times",
  },
  {
    long: "retry-delay",
    value: "seconds",
    kind: "seconds",
    help: "wait this long between retries (default 1 s, doubling; Retry-After wins)",
  },
  {
    long: "retry-max-time",
    value: "seconds",
    kind: "seconds",
    help: "start no retry later than this after the first attempt",
  },
  {
    long: "retry-all-errors",
    help: "with --retry: retry every failure, and POST/PATCH (with -f, 4xx/5xx too)",
  },
  {
    long: "compressed",
    help: "accepted as curl spells it: dial always asks for gzip and br and decodes them",
  },
  {
    long: "ignore-stdin",
    help: "accepted as HTTPie spells it: dial reads stdin only when told to (@-, -T -)",
  },
  {
    long: "write-out",
    short: "w",
    value: "format",
    help: "after the body, print the format with %{http_code}, %{time_total}… filled in",
  },
]);

/**
 * The curl arguments for the curl-habit flags that do not shape the request itself, for
 * `--curl` (the method, headers and body are in the request).
 *
 * @param values the flag values
 * @returns curl arguments
 */
export function curlHabitArgs(values: FlagValues<typeof CURL_FLAGS>): string[] {
  const seconds = (ms: number) => String(ms / 1000);
  return [
    ...(values.retry !== undefined ? ["--retry", String(values.retry)] : []),
    ...(values.retryDelay !== undefined ? ["--retry-delay", seconds(values.retryDelay)] : []),
    ...(values.retryMaxTime !== undefined
      ? ["--retry-max-time", seconds(values.retryMaxTime)]
      : []),
    ...(values.retryAllErrors ? ["--retry-all-errors"] : []),
    ...(values.dumpHeader !== undefined ? ["-D", values.dumpHeader] : []),
    ...(values.writeOut !== undefined ? ["-w", values.writeOut] : []),
  ];
}
