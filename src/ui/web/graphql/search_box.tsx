/**
 * The schema search box: matches highlighted in the tree, their parents expanded, a count,
 * Enter (Shift+Enter backwards) to step through them.
 * @module
 */
import type { JSX } from "preact";
import { revealPath } from "./schema_tree.tsx";
import {
  currentHit,
  currentHitPath,
  loadedSchema,
  navigableHits,
  search,
  searchIndex,
  searchResult,
  setSearch,
} from "./state.ts";

/**
 * Makes the hit `by` places on (backwards when negative) the current one, and shows it.
 *
 * @param by how many hits on
 */
export function stepHit(by: number): void {
  const hits = navigableHits.value;
  if (hits.length === 0) return;
  currentHit.value = (currentHit.value + by + hits.length) % hits.length;
  const path = currentHitPath();
  if (path) revealPath(path);
}

/** @returns the search box and its match count */
export function SearchBox(): JSX.Element {
  const { total } = searchResult.value;
  const hits = navigableHits.value;
  const active = search.value.trim() !== "";
  return (
    <div class="search">
      <input
        type="search"
        role="searchbox"
        aria-label="Search schema"
        placeholder={loadedSchema() && !searchIndex.value
          ? "Indexing the schema…"
          : "Search schema"}
        value={search.value}
        disabled={!searchIndex.value}
        onInput={(e) => {
          setSearch(e.currentTarget.value);
          const first = currentHitPath();
          if (first) revealPath(first);
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            stepHit(e.shiftKey ? -1 : 1);
          } else if (e.key === "Escape") {
            setSearch("");
          }
        }}
      />
      <span class="count" role="status" aria-live="polite">
        {active
          ? `${total} ${total === 1 ? "match" : "matches"}${
            hits.length > 0 ? `, ${(currentHit.value % hits.length) + 1} of ${hits.length}` : ""
          }${total > searchResult.value.hits.length ? ` (the best ${hits.length} listed)` : ""}`
          : ""}
      </span>
    </div>
  );
}
