/**
 * The app's one HTML page. With a workspace it carries the app's shell around the file list
 * (header, auth band, sidebar) and the list's first screen, so the list paints with the page's
 * style sheet, before the app's script has loaded: what a launch waits for no longer depends on
 * the bundle, the session, the workspace's calls or the tree's first render, nor on how many
 * files the workspace holds ({@link SHELL_ROWS} rows at most, whatever its size). The shell is
 * a picture of the app's first frame, `inert` and hidden from assistive technology; the app
 * replaces it in one task when it renders (`web/main.tsx`): its tree, with the same rows at the
 * same places, is the one that takes focus and keys.
 * @module
 */
import { MAIN_TABS } from "./protocol.ts";

/** The most file rows the page carries: a screen's worth (26 are in view at 1280×860). */
export const SHELL_ROWS = 40;
/** Pixels per tree row (the style sheet's `--row-h`, `file_tree.tsx`'s `ROW_HEIGHT`). */
const ROW_HEIGHT = 24;

/** The sidebar's content the page carries: the workspace's file count and its first files. */
export interface WorkspaceShell {
  /** How many request files the workspace holds (the tree's `aria-setsize`). */
  total: number;
  /** The first of them, by path, at most {@link SHELL_ROWS}. */
  first: readonly string[];
  /** The sidebar's width (px) and the request kind shown, as the workspace's state keeps them. */
  sidebarWidth: number;
  kind: (typeof MAIN_TABS)[number];
}

/**
 * @param shell the workspace's first files, when the page shows a workspace
 * @returns the HTML page that loads the bundle, with the app's shell and list when given
 */
export function indexHtml(shell?: WorkspaceShell): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>dial</title>
<link rel="stylesheet" href="/app.css">
<script type="module" src="/app.js"></script>
</head>
<body><div id="app">${shell ? shellHtml(shell) : ""}</div></body>
</html>
`;
}

/** @returns text or an attribute's value, safe in HTML */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The request kinds' tabs' labels, as the app's header shows them (`app.tsx`'s `TABS`). */
const LABELS: Readonly<Record<(typeof MAIN_TABS)[number], string>> = {
  http: "HTTP",
  graphql: "GraphQL",
  ws: "WebSocket",
  sse: "SSE",
  grpc: "gRPC",
};

/**
 * The app's first frame with the sidebar's list (`app.tsx`, `sidebar.tsx`, `file_tree.tsx`
 * before the tree's first paint): the same elements and classes, so the same layout; the
 * controls are stand-ins (no ids, no roles that name the app's landmarks or tab list).
 */
function shellHtml(shell: WorkspaceShell): string {
  const tabs = MAIN_TABS.map((kind) =>
    `<button type="button" role="tab" aria-selected="${kind === shell.kind}">${
      LABELS[kind]
    }</button>`
  ).join("");
  const rows = shell.first.slice(0, SHELL_ROWS).map((path, i) => {
    const name = escapeHtml(path);
    return `<li role="treeitem" aria-level="1" aria-posinset="${
      i + 1
    }" aria-setsize="${shell.total}" aria-expanded="false" class="tree-row level-1" data-path="${name}" style="top: ${
      i * ROW_HEIGHT
    }px;"><button type="button" class="file" aria-expanded="false">${name}</button></li>`;
  }).join("");
  const empty = shell.total === 0
    ? `<p class="muted">No .http files in this folder yet: use Save as.</p>`
    : "";
  return `<div class="app" data-shell inert aria-hidden="true">` +
    `<header><h1>dial</h1><div class="tablist">${tabs}</div>` +
    `<button type="button">Shortcuts</button><button type="button" class="new-window">New window</button>` +
    `<button type="button" class="clear-drafts">Clear saved drafts</button></header>` +
    `<section class="auth"><div class="field"><label>Auth</label><select><option>None</option></select></div></section>` +
    `<div class="body with-sidebar" style="--sidebar-width: ${shell.sidebarWidth}px;"><nav class="sidebar" aria-label="Workspace"><h2>Workspace</h2>` +
    `<label class="environment">Environment<select><option>No environment</option></select></label>` +
    `<div class="secret-form"><button type="button">Set a secret</button></div>${empty}` +
    `<input type="search" class="tree-filter" placeholder="Filter requests (Ctrl+P: open)">` +
    `<ul role="tree" aria-label="Request files" class="file-tree" style="height: ${
      shell.total * ROW_HEIGHT
    }px;">${rows}</ul>` +
    `</nav><aside class="splitter-holder"><div class="splitter"></div></aside>` +
    `<main></main></div></div>`;
}
