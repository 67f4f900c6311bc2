/**
 * Context for schema search: the current hit's path as a breadcrumb, and the list of hits
 * (`Type.field`, arguments, types; description matches marked) to jump to.
 * @module
 */
import type { JSX } from "preact";
import { revealPath } from "./schema_tree.tsx";
import { currentHit, currentHitPath, navigableHits, search } from "./state.ts";

/** @returns the breadcrumb of the current hit and the results list, while searching */
export function SearchResults(): JSX.Element | null {
  if (search.value.trim() === "") return null;
  const hits = navigableHits.value;
  const path = currentHitPath();
  const current = hits.length > 0 ? currentHit.value % hits.length : -1;
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
      <ul role="listbox" aria-label="Search results" class="hit-list">
        {hits.map((hit, i) => (
          <li
            key={`${hit.label}-${i}`}
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
