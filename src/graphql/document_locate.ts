/**
 * Finding a tree path in a hand-written document, and changing the document's text in
 * place: the helpers behind `document_edit.ts`. Nodes are found with graphql-js's AST (its
 * `visit` for spreads and variables); the text is changed only at those nodes' locations, so
 * aliases, fragments, directives, comments and formatting elsewhere are kept as written.
 * @module
 */
import {
  type ASTNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  Kind,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
  visit,
} from "graphql";
import { parsePath } from "./paths.ts";
import type { SchemaModel } from "./schema_model.ts";

/** A selection set the next path step can be looked up in. */
export interface Container {
  set: SelectionSetNode;
  /** The fragment holding the set, when it is inside a named fragment. */
  fragment?: string;
}

/** One match of a path: the node and the set it sits in. */
export interface Match {
  node: SelectionNode;
  container: Container;
}

/**
 * @param document a parsed document
 * @returns its named fragments
 */
export function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const map = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) {
    if (d.kind === Kind.FRAGMENT_DEFINITION) map.set(d.name.value, d);
  }
  return map;
}

/**
 * The sets that select on one type at one place: the set itself, plus the bodies of
 * fragments spread into it (and inline fragments) on the same type, recursively.
 *
 * @param sets the starting sets
 * @param type the type they select on
 * @param fragments the document's fragments
 * @returns the containers, the starting ones first
 */
export function containersOf(
  sets: readonly Container[],
  type: string,
  fragments: Map<string, FragmentDefinitionNode>,
): Container[] {
  const result: Container[] = [];
  const seen = new Set<SelectionSetNode>();
  const add = (container: Container) => {
    if (seen.has(container.set)) return;
    seen.add(container.set);
    result.push(container);
    for (const s of container.set.selections) {
      if (s.kind === Kind.FRAGMENT_SPREAD) {
        const f = fragments.get(s.name.value);
        if (f && f.typeCondition.name.value === type) {
          add({ set: f.selectionSet, fragment: f.name.value });
        }
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        const on = s.typeCondition?.name.value;
        if (on === undefined || on === type) add({ ...container, set: s.selectionSet });
      }
    }
  };
  for (const c of sets) add(c);
  return result;
}

/**
 * @param containers the sets to look in
 * @param step a path step: a field name or `on T`
 * @param type the type the sets select on
 * @param fragments the document's fragments
 * @returns the nodes the step names (fields, aliased or not; `... on T` and spreads on T)
 */
export function matchStep(
  containers: readonly Container[],
  step: string,
  type: string,
  fragments: Map<string, FragmentDefinitionNode>,
): Match[] {
  const matches: Match[] = [];
  const on = step.startsWith("on ") ? step.slice(3) : undefined;
  for (const container of containers) {
    for (const node of container.set.selections) {
      if (on === undefined) {
        if (node.kind === Kind.FIELD && node.name.value === step) matches.push({ node, container });
      } else if (on !== type) {
        if (node.kind === Kind.INLINE_FRAGMENT && node.typeCondition?.name.value === on) {
          matches.push({ node, container });
        } else if (node.kind === Kind.FRAGMENT_SPREAD) {
          if (fragments.get(node.name.value)?.typeCondition.name.value === on) {
            matches.push({ node, container });
          }
        }
      }
    }
  }
  return matches;
}

/**
 * @param match a match
 * @param fragments the document's fragments
 * @returns the set below the matched node, as a container
 */
export function innerContainer(
  match: Match,
  fragments: Map<string, FragmentDefinitionNode>,
): Container | undefined {
  const node = match.node;
  if (node.kind === Kind.FRAGMENT_SPREAD) {
    const f = fragments.get(node.name.value);
    return f ? { set: f.selectionSet, fragment: f.name.value } : undefined;
  }
  return node.selectionSet ? { ...match.container, set: node.selectionSet } : undefined;
}

/** How far a path was found in a document. */
export interface Located {
  /** The steps after the root (`repository`, `on Issue`, `title`). */
  steps: string[];
  /** How many steps were found. */
  found: number;
  /** The matches of the last step found (every occurrence). */
  matches: Match[];
  /** The containers where the first missing step would go. */
  containers: Container[];
  /** The path of the last step found (the root when none). */
  foundPath: string;
}

/**
 * Follows a path through an operation and the fragments it spreads.
 *
 * @param model the schema model
 * @param document the document
 * @param operation the operation
 * @param path a field or `on T` path
 * @returns how far it got
 */
export function locate(
  model: SchemaModel,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  path: string,
): Located | undefined {
  const segments = parsePath(path);
  if (!segments || segments[0]?.kind !== "root") return undefined;
  const fragments = fragmentsOf(document);
  const steps = segments.slice(1).map((s) =>
    s.kind === "field" ? s.name : s.kind === "on" ? `on ${s.type}` : ""
  );
  let current = segments[0].type;
  let type: GraphQLNamedType | undefined = model.outputTypeAt(current);
  let containers = containersOf([{ set: operation.selectionSet }], type?.name ?? "", fragments);
  let matches: Match[] = [];
  let found = 0;
  for (const step of steps) {
    if (!type) break;
    const here = matchStep(containers, step, type.name, fragments);
    if (here.length === 0) break;
    const next = `${current}.${step}`;
    const nextType = model.outputTypeAt(next);
    matches = here;
    found++;
    current = next;
    type = nextType;
    const inner = here.map((m) => innerContainer(m, fragments)).filter((c) => c !== undefined);
    containers = containersOf(inner, nextType?.name ?? "", fragments);
  }
  return { steps, found, matches, containers, foundPath: current };
}

/**
 * @param document a document
 * @returns the names of the fragments spread anywhere in it
 */
export function spreadNames(document: DocumentNode): Set<string> {
  const names = new Set<string>();
  visit(document, {
    FragmentSpread(node) {
      names.add(node.name.value);
    },
  });
  return names;
}

/**
 * @param document a document
 * @param operation an operation of it
 * @returns the variable names the operation uses, in its own text and the fragments it spreads
 */
export function usedVariables(
  document: DocumentNode,
  operation: OperationDefinitionNode,
): Set<string> {
  const fragments = fragmentsOf(document);
  const names = new Set<string>();
  const done = new Set<string>();
  const walk = (node: ASTNode) => {
    visit(node, {
      VariableDefinition: () => false,
      Variable(v) {
        names.add(v.name.value);
      },
      FragmentSpread(s) {
        const f = fragments.get(s.name.value);
        if (f && !done.has(f.name.value)) {
          done.add(f.name.value);
          walk(f);
        }
      },
    });
  };
  walk(operation);
  return names;
}

/**
 * @param set a selection set
 * @returns whether it holds only the `__typename` a builder writes into an empty set
 */
export function isPlaceholderOnly(set: SelectionSetNode): boolean {
  const [only, ...rest] = set.selections;
  return rest.length === 0 && only?.kind === Kind.FIELD && isPlaceholder(only);
}

function isPlaceholder(node: FieldNode): boolean {
  return node.name.value === "__typename" && !node.alias && !node.directives?.length;
}
