/**
 * Paths name places in a schema tree, starting at a root operation type:
 * `Query.repository.issues.nodes.title` (fields), `Query.node.on Issue.title` (a type
 * condition, as in `... on Issue`), `Query.repository(owner)` (an argument) and
 * `Mutation.createIssue(input).title` (a field of an input object argument). The same paths
 * key the tree's expansion state, the query builder's selection state and search results.
 * @module
 */

/** One step of a path. */
export type PathSegment =
  | { kind: "root"; type: string }
  | { kind: "field"; name: string }
  | { kind: "on"; type: string }
  | { kind: "argument"; field: string; name: string }
  | { kind: "inputField"; name: string };

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const ARGUMENT = /^([_A-Za-z][_0-9A-Za-z]*)\(([_A-Za-z][_0-9A-Za-z]*)\)$/;
const ON = /^on ([_A-Za-z][_0-9A-Za-z]*)$/;

/**
 * Splits a path into segments.
 *
 * @param path e.g. `Query.repository(owner)`
 * @returns the segments, or undefined when the text is not a path
 * @example
 * ```ts
 * parsePath("Query.node.on Issue.title");
 * // [{kind:"root",type:"Query"},{kind:"field",name:"node"},{kind:"on",type:"Issue"},{kind:"field",name:"title"}]
 * ```
 */
export function parsePath(path: string): PathSegment[] | undefined {
  const parts = path.split(".");
  const [root, ...rest] = parts;
  if (root === undefined || !NAME.test(root)) return undefined;
  const segments: PathSegment[] = [{ kind: "root", type: root }];
  let inInput = false;
  for (const part of rest) {
    let m: RegExpExecArray | null;
    if (inInput) {
      if (!NAME.test(part)) return undefined;
      segments.push({ kind: "inputField", name: part });
    } else if (NAME.test(part)) {
      segments.push({ kind: "field", name: part });
    } else if ((m = ON.exec(part))) {
      segments.push({ kind: "on", type: m[1]! });
    } else if ((m = ARGUMENT.exec(part))) {
      segments.push({ kind: "argument", field: m[1]!, name: m[2]! });
      inInput = true;
    } else {
      return undefined;
    }
  }
  return segments;
}

/**
 * The path of a node's parent.
 *
 * @param path a path
 * @returns the parent path, or undefined for a root. The parent of `Query.repository(owner)`
 * is `Query.repository`.
 */
export function parentPath(path: string): string | undefined {
  const dot = path.lastIndexOf(".");
  if (dot < 0) return undefined;
  const last = path.slice(dot + 1);
  const m = ARGUMENT.exec(last);
  if (m) return `${path.slice(0, dot)}.${m[1]}`;
  return path.slice(0, dot);
}

/**
 * Lists the paths a UI expands to reveal a node, outermost first.
 *
 * @param path a path
 * @returns every ancestor path, without the path itself
 * @example
 * ```ts
 * ancestorPaths("Query.repository.issues(first)"); // ["Query", "Query.repository", "Query.repository.issues"]
 * ```
 */
export function ancestorPaths(path: string): string[] {
  const result: string[] = [];
  for (let p = parentPath(path); p !== undefined; p = parentPath(p)) result.unshift(p);
  return result;
}

/**
 * The path of a field's argument.
 *
 * @param fieldPath the path of a field
 * @param argument an argument name
 * @returns the argument's path, `Query.repository(owner)`
 */
export function argumentPath(fieldPath: string, argument: string): string {
  const dot = fieldPath.lastIndexOf(".");
  return `${fieldPath.slice(0, dot)}.${fieldPath.slice(dot + 1)}(${argument})`;
}

/**
 * @param argPath an argument path, `Query.repository(owner)`
 * @returns its field path and argument name, or undefined when the path names no argument
 */
export function splitArgumentPath(
  argPath: string,
): { fieldPath: string; argument: string } | undefined {
  const dot = argPath.lastIndexOf(".");
  const m = ARGUMENT.exec(argPath.slice(dot + 1));
  if (!m || dot < 0) return undefined;
  return { fieldPath: `${argPath.slice(0, dot)}.${m[1]}`, argument: m[2]! };
}

/**
 * @param path a path
 * @param ancestor another path
 * @returns whether `path` lies strictly inside `ancestor`'s subtree (its fields, type
 * conditions and arguments)
 */
export function isInside(path: string, ancestor: string): boolean {
  if (path.startsWith(ancestor + ".")) return true;
  const dot = ancestor.lastIndexOf(".");
  return dot >= 0 && path.startsWith(`${ancestor}(`);
}
