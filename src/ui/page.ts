/**
 * The app's one HTML page. At its top, before the style sheet, the inline bootstrap
 * (`web/boot.ts`) starts the session while the bundle downloads. With a workspace the page
 * carries the app's shell around the file list (header, auth band, sidebar), and the bootstrap
 * fetches the list's first screen with the session ({@link shellListHtml}, `POST
 * /api/workspace/shell`) into it: the list paints with the page's style sheet, before the app's
 * script has run, and no more rows whatever the workspace's size ({@link SHELL_ROWS} at most).
 * The page itself holds no file name: anyone on this machine can load it, and names are the
 * session's. The shell is a picture of the app's first frame, `inert` and hidden from assistive
 * technology; the app replaces it in one task when it renders (`web/main.tsx`): its tree, with
 * the same rows at the same places, is the one that takes focus and keys.
 * @module
 */
import { MAIN_TABS, SHELL_META } from "./protocol.ts";

/** The most file rows the shell carries: a screen's worth (26 are in view at 1280×860). */
export const SHELL_ROWS = 40;
/** Pixels per tree row (the style sheet's `--row-h`, `file_tree.tsx`'s `ROW_HEIGHT`). */
const ROW_HEIGHT = 24;

/** The shell's settings: what the workspace's kept state says the app's first frame shows. */
export interface WorkspaceShell {
  /** The sidebar's width (px) and the request kind shown, as the workspace's state keeps them. */
  sidebarWidth: number;
  kind: (typeof MAIN_TABS)[number];
}

/**
 * @param shell the shell's settings, when the page shows a workspace
 * @param boot the bootstrap's script (its hash is in the page's Content-Security-Policy);
 *   tests' servers go without
 * @returns the HTML page that starts the session and loads the bundle, with the app's shell
 */
export function indexHtml(shell?: WorkspaceShell, boot?: string): string {
  if (boot?.toLowerCase().includes("</script")) throw new Error("the bootstrap ends its tag");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>dial</title>
${shell ? `<meta name="${SHELL_META}">\n` : ""}${
    boot ? `<script>${boot}</script>\n` : ""
  }<link rel="stylesheet" href="/app.css">
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
 * The app's first frame (`app.tsx`, `sidebar.tsx`), its list left out (a `template` the
 * bootstrap replaces with {@link shellListHtml}): the same elements and classes, so the same
 * layout; the controls are stand-ins (no ids, no roles that name the app's landmarks or tab
 * list).
 */
function shellHtml(shell: WorkspaceShell): string {
  const tabs = MAIN_TABS.map((kind) =>
    `<button type="button" role="tab" aria-selected="${kind === shell.kind}">${
      LABELS[kind]
    }</button>`
  ).join("");
  return `<div class="app" data-shell inert aria-hidden="true">` +
    `<header><h1>dial</h1><div class="tablist">${tabs}</div>` +
    `<button type="button">Shortcuts</button><button type="button" class="new-window">New window</button>` +
    `<button type="button" class="clear-drafts">Clear saved drafts</button></header>` +
    `<section class="auth"><div class="field"><label>Auth</label><select><option>None</option></select></div></section>` +
    `<div class="body with-sidebar" style="--sidebar-width: ${shell.sidebarWidth}px;"><nav class="sidebar" aria-label="Workspace"><h2>Workspace</h2>` +
    `<label class="environment">Environment<select></select></label>` +
    `<div class="secret-form"><button type="button">Set a secret</button></div>` +
    `<template data-shell-list></template>` +
    `</nav><aside class="splitter-holder"><div class="splitter"></div></aside>` +
    `<main></main></div></div>`;
}

/**
 * The sidebar's list in the shell (`sidebar.tsx`, `file_tree.tsx` before the tree's first
 * paint): the filter box and the tree's first rows, every name escaped, or what an empty
 * workspace says.
 *
 * @param files the workspace's request files, in the app's order
 * @returns the HTML that takes the place of the shell's `template`
 */
export function shellListHtml(files: readonly string[]): string {
  const rows = files.slice(0, SHELL_ROWS).map((path, i) => {
    const name = escapeHtml(path);
    return `<li role="treeitem" aria-level="1" aria-posinset="${
      i + 1
    }" aria-setsize="${files.length}" aria-expanded="false" class="tree-row level-1" data-path="${name}" style="top: ${
      i * ROW_HEIGHT
    }px;"><button type="button" class="file" aria-expanded="false">${name}</button></li>`;
  }).join("");
  const empty = files.length === 0
    ? `<p class="muted">No .http files in this folder yet: use Save as.</p>`
    : "";
  return `${empty}<input type="search" class="tree-filter" placeholder="Filter requests (Ctrl+P: open)">` +
    `<ul role="tree" aria-label="Request files" class="file-tree" style="height: ${
      files.length * ROW_HEIGHT
    }px;">${rows}</ul>`;
}
