/**
 * The drafts' second home: the workspace's `.dial/ui-state.json`, through the server
 * (`POST /api/state/load` and `/save`), so a restart on another port and other tabs of the
 * same `dial ui` find them. Changes are sent in batches; the last one outlives a closing tab.
 * @module
 */
import { isRecord, post, postJson, sessionSecret } from "./api.ts";
import { SESSION_HEADER } from "../protocol.ts";
import { setDraftSink } from "./storage.ts";

/** Changes not yet sent: key (without prefix) → JSON text. */
let unsent: Record<string, string> = {};
let sendTimer: ReturnType<typeof setTimeout> | undefined;
let sending = 0;

/** `<html data-drafts="pending|saved">`: whether every change has reached the workspace. */
function mark(): void {
  const idle = sendTimer === undefined && sending === 0;
  document.documentElement.dataset.drafts = idle ? "saved" : "pending";
}

function sendSoon(key: string, text: string): void {
  unsent[key] = text;
  sendTimer ??= setTimeout(sendNow, 300);
  mark();
}

function sendNow(): void {
  clearTimeout(sendTimer);
  sendTimer = undefined;
  const values = unsent;
  unsent = {};
  if (Object.keys(values).length === 0) return mark();
  sending++;
  mark();
  // Best effort (the page keeps working on localStorage when the server is gone); keepalive
  // lets the last save outlive a closing tab.
  void fetch("/api/state/save", {
    method: "POST",
    keepalive: true,
    headers: { "Content-Type": "application/json", [SESSION_HEADER]: sessionSecret() },
    body: JSON.stringify({ values }),
  }).then((r) => r.body?.cancel()).catch(() => {}).finally(() => {
    sending--;
    mark();
  });
}

/**
 * Copies the workspace's remembered state into localStorage (before the tabs read it) and
 * sends every later change back.
 *
 * @returns when done (failures leave localStorage as it was)
 */
export async function loadWorkspaceState(): Promise<void> {
  setDraftSink(sendSoon);
  globalThis.addEventListener("pagehide", sendNow);
  try {
    const answer = await postJson("/api/state/load", {});
    if (!isRecord(answer) || !isRecord(answer.values)) return;
    for (const [key, value] of Object.entries(answer.values)) {
      if (typeof value === "string") localStorage.setItem(`dial.${key}`, value);
    }
  } catch {
    // an older server, or storage unavailable: the drafts of this origin stay
  }
}

/** "Clear saved drafts": forgets the workspace's state too, and drops unsent changes. */
export function clearWorkspaceState(): void {
  clearTimeout(sendTimer);
  unsent = {};
  void post("/api/state/save", { values: {}, clear: true }).then((r) => r.body?.cancel())
    .catch(() => {});
}
