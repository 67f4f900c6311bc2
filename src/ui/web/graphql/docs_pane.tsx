/**
 * The docs pane: the full description, type, arguments (with defaults), default value and
 * deprecation reason of the focused tree node.
 * @module
 */
import type { JSX } from "preact";
import { focusedPath, loadedSchema } from "./state.ts";

/** @returns the docs of the focused node, or nothing */
export function DocsPane(): JSX.Element | null {
  const loaded = loadedSchema();
  const path = focusedPath.value;
  if (!loaded || !path) return null;
  const node = loaded.model.node(path);
  if (!node) return null;
  const args = node.kind === "field"
    ? loaded.cache.children(path).filter((c) => c.kind === "argument")
    : [];
  return (
    <details class="docs">
      <summary>Docs: {node.name}</summary>
      <section aria-label="Docs">
        <h4>
          {node.kind === "on" ? `... on ${node.name}` : node.name}
          {node.kind !== "on" && node.kind !== "root" && (
            <span class="type">: {node.typeLabel}</span>
          )}
          {node.defaultValue !== undefined && (
            <span class="default">{` = ${node.defaultValue}`}</span>
          )}
        </h4>
        {node.deprecationReason && <p class="deprecated">Deprecated: {node.deprecationReason}</p>}
        <p class="description">{node.description ?? "No description."}</p>
        {args.length > 0 && (
          <dl class="args">
            {args.map((a) => (
              <div key={a.path}>
                <dt>
                  {a.name}: {a.typeLabel}
                  {a.defaultValue !== undefined ? ` = ${a.defaultValue}` : ""}
                </dt>
                <dd>
                  {a.description ?? ""}
                  {a.deprecationReason ? ` (deprecated: ${a.deprecationReason})` : ""}
                </dd>
              </div>
            ))}
          </dl>
        )}
      </section>
    </details>
  );
}
