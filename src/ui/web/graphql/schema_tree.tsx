/**
 * The schema tree: an ARIA tree (`tree`, `treeitem`, `aria-expanded`, `aria-level`, arrow
 * keys) that renders only the rows in view, so GitHub's schema stays fast. Each field has a
 * checkbox named after it that drives the query builder; optional arguments can be switched on.
 * @module
 */
import { signal } from "@preact/signals";
import type { JSX } from "preact";
import { useEffect, useLayoutEffect, useRef } from "preact/hooks";
import { parentPath } from "../../../graphql/paths.ts";
import type { SchemaNode } from "../../../graphql/schema_model.ts";
import {
  builder,
  currentHitPath,
  expanded,
  focusedPath as focused,
  rows,
  search,
  toggleExpanded,
  treeScroll as scrollTop,
} from "./state.ts";
import { toggleArgument, toggleField } from "./sync.ts";
import type { TreeRow } from "./tree_rows.ts";

/** Height of one row in pixels (the CSS uses the same). */
export const ROW_HEIGHT = 24;
const OVERSCAN = 12;
const ON_PREFIX = "... on ";

const viewHeight = signal(600);

/**
 * Scrolls the tree so a path's row is in view and marks it focused.
 *
 * @param path a visible path
 */
export function revealPath(path: string): void {
  const index = rows.value.findIndex((r) => r.node.path === path);
  if (index < 0) return;
  focused.value = path;
  const top = index * ROW_HEIGHT;
  if (top < scrollTop.value || top + ROW_HEIGHT > scrollTop.value + viewHeight.value) {
    scrollTop.value = Math.max(0, top - viewHeight.value / 2);
  }
}

/** @returns the tree */
export function SchemaTree(): JSX.Element {
  const host = useRef<HTMLDivElement>(null);
  const all = rows.value;
  // When the tree gets shorter (a search cleared, a node collapsed) the browser clamps its
  // scroll position and reports it only on the next scroll event; clamp here too, so this
  // render already paints the rows the user will see instead of an empty window.
  const top = Math.min(scrollTop.value, Math.max(0, all.length * ROW_HEIGHT - viewHeight.value));
  const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(all.length, Math.ceil((top + viewHeight.value) / ROW_HEIGHT) + OVERSCAN);
  const focusPath = focused.value ?? all[0]?.node.path;
  const query = search.value.trim().toLowerCase();
  const current = currentHitPath();

  // A layout effect: it must run before the browser reports the scroll position it clamped
  // when the tree got shorter, or that report would win over revealPath's.
  useLayoutEffect(() => {
    const element = host.current;
    if (!element) return;
    if (Math.abs(element.scrollTop - scrollTop.value) > 1) element.scrollTop = scrollTop.value;
    const observer = new ResizeObserver(() => viewHeight.value = element.clientHeight || 600);
    observer.observe(element);
    return () => observer.disconnect();
  });
  useEffect(() => {
    const element = host.current;
    if (!element || !focused.value || !element.contains(document.activeElement)) return;
    const row = element.querySelector<HTMLElement>(`[data-path="${CSS.escape(focused.value)}"]`);
    if (row && document.activeElement !== row) row.focus({ preventScroll: true });
  });

  const onKeyDown = (event: KeyboardEvent) => {
    if (treeKey(event.key, all, focusPath)) event.preventDefault();
  };

  return (
    <div
      ref={host}
      role="tree"
      aria-label="Schema"
      class="tree"
      onScroll={(e) => scrollTop.value = e.currentTarget.scrollTop}
      onKeyDown={onKeyDown}
    >
      <div class="tree-space" style={{ height: `${all.length * ROW_HEIGHT}px` }}>
        {all.slice(first, last).map((row, i) => (
          <Row
            key={row.node.path}
            row={row}
            top={(first + i) * ROW_HEIGHT}
            focusable={row.node.path === focusPath}
            query={query}
            current={row.node.path === current}
          />
        ))}
      </div>
    </div>
  );
}

/**
 * Moves through the tree by key as an ARIA tree does (arrows, Home, End, Enter, Space).
 *
 * @returns whether the key was the tree's
 */
function treeKey(key: string, all: readonly TreeRow[], focusPath: string | undefined): boolean {
  const index = all.findIndex((r) => r.node.path === focusPath);
  const row = all[index];
  if (!row) return false;
  const move = (to: number) => {
    const target = all[Math.max(0, Math.min(all.length - 1, to))];
    if (target) revealPath(target.node.path);
  };
  const node = row.node;
  const isOpen = expanded.value.has(node.path);
  switch (key) {
    case "ArrowDown":
      move(index + 1);
      return true;
    case "ArrowUp":
      move(index - 1);
      return true;
    case "Home":
      move(0);
      return true;
    case "End":
      move(all.length - 1);
      return true;
    case "ArrowRight":
      if (node.expandable && !isOpen) toggleExpanded(node.path, true);
      else if (node.expandable) move(index + 1);
      return true;
    case "ArrowLeft": {
      if (node.expandable && isOpen) toggleExpanded(node.path, false);
      else {
        const parent = parentPath(node.path);
        if (parent !== undefined) revealPath(parent);
      }
      return true;
    }
    case "Enter":
      if (node.expandable) toggleExpanded(node.path);
      return true;
    case " ":
      toggleNode(node);
      return true;
    default:
      return false;
  }
}

function toggleNode(node: SchemaNode): void {
  if (node.kind === "field" || node.kind === "on") toggleField(node.path);
  else if (node.kind === "argument") toggleArgument(node.path);
}

function Row(props: {
  row: TreeRow;
  top: number;
  focusable: boolean;
  query: string;
  current: boolean;
}): JSX.Element {
  const { node, level, position, setSize } = props.row;
  const open = expanded.value.has(node.path);
  const state = builder.value;
  const checkable = node.kind === "field" || node.kind === "on" || node.kind === "argument";
  const checked = node.kind === "argument"
    ? node.path in state.args
    : state.fields.includes(node.path);
  const label = node.kind === "on" ? `on ${node.name}` : node.name;
  return (
    <div
      role="treeitem"
      data-path={node.path}
      aria-level={level}
      aria-posinset={position}
      aria-setsize={setSize}
      aria-expanded={node.expandable ? open : undefined}
      aria-current={props.current ? "true" : undefined}
      tabIndex={props.focusable ? 0 : -1}
      class={`row kind-${node.kind}${props.current ? " current" : ""}`}
      style={{ top: `${props.top}px`, paddingLeft: `${(level - 1) * 16 + 4}px` }}
      onFocus={(e) => {
        if (e.target === e.currentTarget) focused.value = node.path;
      }}
      title={node.description}
    >
      <span
        class="twisty"
        aria-hidden="true"
        onClick={() => node.expandable && toggleExpanded(node.path)}
      >
        {node.expandable ? (open ? "▾" : "▸") : ""}
      </span>
      {checkable && node.kind !== "root" && (
        <input
          type="checkbox"
          tabIndex={-1}
          checked={checked}
          aria-label={node.kind === "argument" ? `Argument ${node.name}` : label}
          onClick={(e) => e.stopPropagation()}
          onChange={() => toggleNode(node)}
        />
      )}
      <span
        class="name"
        onClick={() => {
          focused.value = node.path;
          if (node.expandable) toggleExpanded(node.path);
        }}
      >
        {node.kind === "on" && <span class="kw">{ON_PREFIX}</span>}
        {node.kind === "argument" && <span class="kw">(</span>}
        <Highlighted text={node.name} query={props.query} />
        {node.kind === "argument" && <span class="kw">)</span>}
      </span>
      {node.kind !== "on" && node.kind !== "root" && (
        <span class="type">
          : {node.typeLabel}
          {node.required && node.kind === "argument" ? " (required)" : ""}
        </span>
      )}
      {node.defaultValue !== undefined && <span class="default">{` = ${node.defaultValue}`}</span>}
      {node.deprecationReason && (
        <span class="deprecated" title={node.deprecationReason}>
          deprecated: {node.deprecationReason}
        </span>
      )}
      {node.description && <span class="description">{firstLine(node.description)}</span>}
    </div>
  );
}

function Highlighted(props: { text: string; query: string }): JSX.Element {
  const { text, query } = props;
  const at = query === "" ? -1 : text.toLowerCase().indexOf(query);
  if (at < 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, at)}
      <mark>{text.slice(at, at + query.length)}</mark>
      {text.slice(at + query.length)}
    </>
  );
}

function firstLine(text: string): string {
  const line = text.split("\n")[0] ?? "";
  return line.length > 120 ? `${line.slice(0, 117)}…` : line;
}
