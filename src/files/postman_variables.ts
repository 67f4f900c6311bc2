/**
 * Postman's variables keep their types across a run (`pm.environment.set("n", 5)`, then
 * `pm.environment.get("n")` in a later request is the number 5, as in Newman). The run's variable
 * stores hold text, what a `{{name}}` becomes; beside each store this keeps, for the values a
 * Postman script set that are not strings, their JSON. An entry holds only while the store still
 * has the text it was set with: a value set since by other means (`client.global.set`, `--var`,
 * a non-Postman script) is the text it is. Postman's local variables (`pm.variables.set`) last
 * for the run, as in Newman, kept beside its globals.
 * @module
 */

import type { Environment } from "./environment.ts";
import type { VariableScope, VariableValue } from "./substitute.ts";

/** JSON of typed values, and the text each was stored as, per variable store of a run. */
const tables = new WeakMap<object, Map<string, { text: unknown; json: string }>>();

/**
 * The typed values of a store that still hold.
 *
 * @param store a run's variable store (its globals, or the environment's variables)
 * @returns each variable's JSON (`[value]`; undefined is null, as Newman hands it on), by name
 */
export function typedValues(store: ReadonlyMap<string, unknown>): Record<string, string> {
  const typed: Record<string, string> = {};
  for (const [name, entry] of tables.get(store) ?? []) {
    if (store.get(name) === entry.text) typed[name] = entry.json;
  }
  return typed;
}

/**
 * Keeps what a Postman script said of its variables' types, after their text was stored.
 *
 * @param store the store the values went to
 * @param types each variable's JSON, or null for a string (or a variable unset)
 */
export function keepTypes(
  store: ReadonlyMap<string, unknown>,
  types: Readonly<Record<string, string | null>>,
): void {
  let table = tables.get(store);
  for (const [name, json] of Object.entries(types)) {
    if (json === null) {
      table?.delete(name);
      continue;
    }
    if (!table) tables.set(store, table = new Map());
    table.set(name, { text: store.get(name), json });
  }
}

/** The run's `pm.variables` values, beside its globals. */
const locals = new WeakMap<object, Map<string, string>>();

/**
 * Postman's local variables (`pm.variables.set`), which last for the whole run in Newman (its
 * requests and iterations), kept beside the run's globals.
 *
 * @param globals the run's globals (one map per run, shared by its files)
 * @returns the run's local variables, as text
 */
export function postmanLocals(globals: ReadonlyMap<string, string>): Map<string, string> {
  let values = locals.get(globals);
  if (!values) locals.set(globals, values = new Map());
  return values;
}

/** The run's Postman globals, beside its globals. */
const globalScopes = new WeakMap<object, Map<string, VariableValue>>();

/**
 * Postman's globals (`pm.globals`, a globals file) in a run: a scope below the collection's
 * variables, as in Newman (local > data > environment > collection > global). `dial import`
 * writes a Postman globals file as the environment's `$shared` values: they start the scope,
 * then `pm.globals.set` and `unset` change it.
 *
 * @param globals the run's globals (one map per run, shared by its files)
 * @param environment the run's environment
 * @returns the run's Postman globals
 */
export function postmanGlobals(
  globals: ReadonlyMap<string, string>,
  environment: Environment | undefined,
): Map<string, VariableValue> {
  let values = globalScopes.get(globals);
  if (!values) {
    values = new Map();
    for (const [name, value] of environment?.shared ?? []) values.set(name, value);
    globalScopes.set(globals, values);
  }
  return values;
}

/**
 * A `# @postman` request's variables in Newman's order: the environment without the values
 * that are Postman's globals (see {@link postmanGlobals}), which go below the file's variables.
 *
 * @param scope the request's scope
 * @param environment the run's environment
 * @param globals the run's Postman globals
 * @returns the scope Postman's rule gives
 */
export function postmanScope(
  scope: VariableScope,
  environment: Environment | undefined,
  globals: ReadonlyMap<string, VariableValue>,
): VariableScope {
  if (!environment?.shared.size) return { ...scope, below: globals };
  return { ...scope, environment: new OwnValues(environment), below: globals };
}

/**
 * The environment's variables less those that are only its `$shared` values, read live (a
 * script's `pm.environment.set` shows at once).
 */
class OwnValues implements ReadonlyMap<string, VariableValue> {
  #environment: Environment;

  constructor(environment: Environment) {
    this.#environment = environment;
  }

  #own(name: string, value: VariableValue): boolean {
    return this.#environment.shared.get(name) !== value;
  }

  get(name: string): VariableValue | undefined {
    const value = this.#environment.variables.get(name);
    return value !== undefined && this.#own(name, value) ? value : undefined;
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  get size(): number {
    return [...this.keys()].length;
  }

  *entries(): MapIterator<[string, VariableValue]> {
    for (const [name, value] of this.#environment.variables) {
      if (this.#own(name, value)) yield [name, value];
    }
  }

  *keys(): MapIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): MapIterator<VariableValue> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): MapIterator<[string, VariableValue]> {
    return this.entries();
  }

  forEach(
    fn: (value: VariableValue, name: string, map: ReadonlyMap<string, VariableValue>) => void,
  ): void {
    for (const [name, value] of this.entries()) fn(value, name, this);
  }
}
