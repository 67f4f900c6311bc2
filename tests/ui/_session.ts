/**
 * Logs in to a UI server the way the page does: the launch token from the URL fragment is
 * traded once for the session secret, which every API call then sends in a header.
 * @module
 */
import assert from "node:assert/strict";
import type { UiServer } from "../../src/ui/server.ts";
import { LAUNCH_PARAM, SESSION_HEADER } from "../../src/ui/protocol.ts";

/**
 * @param launch a launch URL (`…/#launch=…`)
 * @returns the trade's response
 */
export function tradeLaunch(launch: URL): Promise<Response> {
  const token = new URLSearchParams(launch.hash.slice(1)).get(LAUNCH_PARAM) ?? "";
  return fetch(new URL("/api/session", launch), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ launch: token }),
  });
}

/**
 * @param server a UI server
 * @param launch the launch URL to use; default the server's first one
 * @returns the session secret
 */
export async function sessionOf(server: UiServer, launch: URL = server.url): Promise<string> {
  const response = await tradeLaunch(launch);
  assert.equal(response.status, 200);
  const { session } = await response.json();
  assert.equal(typeof session, "string");
  return session;
}

/**
 * @param session a session secret
 * @returns the headers of a JSON API call with it
 */
export function apiHeaders(session: string): Record<string, string> {
  return { "Content-Type": "application/json", [SESSION_HEADER]: session };
}
