/**
 * An import written as request files: one `.http` file per top-level folder (requests outside
 * any folder in one named after the collection), `http-client.env.json` and
 * `http-client.private.env.json` (0600), each file opening with the loss report. The CLI writes
 * them (never over an existing file unless asked).
 * @module
 */
import { PRIVATE_ENV_FILE, PUBLIC_ENV_FILE } from "../files/environment.ts";
import { literalValue } from "../files/trust_rule.ts";
import { writeHttpRequest } from "../files/write_http_file.ts";
import type { ImportLoss, ImportResult } from "./import_model.ts";

/** One file to write. */
export interface ImportFile {
  /** The file name, relative to the output directory. */
  name: string;
  /** The content. */
  text: string;
  /** Its mode (0600 for the private environment). */
  mode: number;
}

/**
 * Lays an import out as files, without writing them.
 *
 * @param result the import
 * @returns the files
 */
export function importFiles(result: ImportResult): ImportFile[] {
  const groups = new Map<string, ImportResult["requests"]>();
  for (const request of result.requests) {
    const file = `${slug(request.folder[0] ?? result.name) || "requests"}.http`;
    groups.set(file, [...(groups.get(file) ?? []), request]);
  }
  const files: ImportFile[] = [];
  const names = new Set<string>();
  for (const [file, requests] of groups) {
    const losses = result.losses.filter((l) => belongs(l, requests, result.requests));
    const lines = [`# Imported from ${result.format} by dial import.`];
    if (losses.length) {
      lines.push("# Not carried (add by hand if you need it):");
      for (const l of losses) lines.push(`#   ${l.where}: ${l.what}`.replaceAll(/[\r\n]+/g, " "));
    }
    lines.push("");
    for (const [k, v] of Object.entries(result.variables)) lines.push(`@${k} = ${v}`);
    if (Object.keys(result.variables).length) lines.push("");
    const entries = requests.map((r) => {
      const sub = r.folder.slice(1);
      let name = sub.length ? `${sub.join(" / ")} / ${r.name}` : r.name;
      for (let n = 2; names.has(`${file}\n${name}`); n++) name = `${r.name} ${n}`;
      names.add(`${file}\n${name}`);
      return writeHttpRequest({
        name,
        method: r.method,
        url: urlText(r.url),
        headers: r.headers,
        ...(r.comments ? { comments: r.comments } : {}),
        ...(r.directives ? { directives: r.directives } : {}),
        ...(r.body !== undefined ? { body: r.body } : {}),
      });
    });
    files.push({ name: file, text: `${lines.join("\n")}\n${entries.join("\n")}`, mode: 0o644 });
  }
  const auth = result.auth ?? {};
  if (Object.keys(result.environments).length || Object.keys(auth).length) {
    const environments: Record<string, unknown> = { ...result.environments };
    if (Object.keys(auth).length) {
      const shared = result.environments.$shared ?? {};
      environments.$shared = { ...shared, Security: { Auth: auth } };
    }
    files.push({ name: PUBLIC_ENV_FILE, text: json(literals(environments)), mode: 0o644 });
  }
  if (Object.keys(result.privateEnvironments).length) {
    files.push({
      name: PRIVATE_ENV_FILE,
      text: json(literals(result.privateEnvironments)),
      mode: 0o600,
    });
  }
  return files;
}

/**
 * An imported value is data: one that starts with `@` is written as a literal (`@@…`), never as
 * a reference that the environment would read (`@exec:` would run a command; trust_rule.ts).
 */
function literals(value: unknown): unknown {
  if (typeof value === "string") return literalValue(value);
  if (Array.isArray(value)) return value.map(literals);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, literals(v)]));
  }
  return value;
}

/** A loss about a request or folder goes into that file; any other loss into every file. */
function belongs(
  loss: ImportLoss,
  requests: ImportResult["requests"],
  all: ImportResult["requests"],
) {
  const paths = (rs: ImportResult["requests"]) =>
    rs.flatMap((
      r,
    ) => [
      [...r.folder, r.name].join(" / "),
      ...r.folder.map((_, i) => r.folder.slice(0, i + 1).join(" / ")),
    ]);
  if (paths(requests).includes(loss.where)) return true;
  return !paths(all).includes(loss.where);
}

/**
 * A request line cannot hold white space: sources keep `?q=my value` as typed (Postman, Newman
 * and browsers send it as `my%20value`), so it is written percent-encoded; `{{variables}}` stay.
 */
function urlText(url: string): string {
  return url.trim().split(/(\{\{[^{}]*\}\})/).map((part, i) =>
    i % 2 ? part : part.replace(/\s/g, (c) => encodeURIComponent(c))
  ).join("");
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function slug(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}
