/**
 * The schema tree as a flat list of visible rows (what a virtualized ARIA tree renders):
 * a depth-first walk over the expanded paths only, so its cost follows what is on screen,
 * not the size of the schema.
 * @module
 */
import type { SchemaModel, SchemaNode } from "../../../graphql/schema_model.ts";

/** One visible row of the tree. */
export interface TreeRow {
  /** The schema node. */
  node: SchemaNode;
  /** 1-based depth (`aria-level`). */
  level: number;
  /** 1-based position among its siblings (`aria-posinset`). */
  position: number;
  /** Number of siblings (`aria-setsize`). */
  setSize: number;
}

/** Children lists by path, computed once per schema (the model is immutable). */
export class ChildrenCache {
  readonly #model: SchemaModel;
  readonly #children = new Map<string, SchemaNode[]>();
  #roots: SchemaNode[] | undefined;

  /** @param model the schema model */
  constructor(model: SchemaModel) {
    this.#model = model;
  }

  /** @returns the root operation types */
  roots(): SchemaNode[] {
    return this.#roots ??= this.#model.roots();
  }

  /**
   * @param path a node's path
   * @returns its children
   */
  children(path: string): SchemaNode[] {
    let list = this.#children.get(path);
    if (!list) {
      list = this.#model.children(path);
      this.#children.set(path, list);
    }
    return list;
  }
}

/**
 * Lists the rows to show: roots, and the children of every expanded node, depth first.
 *
 * @param cache children by path
 * @param expanded the expanded paths
 * @returns the visible rows in display order
 */
export function visibleRows(cache: ChildrenCache, expanded: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (nodes: SchemaNode[], level: number) => {
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i]!;
      rows.push({ node, level, position: i + 1, setSize: nodes.length });
      if (node.expandable && expanded.has(node.path)) walk(cache.children(node.path), level + 1);
    }
  };
  walk(cache.roots(), 1);
  return rows;
}
