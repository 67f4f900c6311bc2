/**
 * The part of the UI's wire protocol the page's inline bootstrap needs (`web/boot.ts`): the
 * session's names and shapes and the error shape, with no import, so the bootstrap stays small.
 * `protocol.ts` re-exports all of it: import from there elsewhere.
 * @module
 */

/** The request header that carries the session secret on every API call. */
export const SESSION_HEADER = "X-Dial-Session";

/** The URL fragment key of a one-time launch token: `http://127.0.0.1:PORT/#launch=…`. */
export const LAUNCH_PARAM = "launch";

/** Where the page keeps its session secret: per origin and per tab, gone with the tab. */
export const SESSION_STORAGE_KEY = "dial.session";

/** What to do without a session (a used launch link, a tab of an earlier dial ui). */
export const NO_SESSION_HINT =
  "open the link dial ui printed (each works once), or stop dial ui and start it again";

/** An error as the browser sees it, in every answer and every event. */
export interface ErrorJson {
  /** A stable code: `usage`, `transport`, `timeout`, `auth`, `unauthorized`, … */
  code: string;
  /** What went wrong, in words. */
  message: string;
  /** What to do about it, naming the UI's controls. */
  hint?: string;
  /** The HTTP status that refused a handshake or stream. */
  status?: number;
}

/**
 * `POST /api/session` asks: trade a one-time launch token for the session secret (with the
 * public half of the browser's key, for its later tabs), or `{challenge, signature}`: a
 * challenge of `POST /api/session/challenge` signed with that key.
 */
export interface SessionRequest {
  launch: string;
  /** The browser's ECDSA P-256 public key. */
  key?: JsonWebKey;
  /** Also the shell's list ({@link ShellListAnswer}'s `html`) in the answer: a launch's page. */
  shell?: boolean;
}

/** `POST /api/session` answers. */
export interface SessionAnswer {
  session: string;
  /** The shell's list, when a launch's trade asked for it and the server has a workspace. */
  shell?: string;
}

/**
 * `POST /api/workspace/shell` answers: the sidebar's list as the page's picture of the app's
 * first frame shows it (HTML, every name escaped: `src/ui/page.ts`).
 */
export interface ShellListAnswer {
  html: string;
}

/** The name of the `<meta>` by which a page says it holds the picture of a workspace. */
export const SHELL_META = "dial-shell";

/**
 * @param value anything
 * @returns whether it is a plain object
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads an {@link ErrorJson} from anything the other side sent.
 *
 * @param value an `error` member
 * @param fallback the message when there is none
 * @returns the error, with code `internal` when none came
 */
export function readErrorJson(value: unknown, fallback = "Unknown error"): ErrorJson {
  if (!isRecord(value)) return { code: "internal", message: fallback };
  return {
    code: typeof value.code === "string" ? value.code : "internal",
    message: typeof value.message === "string" ? value.message : fallback,
    ...(typeof value.hint === "string" ? { hint: value.hint } : {}),
    ...(typeof value.status === "number" ? { status: value.status } : {}),
  };
}

/**
 * Reads the {@link ErrorJson} of an error answer (`{"error": {…}}`), whatever its body holds.
 *
 * @param response an answer that is not ok
 * @returns its error, or one naming the HTTP status when the body has none
 */
export async function readErrorResponse(response: Response): Promise<ErrorJson> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  return readErrorJson(
    isRecord(body) ? body.error : undefined,
    `The dial server answered ${response.status}`,
  );
}
