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
