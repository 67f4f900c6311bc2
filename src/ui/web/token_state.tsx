/**
 * OAuth 2.0 token state as the server reports it (obtained, expires in, refreshed), never the
 * token itself; "Get token" (or "Log in" for the authorization-code flow, which opens the
 * provider's login in a new tab).
 * @module
 */
import { type Signal, signal } from "@preact/signals";
import type { JSX } from "preact";
import { useEffect } from "preact/hooks";
import { ApiError, isRecord, ndjson, ndjsonError, post, postJson } from "./api.ts";
import type { TokenStateJson } from "../protocol.ts";
import { auth, authJson } from "./auth_state.ts";

/** What the server knows about the token, times in epoch ms. */
type TokenInfo = TokenStateJson;

/** A provider's page is linked only when it is http(s). */
function safeLink(text: unknown): string | undefined {
  if (typeof text !== "string") return undefined;
  try {
    const url = new URL(text);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}
const now = signal(Date.now());

function parseInfo(value: unknown): TokenInfo | null {
  if (!isRecord(value) || typeof value.obtainedAt !== "number") return null;
  return {
    obtainedAt: value.obtainedAt,
    ...(typeof value.expiresAt === "number" ? { expiresAt: value.expiresAt } : {}),
    ...(typeof value.refreshedAt === "number" ? { refreshedAt: value.refreshedAt } : {}),
    hasRefreshToken: value.hasRefreshToken === true,
  };
}

/**
 * The token of one OAuth 2.0 configuration as the server's cache holds it: the auth panel's,
 * or an environment's `Security.Auth` one. Both go through `/api/auth/state` and
 * `/api/auth/token`, the same token step and cache.
 */
export interface TokenTracker {
  /** The cache's state: undefined while unknown, null when no token is held. */
  info: Signal<TokenInfo | null | undefined>;
  /** The last login or token message, e.g. why the login failed. */
  message: Signal<string | undefined>;
  /** What the OAuth 2.0 step said the person should know (the CLI's stderr warning). */
  notice: Signal<string | undefined>;
  busy: Signal<boolean>;
  /** The device flow's code while the login is pending. */
  device: Signal<{ uri: string | undefined; shownUri: string; code: string } | undefined>;
  /** Asks the server for the state. */
  refresh(): Promise<void>;
  /** Gets a token now: cached, refreshed, or by the flow (the login opens in a new tab). */
  get(): Promise<void>;
  /** Whether a request would need the browser login first. */
  needsLogin(): boolean;
}

/**
 * @param body the call's JSON (`{auth}` or `{securityAuth}`), or undefined when not OAuth 2.0
 * @param browserLogin whether the flow logs in in a browser (authorization code)
 * @returns a tracker of that configuration's token
 */
export function tokenTracker(
  body: () => Record<string, unknown> | undefined,
  browserLogin: () => boolean,
): TokenTracker {
  const info = signal<TokenInfo | null | undefined>(undefined);
  const message = signal<string | undefined>(undefined);
  const notice = signal<string | undefined>(undefined);
  const busy = signal(false);
  const device = signal<TokenTracker["device"]["value"]>(undefined);
  const refresh = async () => {
    const json = body();
    if (!json) return;
    try {
      const answer = await postJson("/api/auth/state", json);
      info.value = isRecord(answer) ? parseInfo(answer.state) : null;
    } catch {
      info.value = undefined;
    }
  };
  const needsLogin = () => {
    if (!body() || !browserLogin()) return false;
    const state = info.peek();
    if (state === undefined) return false;
    if (state === null) return true;
    return state.expiresAt !== undefined && state.expiresAt <= Date.now() &&
      !state.hasRefreshToken;
  };
  const get = async () => {
    const json = body();
    if (!json) return;
    busy.value = true;
    message.value = undefined;
    notice.value = undefined;
    // Opened now, while the click still counts as a user gesture; pointed at the login later.
    // Cut from this page at once (noopener by hand): the provider's page gets no opener.
    const loginTab = browserLogin() ? globalThis.open("", "_blank") : null;
    if (loginTab) loginTab.opener = null;
    let loginShown = false;
    try {
      const response = await post("/api/auth/token", json);
      for await (const event of ndjson(response)) {
        if (!isRecord(event)) continue;
        if (event.type === "login" && typeof event.url === "string") {
          if (loginTab) loginTab.location.href = event.url;
          else globalThis.open(event.url, "_blank", "noopener,noreferrer");
          loginShown = true;
          message.value = "Log in in the new tab, then come back here";
        } else if (
          event.type === "device" && typeof event.verificationUri === "string" &&
          typeof event.userCode === "string"
        ) {
          device.value = {
            uri: safeLink(event.verificationUriComplete) ?? safeLink(event.verificationUri),
            shownUri: String(event.verificationUri),
            code: event.userCode,
          };
        } else if (event.type === "notice" && typeof event.message === "string") {
          notice.value = event.message;
        } else if (event.type === "state") {
          device.value = undefined;
          info.value = parseInfo(event.state);
          message.value = undefined;
        } else if (event.type === "error") {
          const error = ndjsonError(event)!;
          message.value = error.message + (error.hint ? ` (${error.hint})` : "");
        }
      }
    } catch (error) {
      message.value = error instanceof ApiError ? error.message : String(error);
    } finally {
      device.value = undefined;
      // A cached or refreshed token needed no login: close the tab opened for it.
      if (loginTab && !loginShown) loginTab.close();
      busy.value = false;
    }
  };
  return { info, message, notice, busy, device, refresh, get, needsLogin };
}

/** The auth panel's token. */
const panel = tokenTracker(
  () => auth.kind.peek() === "oauth2" ? { auth: authJson.peek() } : undefined,
  () => auth.flow.peek() === "authorization_code",
);

/** Asks the server for the token state of the current OAuth settings. */
export function refreshTokenState(): Promise<void> {
  return panel.refresh();
}

/**
 * @returns whether the panel's authorization-code flow holds no usable token, so a request
 * would need the browser login first (unknown state counts as usable: the server then says
 * "Log in first" at once)
 */
export function needsLogin(): boolean {
  return panel.needsLogin();
}

/**
 * Runs the same login as "Log in" when {@link needsLogin}. Call it straight from a click or
 * key handler (before any await), so the browser lets it open the login tab.
 *
 * @returns whether to go on: no login was needed, or it succeeded
 */
export async function loginIfNeeded(): Promise<boolean> {
  if (!needsLogin()) return true;
  await panel.get();
  return !needsLogin();
}

/**
 * Shows (or, with undefined, clears) a notice of the OAuth 2.0 step under the panel's token
 * state: the Send of a tab reports those of its token request here.
 *
 * @param text the notice's one line
 */
export function showOAuthNotice(text: string | undefined): void {
  panel.notice.value = text;
}

/** The last login or token message, e.g. why the login failed. */
export function tokenMessage(): string | undefined {
  return panel.message.peek();
}

function ago(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  return `${Math.round(s / 3600)} h`;
}

/** @returns the auth panel's token state line and its button */
export function TokenState(): JSX.Element {
  useEffect(() => {
    void panel.refresh();
  }, [authJson.value]);
  return <TokenView tracker={panel} login={auth.flow.value === "authorization_code"} />;
}

/**
 * @param props the tracker, whether its flow logs in in a browser, and the button's name
 * @returns a token's state line, its Get token or Log in button, the device code and messages
 */
export function TokenView(
  props: { tracker: TokenTracker; login: boolean; label?: string },
): JSX.Element {
  const { info, busy, device, message, notice } = props.tracker;
  useEffect(() => {
    const timer = setInterval(() => now.value = Date.now(), 1000);
    return () => clearInterval(timer);
  }, []);
  const state = info.value;
  const time = now.value;
  let text = state === undefined ? "Token: checking…" : "Token: not obtained yet";
  if (state) {
    const parts = [`obtained ${new Date(state.obtainedAt).toLocaleTimeString()}`];
    if (state.expiresAt !== undefined) {
      parts.push(state.expiresAt > time ? `expires in ${ago(state.expiresAt - time)}` : "expired");
    }
    if (state.refreshedAt !== undefined) {
      parts.push(`refreshed ${new Date(state.refreshedAt).toLocaleTimeString()}`);
    }
    if (state.hasRefreshToken) parts.push("refresh token held");
    text = `Token: ${parts.join(" · ")}`;
  }
  const name = props.login ? "Log in" : "Get token";
  return (
    <div class="token">
      <p class="token-state" role="status" data-testid="token-state">{text}</p>
      <button
        type="button"
        onClick={() => void props.tracker.get()}
        disabled={busy.value}
        {...(props.label ? { "aria-label": `${name} ${props.label}` } : {})}
      >
        {name}
      </button>
      {device.value && (
        <div class="device-code" role="dialog" aria-label="Device login">
          <p>
            To log in, open {device.value.uri
              ? (
                <a href={device.value.uri} target="_blank" rel="noopener noreferrer">
                  {device.value.shownUri}
                </a>
              )
              : device.value.shownUri} and enter the code
          </p>
          <p class="user-code" data-testid="user-code">{device.value.code}</p>
        </div>
      )}
      {message.value && <p class="token-message" role="alert">{message.value}</p>}
      {notice.value && (
        <p class="token-notice" role="status" data-testid="token-notice">
          Warning: {notice.value}
        </p>
      )}
    </div>
  );
}
