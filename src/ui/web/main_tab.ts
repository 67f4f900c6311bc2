/**
 * Which of the app's tabs (HTTP, GraphQL, WebSocket, SSE) is shown, remembered with the drafts.
 * A module of its own so the workspace can open a request in its tab.
 * @module
 */
import { isString, persisted } from "./storage.ts";

/** The tabs' ids. */
export const MAIN_TABS = ["http", "graphql", "ws", "sse", "grpc"] as const;

/** The selected tab's id. */
export const selectedTab = persisted(
  "tab",
  "http",
  (v): v is string => isString(v) && (MAIN_TABS as readonly string[]).includes(v),
);
