/**
 * An import written as request files that keep the collection's order and folders: each folder
 * holding only requests becomes one `.http` file, a folder holding folders a directory, and
 * the requests of the collection's top level a file named after it. When a level holds more
 * than one entry, their names are numbered (`01-users.http`, `02-admin/`), so that `dial test`,
 * which walks files in name order, runs them in the collection's order (an OpenAPI
 * description, which has no order, keeps one plain-named file per tag). Beside them
 * `http-client.env.json` and `http-client.private.env.json` (0600); each `.http` file opens
 * with the losses that concern it. A body that a `.http` file cannot hold byte for byte (CR LF
 * line ends, a line that reads as request syntax) goes to a file in `bodies/` beside the
 * request file, included with `<` (`<@` when it holds `{{variables}}`). The CLI and the UI
 * write the files (never over existing ones without the user's word).
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import { PRIVATE_ENV_FILE, PUBLIC_ENV_FILE } from "../files/environment.ts";
import { literalValue } from "../files/trust_rule.ts";
import { type RequestModel, writeHttpRequest } from "../files/write_http_file.ts";
import type { ImportedRequest, ImportLoss, ImportResult, ImportScript } from "./import_model.ts";
import { slug } from "./import_names.ts";

/** One file to write. */
export interface ImportFile {
  /** The file name, relative to the output directory (`/`-separated; folders are created). */
  name: string;
  /** The content. */
  text: string;
  /** Its mode (0600 for the private environment). */
  mode: number;
  /** A request file's folder in the collection (its names, outermost first; [] at the top). */
  folder?: string[];
}

/** A folder of the collection: requests and folders in order. */
interface Folder {
  name: string;
  entries: Array<ImportedRequest | Folder>;
}

const isFolder = (e: ImportedRequest | Folder): e is Folder => !("method" in e);

/**
 * Lays an import out as files, without writing them.
 *
 * @param result the import
 * @returns the files
 */
export function importFiles(result: ImportResult): ImportFile[] {
  const root = folderTree(result);
  const files: ImportFile[] = [];
  const bodyNames = new Set<string>();
  const withScripts = scriptWriter(files);
  const writeRun = (dir: string, name: string, requests: ImportedRequest[]) => {
    const losses = result.losses.filter((l) => belongs(l, requests, result.requests));
    const lines = [`# Imported from ${result.format} by dial import.`];
    if (losses.length) {
      lines.push("# Not carried (add by hand if you need it):");
      for (const l of losses) lines.push(`#   ${l.where}: ${l.what}`.replaceAll(/[\r\n]+/g, " "));
    }
    lines.push("");
    for (const [k, v] of Object.entries(result.variables)) lines.push(`@${k} = ${v}`);
    if (Object.keys(result.variables).length) lines.push("");
    const names = new Set<string>();
    const stem = name.replace(/\.http$/, "");
    const written = (r: ImportedRequest) => {
      let title = r.name;
      for (let n = 2; names.has(title); n++) title = `${r.name} ${n}`;
      names.add(title);
      const model: RequestModel = {
        name: title,
        method: r.method,
        url: urlText(r.url),
        headers: r.headers,
        ...(r.comments ? { comments: r.comments } : {}),
        ...(r.directives ? { directives: r.directives } : {}),
        ...(r.body !== undefined ? { body: r.body } : {}),
      };
      if (typeof r.body !== "string") return writeHttpRequest(model);
      const body = r.body;
      const inPlace = body.includes("\r") ? undefined : tryWrite(model);
      if (inPlace !== undefined) return inPlace;
      // Kept byte for byte in a file of its own.
      let file = `bodies/${slug(stem)}-${slug(title) || "body"}${extension(r)}`;
      for (let n = 2; bodyNames.has(`${dir}${file}`); n++) {
        file = `bodies/${slug(stem)}-${slug(title) || "body"}-${n}${extension(r)}`;
      }
      bodyNames.add(`${dir}${file}`);
      files.push({ name: `${dir}${file}`, text: body, mode: 0o644 });
      const included = writeHttpRequest({ ...model, body: { file: `./${file}` } });
      // `<@` substitutes {{variables}} in the file, as they are in a body written in place.
      if (!/\{\{[^{}]+\}\}/.test(body)) return included;
      return included.replace(`\n< ./${file}\n`, `\n<@ ./${file}\n`);
    };
    const entries = requests.map((r) => withAssertions(withScripts(written(r), r, dir), r));
    files.push({
      name: `${dir}${name}`,
      text: `${lines.join("\n")}\n${entries.join("\n")}`,
      mode: 0o644,
      folder: requests[0]?.folder ?? [],
    });
  };
  // An OpenAPI description's operations have no run order: its tag files keep plain names.
  const ordered = result.format !== "openapi";
  const layout = (folder: Folder, dir: string) => {
    // Consecutive requests make one file; a folder of requests only, one file; else a folder.
    const items: Array<{ kind: "run"; requests: ImportedRequest[] } | Folder> = [];
    for (const e of folder.entries) {
      const last = items.at(-1);
      if (!isFolder(e) && last && "kind" in last) last.requests.push(e);
      else if (!isFolder(e)) items.push({ kind: "run", requests: [e] });
      else items.push(e);
    }
    const width = String(items.length).length < 2 ? 2 : String(items.length).length;
    items.forEach((item, i) => {
      const prefix = items.length > 1 && ordered ? `${String(i + 1).padStart(width, "0")}-` : "";
      if ("kind" in item) {
        writeRun(dir, `${prefix}${slug(folder.name) || "requests"}.http`, item.requests);
      } else if (item.entries.every((e) => !isFolder(e))) {
        writeRun(
          dir,
          `${prefix}${slug(item.name) || "requests"}.http`,
          item.entries as ImportedRequest[],
        );
      } else layout(item, `${dir}${prefix}${slug(item.name) || "folder"}/`);
    });
  };
  layout(root, "");
  files.push(...environmentFiles(result));
  return files;
}

/** The collection's requests as a tree of folders, in order. */
function folderTree(result: ImportResult): Folder {
  const root: Folder = { name: result.name, entries: [] };
  for (const request of result.requests) {
    let folder = root;
    for (const name of request.folder) {
      // A folder met again (an OpenAPI tag) continues where it is.
      let next = folder.entries.find((e): e is Folder => isFolder(e) && e.name === name);
      if (!next) folder.entries.push(next = { name, entries: [] });
      folder = next;
    }
    folder.entries.push(request);
  }
  return root;
}

/**
 * A request's scripts in the order they run: pre-request blocks before the request line,
 * test blocks at the end. A collection's or folder's script goes to `scripts/` beside the
 * request file once; a request's own stays in place unless it holds what would end the
 * block (`%}`, a `###` line).
 *
 * @param files the import's files, to which shared script files are added (each once)
 * @returns what writes a request's scripts into its text
 */
function scriptWriter(
  files: ImportFile[],
): (text: string, r: ImportedRequest, dir: string) => string {
  const scriptFiles = new Map<string, string>();
  return (text: string, r: ImportedRequest, dir: string): string => {
    if (!r.scripts) return text;
    const block = (mark: "<" | ">", script: ImportScript, kind: string) => {
      if (!script.shared && !/%\}|^###/m.test(script.code)) {
        return `${mark} {%\n${script.code.replace(/\s+$/, "")}\n%}`;
      }
      const base = `scripts/${slug(script.shared ?? `${r.name} ${kind}`) || "script"}`;
      let file = `${base}.js`;
      for (
        let n = 2;
        scriptFiles.has(`${dir}${file}`) && scriptFiles.get(`${dir}${file}`) !== script.code;
        n++
      ) {
        file = `${base}-${n}.js`;
      }
      if (!scriptFiles.has(`${dir}${file}`)) {
        scriptFiles.set(`${dir}${file}`, script.code);
        files.push({
          name: `${dir}${file}`,
          text: `${script.code.replace(/\s+$/, "")}\n`,
          mode: 0o644,
        });
      }
      return `${mark} ./${file}`;
    };
    const lines = text.replace(/\n$/, "").split("\n");
    const at = lines.findIndex((l) => !l.startsWith("#"));
    const pre = r.scripts.pre.map((s) => block("<", s, "pre-request"));
    const test = r.scripts.test.map((s) => block(">", s, "test"));
    lines.splice(at, 0, ...pre);
    return `${[...lines, ...(test.length ? ["", ...test] : [])].join("\n")}\n`;
  };
}

/** The environment files: public (with the collection's auth) and private (0600). */
function environmentFiles(result: ImportResult): ImportFile[] {
  const files: ImportFile[] = [];
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

/** A request's `??` assertion lines, after everything else it has. */
function withAssertions(text: string, r: ImportedRequest): string {
  if (!r.assertions?.length) return text;
  return `${text.replace(/\n+$/, "")}\n\n${r.assertions.join("\n")}\n`;
}

/** The request written with its body in place, or undefined when the body cannot be. */
function tryWrite(model: RequestModel): string | undefined {
  try {
    return writeHttpRequest(model);
  } catch (error) {
    if (error instanceof UsageError && /body in place/.test(error.message)) return undefined;
    throw error;
  }
}

/** A body file's extension, from the request's Content-Type. */
function extension(r: ImportedRequest): string {
  const type = r.headers.find((h) => /^content-type$/i.test(h.name))?.value ?? "";
  if (/json/i.test(type)) return ".json";
  if (/xml/i.test(type)) return ".xml";
  if (/html/i.test(type)) return ".html";
  if (/javascript/i.test(type)) return ".js";
  return ".txt";
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
