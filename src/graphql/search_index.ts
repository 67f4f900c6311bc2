/**
 * Schema search over type, field and argument names, then their descriptions:
 * case-insensitive substring matching, exact and prefix matches first, description matches
 * last, each match with the tree path that reveals it.
 * @module
 */
import {
  getNamedType,
  type GraphQLNamedType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isUnionType,
} from "graphql";
import { argumentPath } from "./paths.ts";
import type { SchemaModel } from "./schema_model.ts";

/** What a search hit names. */
export type SearchHitKind = "type" | "field" | "argument" | "inputField";

/** One search hit. */
export interface SearchHit {
  /** What the hit names. */
  kind: SearchHitKind;
  /** The matched name, e.g. `issues`. */
  name: string;
  /** A readable label, e.g. `Repository.issues(first)`. */
  label: string;
  /**
   * The shortest tree path that reaches the hit (expand its ancestors to reveal it), e.g.
   * `Query.repository.issues(first)`; undefined when the hit is not reachable from a root
   * operation type. For a type: the first place it appears.
   */
  path?: string;
  /** Where the query matched in `name`: `[start, end)` (`[0, 0]` for a description match). */
  match: [number, number];
  /** Set when the query matched the description, not the name (ranked after name matches). */
  inDescription?: true;
}

/** The result of {@link SearchIndex.search}. */
export interface SearchResult {
  /** The best hits, at most `limit`. */
  hits: SearchHit[];
  /** How many names matched in all. */
  total: number;
}

const KIND: readonly SearchHitKind[] = ["type", "field", "argument", "inputField"];

/**
 * A search index over a schema. Built once per schema (see the benchmark for figures on
 * GitHub's schema); each search is one linear scan over pre-sorted lowercase names.
 *
 * @example
 * ```ts
 * const index = SearchIndex.build(model);
 * index.search("stargaz").hits[0]; // { kind: "field", name: "stargazerCount", path: "Query.repository.stargazerCount", … }
 * ```
 */
export class SearchIndex {
  readonly #lower: string[];
  readonly #names: string[];
  readonly #labels: string[];
  readonly #kinds: Uint8Array;
  readonly #paths: Array<string | undefined>;
  readonly #descriptions: Array<string | undefined>;

  private constructor(
    lower: string[],
    names: string[],
    labels: string[],
    kinds: Uint8Array,
    paths: Array<string | undefined>,
    descriptions: Array<string | undefined>,
  ) {
    this.#descriptions = descriptions;
    this.#lower = lower;
    this.#names = names;
    this.#labels = labels;
    this.#kinds = kinds;
    this.#paths = paths;
  }

  /**
   * The number of names indexed.
   *
   * @returns how many names the index holds
   */
  get size(): number {
    return this.#names.length;
  }

  /**
   * Indexes every named type (but the introspection types), every field of object,
   * interface and input object types, and every field argument.
   *
   * @param model the schema model
   * @returns the index
   */
  static build(model: SchemaModel): SearchIndex {
    const typePaths = shortestTypePaths(model);
    type Entry = {
      name: string;
      label: string;
      kind: number;
      path: string | undefined;
      description?: string | null | undefined;
    };
    const entries: Entry[] = [];
    for (const type of Object.values(model.schema.getTypeMap())) {
      if (type.name.startsWith("__")) continue;
      const base = typePaths.get(type.name);
      entries.push({
        name: type.name,
        label: type.name,
        kind: 0,
        path: base?.at,
        description: type.description,
      });
      if (isObjectType(type) || isInterfaceType(type)) {
        for (const field of Object.values(type.getFields())) {
          const fieldPath = base?.children === undefined
            ? undefined
            : `${base.children}.${field.name}`;
          const label = `${type.name}.${field.name}`;
          entries.push({
            name: field.name,
            label,
            kind: 1,
            path: fieldPath,
            description: field.description,
          });
          for (const arg of field.args) {
            entries.push({
              name: arg.name,
              label: `${label}(${arg.name})`,
              kind: 2,
              path: fieldPath === undefined ? undefined : argumentPath(fieldPath, arg.name),
              description: arg.description,
            });
          }
        }
      } else if (isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          entries.push({
            name: field.name,
            label: `${type.name}.${field.name}`,
            kind: 3,
            path: base?.children === undefined ? undefined : `${base.children}.${field.name}`,
            description: field.description,
          });
        }
      }
    }
    // Sorted once here, so a scan yields each rank's hits already in order.
    const order = entries.map((e) => ({ e, lower: e.name.toLowerCase() }));
    order.sort((a, b) =>
      a.lower.length - b.lower.length || (a.lower < b.lower ? -1 : a.lower > b.lower ? 1 : 0) ||
      a.e.kind - b.e.kind || (a.e.label < b.e.label ? -1 : a.e.label > b.e.label ? 1 : 0)
    );
    return new SearchIndex(
      order.map((o) => o.lower),
      order.map((o) => o.e.name),
      order.map((o) => o.e.label),
      Uint8Array.from(order, (o) => o.e.kind),
      order.map((o) => o.e.path),
      order.map((o) => o.e.description?.toLowerCase() || undefined),
    );
  }

  /**
   * Finds names containing the query, case-insensitively: exact matches first, then
   * prefixes, then other substrings; shorter names first within each group.
   *
   * @param query the text typed into the search box
   * @param options the most hits to return (default 50)
   * @returns the best hits and the total count
   */
  search(query: string, options: { limit?: number } = {}): SearchResult {
    const q = query.trim().toLowerCase();
    const limit = options.limit ?? 50;
    if (q === "") return { hits: [], total: 0 };
    const exact: number[] = [];
    const prefix: number[] = [];
    const inner: number[] = [];
    const lower = this.#lower;
    for (let i = 0; i < lower.length; i++) {
      const at = lower[i]!.indexOf(q);
      if (at < 0) continue;
      if (at > 0) inner.push(i);
      else if (lower[i]!.length === q.length) exact.push(i);
      else prefix.push(i);
    }
    // Descriptions are searched too (from three characters), ranked after every name match.
    const described: number[] = [];
    if (q.length >= 3) {
      const descriptions = this.#descriptions;
      for (let i = 0; i < descriptions.length; i++) {
        if (descriptions[i]?.includes(q) && !lower[i]!.includes(q)) described.push(i);
      }
    }
    const total = exact.length + prefix.length + inner.length + described.length;
    const chosen = [...exact, ...prefix, ...inner, ...described].slice(0, limit);
    const hits = chosen.map((i): SearchHit => {
      const at = lower[i]!.indexOf(q);
      const path = this.#paths[i];
      return {
        kind: KIND[this.#kinds[i]!]!,
        name: this.#names[i]!,
        label: this.#labels[i]!,
        ...(path === undefined ? {} : { path }),
        // Found only in the description: no span of the label to mark.
        ...(at < 0 ? { match: [0, 0], inDescription: true } : { match: [at, at + q.length] }),
      };
    });
    return { hits, total };
  }
}

/** Where a type first appears (`at`) and where its children hang in the tree (`children`). */
interface TypePlace {
  at: string;
  children?: string;
}

/**
 * Finds, for each named type, the shortest path from a root operation type that reaches it.
 * Field and argument steps cost 1 and `on T` steps 2, so `Query.repository` is preferred
 * over `Query.node.on Repository`.
 */
function shortestTypePaths(model: SchemaModel): Map<string, TypePlace> {
  const places = new Map<string, TypePlace>();
  // A bucket queue (Dijkstra with small integer costs): a type is placed when popped.
  const buckets: Array<Array<[GraphQLNamedType, string]>> = [[]];
  for (const root of model.roots()) buckets[0]!.push([model.schema.getType(root.name)!, root.path]);
  const reach = (type: GraphQLNamedType, path: string, cost: number) => {
    if (!places.has(type.name)) (buckets[cost] ??= []).push([type, path]);
  };
  for (let d = 0; d < buckets.length; d++) {
    for (const [type, path] of buckets[d] ?? []) {
      if (places.has(type.name)) continue;
      const hasChildren = isObjectType(type) || isInterfaceType(type) || isUnionType(type) ||
        isInputObjectType(type);
      places.set(type.name, { at: path, ...(hasChildren ? { children: path } : {}) });
      if (isObjectType(type) || isInterfaceType(type)) {
        for (const field of Object.values(type.getFields())) {
          const fieldPath = `${path}.${field.name}`;
          for (const arg of field.args) {
            reach(getNamedType(arg.type), argumentPath(fieldPath, arg.name), d + 1);
          }
          reach(getNamedType(field.type), fieldPath, d + 1);
        }
      } else if (isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          reach(getNamedType(field.type), `${path}.${field.name}`, d + 1);
        }
      }
      if (isInterfaceType(type) || isUnionType(type)) {
        for (const t of model.schema.getPossibleTypes(type)) {
          reach(t, `${path}.on ${t.name}`, d + 2);
        }
      }
    }
  }
  return places;
}
