/**
 * Which of the app's tabs (HTTP, GraphQL, WebSocket, SSE) is shown, remembered with the drafts.
 * A module of its own so the workspace can open a request in its tab.
 * @module
 */
import { isString, persisted } from "./storage.ts";
import { MAIN_TABS } from "../protocol.ts";

export { MAIN_TABS };

/** The selected tab's id. */
export const selectedTab = persisted(
  "tab",
  "http",
  (v): v is string => isString(v) && (MAIN_TABS as readonly string[]).includes(v),
);
