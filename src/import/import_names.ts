/**
 * Variable names a `.http` file can hold. Postman and Insomnia allow any text as a variable's
 * name (PayPal's collection has `{{client id}}`-style names); request files allow letters,
 * digits, `_`, `-` and `.`. Every such name is renamed (`client id` → `client_id`, made unique)
 * in the variables, the environments, the auth configurations and every `{{reference}}` of the
 * requests, and each renaming is reported.
 * @module
 */
import type { ImportResult } from "./import_model.ts";

const VALID = /^[A-Za-z0-9_.-]+$/;

/**
 * Renames the variables whose names a request file cannot hold, references included.
 *
 * @param result the import, changed in place
 */
export function safeVariableNames(result: ImportResult): void {
  const taken = new Set<string>([
    ...Object.keys(result.variables),
    ...Object.values(result.environments).flatMap(Object.keys),
    ...Object.values(result.privateEnvironments).flatMap(Object.keys),
  ]);
  const renamed = new Map<string, string>();
  const rename = (name: string): string => {
    const done = renamed.get(name);
    if (done !== undefined) return done;
    const base = name.trim().replace(/[^A-Za-z0-9_.-]+/g, "_").replace(/^[_.-]+|[_.-]+$/g, "") ||
      "variable";
    let unique = base;
    for (let n = 2; taken.has(unique); n++) unique = `${base}_${n}`;
    taken.add(unique);
    renamed.set(name, unique);
    result.losses.push({
      where: "variables",
      what: `"${name}" renamed {{${unique}}} (a request file's variable names hold no spaces)`,
    });
    return unique;
  };
  const needs = (name: string) => !VALID.test(name) && name.trim() !== "";
  const keys = (vars: Record<string, string>) => {
    for (const name of Object.keys(vars)) if (needs(name)) rename(name);
  };
  keys(result.variables);
  for (const vars of Object.values(result.environments)) keys(vars);
  for (const vars of Object.values(result.privateEnvironments)) keys(vars);
  // References to names that are defined nowhere in the import, with spaces (a global, a
  // variable a script sets), are renamed the same way.
  const refs = (text: string) => {
    for (const m of text.matchAll(/\{\{([^{}]+)\}\}/g)) {
      const inner = m[1]!;
      if (reference(inner) && !renamed.has(inner) && needs(inner.trim())) rename(inner);
    }
  };
  const everyText = (visit: (text: string) => string) => {
    for (const r of result.requests) {
      r.url = visit(r.url);
      for (const h of r.headers) h.value = visit(h.value);
      if (typeof r.body === "string") r.body = visit(r.body);
      else if (r.body && "parts" in r.body) {
        r.body = { parts: r.body.parts.map((p) => typeof p === "string" ? visit(p) : p) };
      }
    }
    const values = (vars: Record<string, string>) => {
      for (const [k, v] of Object.entries(vars)) vars[k] = visit(v);
    };
    values(result.variables);
    for (const vars of Object.values(result.environments)) values(vars);
    for (const vars of Object.values(result.privateEnvironments)) values(vars);
    for (const config of Object.values(result.auth ?? {})) values(config);
  };
  everyText((text) => {
    refs(text);
    return text;
  });
  if (renamed.size === 0) return;
  const renameKeys = (vars: Record<string, string>) => {
    for (const [k, v] of Object.entries(vars)) {
      const to = renamed.get(k);
      if (to === undefined) continue;
      delete vars[k];
      vars[to] = v;
    }
  };
  renameKeys(result.variables);
  for (const vars of Object.values(result.environments)) renameKeys(vars);
  for (const vars of Object.values(result.privateEnvironments)) renameKeys(vars);
  everyText((text) =>
    text.replace(/\{\{([^{}]+)\}\}/g, (whole, inner: string) => {
      const to = renamed.get(inner) ?? renamed.get(inner.trim());
      return to === undefined ? whole : `{{${to}}}`;
    })
  );
}

/** A `{{…}}` that names a variable: not a dynamic one (`$guid`), not a request variable. */
function reference(inner: string): boolean {
  const name = inner.trim();
  return !name.startsWith("$") && !name.startsWith("%") &&
    !/^[^.\s]+\.(response|request)\.(body|headers)\./.test(name);
}

/**
 * A name as a file name's part: lower case, runs of other characters as `-`.
 *
 * @param s the name
 * @returns the part
 */
export function slug(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}
