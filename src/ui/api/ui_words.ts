/**
 * The one source of the UI's wording for core and CLI text. The CLI's messages and hints name
 * flags; the desktop UI has controls instead, so a hint in the UI says "raise Login timeout",
 * never `--oauth2-timeout`. A hint that still names a flag after this is dropped.
 * @module
 */

/** Whole hints about CLI flags, and what to say in the UI instead (first match wins). */
const HINTS: ReadonlyArray<[RegExp, string]> = [
  [/credentials \(-u, -B/, "check the auth panel and the headers you added"],
  [/--init-payload/, "check the credentials in the auth panel"],
  [/token URL in --oauth2/, "check the Token URL in the auth panel"],
  [/--oauth2-port/, "pick another Callback port in the auth panel"],
  [/--oauth2-timeout/, "press Log in again, or raise Login timeout in the auth panel"],
  [/--max-redirects|^drop -L/, "untick Follow redirects to see the redirect"],
  [/--subprotocol/, "check Subprotocols against what the server supports"],
  [/--timeout/, "raise Timeout in the tab"],
  // TLS trust is chosen when dial ui starts: those flags are dial ui's own.
  [
    /--cacert/,
    "start dial ui with --cacert file.pem to trust its CA, or with -k to skip verification (insecure)",
  ],
  [/^write -H/, "write the header as Name in one column and the value in the other"],
];

/** Words inside messages (and hints not rewritten whole): flags become the UI's controls. */
const WORDS: ReadonlyArray<[RegExp, string]> = [
  // The runtime's error chain after a known reason says nothing more to a person.
  [
    /^(Cannot reach \S+: (?:connection refused|host not found|connection reset|port blocked by the runtime|connection closed early|connection timed out)) \(.*\)$/s,
    "$1",
  ],
  [/\(-u, -B, -K, -H, --oauth2\)/g, "(the auth panel)"],
  [/--oauth2-client-auth/g, "Client authentication"],
  [/--oauth2-timeout/g, "Login timeout"],
  [/--oauth2-port/g, "Callback port"],
  [/--oauth2-scope/g, "Scope"],
  [/--oauth2-auth-url/g, "Authorization URL"],
  [/--oauth2-username/g, "OAuth username"],
  [/--oauth2-password/g, "OAuth password"],
  [/in --oauth2\b/g, "in the auth panel"],
  [/--oauth2\b/g, "the auth panel"],
  [/--subprotocol\b/g, "Subprotocols"],
  [/--init-payload\b/g, "the connection_init payload"],
];

/** A flag such as `-u` or `--oauth2-port` (in a hint not rewritten above). */
const FLAG = /(^|[\s(,`"'])--?[A-Za-z][\w-]*/;

/**
 * @param text a message written for the CLI
 * @returns the same text naming the UI's controls instead of flags, without the runtime's
 * error chain
 */
export function uiMessage(text: string): string {
  let out = text;
  for (const [pattern, words] of WORDS) out = out.replace(pattern, words);
  return out;
}

/**
 * @param hint a hint from the core or the CLI's value parsers
 * @returns the same advice naming the UI's controls, or undefined when it only makes sense
 * on the command line
 */
export function uiHint(hint: string | undefined): string | undefined {
  if (hint === undefined) return undefined;
  for (const [pattern, text] of HINTS) if (pattern.test(hint)) return text;
  const worded = uiMessage(hint);
  return FLAG.test(worded) ? undefined : worded;
}
