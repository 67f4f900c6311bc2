/**
 * The stream tabs' styles, kept with their components and added once at first render (the
 * page's CSP allows inline styles).
 * @module
 */

const CSS = `
.stream .options { display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: flex-end; }
.conn-state { font-size: 13px; color: var(--muted); align-self: center; }
.conn-state.open { color: var(--good); font-weight: 600; }
.conn-state.connecting, .conn-state.reconnecting, .conn-state.closing { color: var(--warn); }
.close-info { font: 13px ui-monospace, monospace; margin: 4px 0; }
.policy { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 13px; margin: 6px 0; }
.policy dt { color: var(--muted); }
.policy dd { margin: 0 8px 0 4px; font-family: ui-monospace, monospace; }
.policy div { display: flex; }
.composer { margin: 8px 0; }
.saved { list-style: none; padding: 0; margin: 4px 0; }
.saved li { display: flex; gap: 6px; align-items: center; padding: 2px 0; white-space: nowrap; overflow: hidden; }
.saved .data { overflow: hidden; text-overflow: ellipsis; font-family: ui-monospace, monospace; }
.stream-log { margin-top: 8px; }
.log-toolbar { display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: flex-end; margin-bottom: 4px; }
.log-count { font-size: 12px; color: var(--muted); align-self: center; }
.log-list {
  position: relative; height: 360px; min-height: 120px; overflow-y: auto; resize: vertical;
  border: 1px solid var(--line); border-radius: 4px; background: var(--panel);
  font: 12px/24px ui-monospace, SFMono-Regular, Menlo, monospace; contain: strict;
}
.log-spacer { position: relative; }
.log-row {
  position: absolute; left: 0; right: 0; height: 24px; margin: 0; display: flex; gap: 10px;
  padding: 0 8px; white-space: nowrap; overflow: hidden; cursor: pointer;
  border-bottom: 1px solid color-mix(in srgb, var(--line) 50%, transparent);
}
.log-row:hover { background: color-mix(in srgb, var(--accent) 8%, transparent); }
.log-row.selected { background: color-mix(in srgb, var(--accent) 18%, transparent); }
.log-row time { color: var(--muted); flex: none; }
.log-row .dir, .log-row .type { flex: none; width: 9ch; overflow: hidden; text-overflow: ellipsis; }
.log-row .size, .log-row .id { flex: none; width: 8ch; color: var(--muted); overflow: hidden; text-overflow: ellipsis; }
.log-row .data { overflow: hidden; text-overflow: ellipsis; }
.log-row.in .dir { color: var(--good); }
.log-row.out .dir { color: var(--accent); }
.log-row.info { color: var(--muted); font-style: italic; }
.log-row.error { color: var(--bad); }
.log-detail pre {
  max-height: 320px; overflow: auto; margin: 0; padding: 8px; border: 1px solid var(--line);
  border-radius: 4px; background: var(--panel); font: 12px ui-monospace, monospace; white-space: pre-wrap;
}
.log-detail .meta { display: flex; gap: 12px; align-items: center; font-size: 12px; }
`;

let added = false;

/** Adds the stream tabs' style sheet to the page once. */
export function ensureStreamStyles(): void {
  if (added || typeof document === "undefined") return;
  added = true;
  const style = document.createElement("style");
  style.dataset.owner = "dial-stream";
  style.textContent = CSS;
  document.head.append(style);
}
