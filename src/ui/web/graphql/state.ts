/**
 * The GraphQL tab's state: what is remembered (endpoint, headers, query, variables), the
 * loaded schema with its tree, search index and builder state, and the expansion of the tree.
 * @module
 */
import { GRAPHQL_TRANSPORTS, type GraphQLTransport } from "../../protocol.ts";
import { batch, computed, signal } from "@preact/signals";
import type { GraphQLSchema } from "graphql";
import { SchemaModel } from "../../../graphql/schema_model.ts";
import { SearchIndex, type SearchResult } from "../../../graphql/search_index.ts";
import { type BuilderState, emptyState } from "../../../graphql/query_builder.ts";
import { ancestorPaths } from "../../../graphql/paths.ts";
import { isString, jsonWithoutSecrets, persisted } from "../storage.ts";
import { tabCore } from "../tab_core.tsx";
import { ChildrenCache, visibleRows } from "./tree_rows.ts";

/** The GraphQL tab's endpoint, headers, auth, operation in flight and history. */
export const core = tabCore("graphql", { url: "graphql.endpoint", headers: "graphql.headers" });
/** The endpoint URL, remembered. */
export const endpoint = core.url;
/** Extra headers, remembered without credential-looking values. */
export const headers = core.headers;
/** The query document, remembered. */
export const queryText = persisted("graphql.query", "", isString);
/** The variables JSON, remembered. */
export const variablesText = persisted("graphql.variables", "{}", isString, jsonWithoutSecrets);
/** How a subscription runs: one POST (`http`), graphql-transport-ws, or SSE. */
export type Transport = GraphQLTransport;
/** Timeout (seconds) for Load schema and for queries and mutations; subscriptions run until Stop. */
export const timeoutSeconds = persisted("graphql.timeoutSeconds", "30", isString);
/** The subscription transport, remembered. */
export const transport = persisted<Transport>(
  "graphql.transport",
  "http",
  (v): v is Transport => GRAPHQL_TRANSPORTS.some((t) => t === v),
);
/** The operation to run when the document holds several. */
export const operationName = signal<string | undefined>(undefined);

/** A loaded schema and what the tab derives from it once. */
export interface LoadedSchema {
  schema: GraphQLSchema;
  model: SchemaModel;
  cache: ChildrenCache;
  /**
   * Where it came from: the resolved endpoint's origin, as the server said (the endpoint field
   * may hold `{{references}}`, and its URL a credential in its query or userinfo).
   */
  origin: string;
}

/** The schema panel's state. */
export type SchemaState =
  | { status: "idle" }
  | { status: "loading" }
  | { status: "error"; message: string }
  | { status: "loaded"; loaded: LoadedSchema };

/** The schema panel's state. */
export const schemaState = signal<SchemaState>({ status: "idle" });

/** @returns the loaded schema, if any */
export function loadedSchema(): LoadedSchema | undefined {
  const state = schemaState.value;
  return state.status === "loaded" ? state.loaded : undefined;
}

/**
 * Builds everything the tab needs from introspection data, once per load.
 *
 * @param introspection `{__schema: …}`
 * @param from the resolved endpoint's origin ("" when unknown)
 */
export function setSchema(introspection: unknown, from: string): void {
  const model = SchemaModel.fromIntrospection(introspection);
  const loaded: LoadedSchema = {
    schema: model.schema,
    model,
    cache: new ChildrenCache(model),
    origin: from,
  };
  batch(() => {
    schemaState.value = { status: "loaded", loaded };
    searchIndex.value = undefined;
    expanded.value = new Set(model.roots().slice(0, 1).map((r) => r.path));
    savedExpansion = undefined;
    search.value = "";
  });
  // The search index is built once the tree has been painted, so the tree shows first.
  requestAnimationFrame(() =>
    setTimeout(() => {
      const now = schemaState.peek();
      if (now.status !== "loaded" || now.loaded !== loaded) return;
      searchIndex.value = SearchIndex.build(model);
      if (search.peek().trim() !== "") setSearch(search.peek());
    })
  );
}

/** The search index of the loaded schema, once built. */
export const searchIndex = signal<SearchIndex | undefined>(undefined);

/** The expanded tree paths (independent of selection). */
export const expanded = signal<ReadonlySet<string>>(new Set());

/** The checkbox builder's state, kept in step with the query text. */
export const builder = signal<BuilderState>(emptyState());

/** The visible rows of the tree. */
export const rows = computed(() => {
  const loaded = loadedSchema();
  return loaded ? visibleRows(loaded.cache, expanded.value) : [];
});

/**
 * @param path a node's path
 * @param open expand (true) or collapse (false); default: toggle
 */
export function toggleExpanded(path: string, open?: boolean): void {
  const next = new Set(expanded.value);
  const want = open ?? !next.has(path);
  if (want) next.add(path);
  else next.delete(path);
  expanded.value = next;
}

/** The tree's scroll position in pixels. */
export const treeScroll = signal(0);
/** The tree row that has (or last had) the focus; the docs pane describes it. */
export const focusedPath = signal<string | undefined>(undefined);
let savedScroll = 0;

/** The search box text. */
export const search = signal("");
/** Which hit Enter stepped to. */
export const currentHit = signal(0);
let savedExpansion: ReadonlySet<string> | undefined;

const HIT_LIMIT = 200;

/** The search result for the current text. */
export const searchResult = computed((): SearchResult => {
  const index = searchIndex.value;
  return index ? index.search(search.value, { limit: HIT_LIMIT }) : { hits: [], total: 0 };
});

/** The hits that can be shown in the tree (reachable from a root), which Enter steps through. */
export const navigableHits = computed(() =>
  searchResult.value.hits.filter((hit) => hit.path !== undefined)
);

/** @returns the path of the current hit, if any */
export function currentHitPath(): string | undefined {
  const hits = navigableHits.value;
  return hits.length > 0 ? hits[currentHit.value % hits.length]?.path : undefined;
}

/**
 * Sets the search text: the parents of every hit are expanded; clearing the search restores
 * the expansion from before it started.
 *
 * @param text the search box text
 */
export function setSearch(text: string): void {
  batch(() => {
    const wasActive = search.value.trim() !== "";
    search.value = text;
    currentHit.value = 0;
    if (text.trim() === "") {
      if (savedExpansion) {
        expanded.value = savedExpansion;
        treeScroll.value = savedScroll;
      }
      savedExpansion = undefined;
      return;
    }
    if (!wasActive || !savedExpansion) {
      savedExpansion = expanded.value;
      savedScroll = treeScroll.value;
    }
    const next = new Set(savedExpansion);
    for (const hit of searchResult.value.hits) {
      if (hit.path === undefined) continue;
      for (const ancestor of ancestorPaths(hit.path)) next.add(ancestor);
    }
    expanded.value = next;
  });
}
