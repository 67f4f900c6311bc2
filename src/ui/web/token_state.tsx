/**
 * OAuth 2.0 token state as the server reports it (obtained, expires in, refreshed), never the
 * token itself; "Get token" (or "Log in" for the authorization-code flow, which opens the
 * provider's login in a new tab).
 * @module
 */
import { signal } from "@preact/signals";
import type { JSX } from "preact";
import { useEffect } from "preact/hooks";
import { ApiError, isRecord, ndjson, ndjsonError, post, postJson } from "./api.ts";
import type { TokenStateJson } from "../protocol.ts";
import { auth, authJson } from "./auth_state.ts";

/** What the server knows about the token, times in epoch ms. */
type TokenInfo = TokenStateJson;

const info = signal<TokenInfo | null | undefined>(undefined);
const message = signal<string | undefined>(undefined);
/** What the OAuth 2.0 step said the person should know (the CLI's stderr warning). */
const notice = signal<string | undefined>(undefined);

/**
 * Shows (or, with undefined, clears) a notice of the OAuth 2.0 step under the token state:
 * the Send of a tab reports those of its token request here.
 *
 * @param text the notice's one line
 */
export function showOAuthNotice(text: string | undefined): void {
  notice.value = text;
}
const busy = signal(false);
/** The device flow's code while the login is pending: the link (http(s) only) and the code. */
const device = signal<{ uri: string | undefined; shownUri: string; code: string } | undefined>(
  undefined,
);

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

/** Asks the server for the token state of the current OAuth settings. */
export async function refreshTokenState(): Promise<void> {
  if (auth.kind.peek() !== "oauth2") return;
  try {
    const answer = await postJson("/api/auth/state", { auth: authJson.peek() });
    info.value = isRecord(answer) ? parseInfo(answer.state) : null;
  } catch {
    info.value = undefined;
  }
}

/**
 * @returns whether the panel's authorization-code flow holds no usable token, so a request
 * would need the browser login first (unknown state counts as usable: the server then says
 * "Log in first" at once)
 */
export function needsLogin(): boolean {
  if (auth.kind.peek() !== "oauth2" || auth.flow.peek() !== "authorization_code") return false;
  const state = info.peek();
  if (state === undefined) return false;
  if (state === null) return true;
  return state.expiresAt !== undefined && state.expiresAt <= Date.now() && !state.hasRefreshToken;
}

/**
 * Runs the same login as "Log in" when {@link needsLogin}. Call it straight from a click or
 * key handler (before any await), so the browser lets it open the login tab.
 *
 * @returns whether to go on: no login was needed, or it succeeded
 */
export async function loginIfNeeded(): Promise<boolean> {
  if (!needsLogin()) return true;
  await getToken();
  return !needsLogin();
}

/** The last login or token message, e.g. why the login failed. */
export function tokenMessage(): string | undefined {
  return message.peek();
}

async function getToken(): Promise<void> {
  busy.value = true;
  message.value = undefined;
  notice.value = undefined;
  // Opened now, while the click still counts as a user gesture; pointed at the login later.
  // Cut from this page at once (noopener by hand): the provider's page gets no opener.
  const loginTab = auth.flow.value === "authorization_code" ? globalThis.open("", "_blank") : null;
  if (loginTab) loginTab.opener = null;
  let loginShown = false;
  try {
    const response = await post("/api/auth/token", { auth: authJson.value });
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
}

function ago(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  return `${Math.round(s / 3600)} h`;
}

/** @returns the token state line and its button */
export function TokenState(): JSX.Element {
  useEffect(() => {
    refreshTokenState();
    const timer = setInterval(() => now.value = Date.now(), 1000);
    return () => clearInterval(timer);
  }, [authJson.value]);
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
  return (
    <div class="token">
      <p class="token-state" role="status" data-testid="token-state">{text}</p>
      <button type="button" onClick={getToken} disabled={busy.value}>
        {auth.flow.value === "authorization_code" ? "Log in" : "Get token"}
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
