/**
 * Context for schema search: the current hit's path as a breadcrumb, and the list of hits
 * (`Type.field`, arguments, types; description matches marked) to jump to, by click or by the
 * arrow keys in the list.
 * @module
 */
import type { JSX } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { revealPath } from "./schema_tree.tsx";
import { stepHit } from "./search_box.tsx";
import { currentHit, currentHitPath, navigableHits, search } from "./state.ts";

/** @returns the breadcrumb of the current hit and the results list, while searching */
export function SearchResults(): JSX.Element | null {
  const list = useRef<HTMLUListElement>(null);
  const hits = navigableHits.value;
  const current = hits.length > 0 ? currentHit.value % hits.length : -1;
  // The current hit stays in the list's view as it steps.
  useEffect(() => {
    list.current?.querySelector(`#schema-hit-${current}`)?.scrollIntoView({ block: "nearest" });
  }, [current]);
  if (search.value.trim() === "") return null;
  const path = currentHitPath();
  return (
    <div class="search-results">
      {path && (
        <nav aria-label="Current match" class="breadcrumb">
          {path.split(".").map((part, i) => (
            <span key={i}>
              {i > 0 && <span aria-hidden="true">›</span>}
              {part}
            </span>
          ))}
        </nav>
      )}
      {/* Focusable (it scrolls): the arrow keys step through the hits, as Enter in the box. */}
      <ul
        role="listbox"
        aria-label="Search results"
        class="hit-list"
        tabIndex={0}
        ref={list}
        {...(current >= 0 ? { "aria-activedescendant": `schema-hit-${current}` } : {})}
        onKeyDown={(e) => {
          const by = e.key === "ArrowDown" ? 1 : e.key === "ArrowUp" ? -1 : 0;
          if (by === 0) return;
          e.preventDefault();
          stepHit(by);
        }}
      >
        {hits.map((hit, i) => (
          <li
            key={`${hit.label}-${i}`}
            id={`schema-hit-${i}`}
            role="option"
            aria-selected={i === current}
            onClick={() => {
              currentHit.value = i;
              if (hit.path) revealPath(hit.path);
            }}
          >
            <span class={`hit-kind ${hit.kind}`}>
              {hit.kind === "inputField" ? "input" : hit.kind}
            </span>
            {hit.label}
            {hit.inDescription && <span class="muted">(in its description)</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}
