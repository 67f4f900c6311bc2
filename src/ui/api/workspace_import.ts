/**
 * Files dropped on the sidebar (or chosen with Import), imported into the workspace by
 * `dial import`'s reader and writer (`src/import/`): Postman collections and environments,
 * Insomnia, OpenAPI/Swagger (JSON or YAML), HAR and curl text become `.http` files and
 * environment files at the workspace's top, secrets in `http-client.private.env.json` (0600);
 * a dropped `.http` file is copied as it is once the request files' parser reads it. Nothing is
 * replaced without the user's word: a first call that would change an existing file answers
 * 409 with the files, and the page asks before it calls again with `overwrite`. Environment
 * files are merged (an environment's variables added to the file's); a variable whose value
 * would change counts as a change. Every write goes through {@link Workspace.write}.
 * @module
 */
import { load } from "../../load.ts";
import { UsageError } from "../../errors/mod.ts";
import { PRIVATE_ENV_FILE, PUBLIC_ENV_FILE } from "../../files/environment.ts";
import { parseHttpFile } from "../../files/parse_http_file.ts";
import type { ErrorBody } from "../protocol.ts";
import type { Workspace } from "../workspace_path.ts";
import type { ApiContext } from "./http_api.ts";
import { workspaceCall } from "./workspace_api.ts";
import { array, isObject, object, string } from "./decode.ts";

/** One file the import writes. */
interface Planned {
  name: string;
  text: string;
  mode: number;
  /** What it would change in an existing file (empty: a new file, or only additions). */
  changes: string[];
}

/** What the page is told after an import. */
export interface ImportReport {
  format: string;
  requests: number;
  files: string[];
  losses: Array<{ where: string; what: string }>;
  /** Whether secrets went to the private environment file. */
  secrets: boolean;
  /** Each secret moved there, one line per variable (`import_secrets.ts`). */
  moved: string[];
}

const ENV_FILES = new Set([PUBLIC_ENV_FILE, PRIVATE_ENV_FILE]);

/**
 * `POST /api/workspace/import`: `{sources: [{name, text}], overwrite?}` → {@link ImportReport};
 * 409 naming what it would change when `overwrite` is not true.
 *
 * @param request the call
 * @param context the workspace
 * @returns the report
 */
export async function handleWorkspaceImport(
  request: Request,
  context: ApiContext,
): Promise<Response> {
  const { workspace, json } = await workspaceCall(request, context);
  const sources = array(json.sources, "sources").map((s, i) => {
    const source = object(s, `sources[${i}]`);
    return {
      name: baseName(string(source.name, `sources[${i}].name`)),
      text: string(source.text, `sources[${i}].text`),
    };
  });
  if (sources.length === 0) throw new UsageError("Nothing to import");
  const { report, files } = await plan(sources);
  const planned: Planned[] = [];
  for (const file of files) planned.push(await merged(workspace, file));
  const changed = planned.filter((p) => p.changes.length > 0);
  if (changed.length > 0 && json.overwrite !== true) {
    const body: ErrorBody = {
      error: {
        code: "conflict",
        message: `The import would change ${
          changed.flatMap((p) => p.changes).map((c) => `"${c}"`).join(", ")
        }`,
        hint: "confirm to replace them, or rename the files first",
      },
    };
    return Response.json(body, { status: 409 });
  }
  for (const file of planned) {
    // The import keeps the collection's folders: each one is made inside the workspace.
    const parts = file.name.split("/");
    for (let i = 1; i < parts.length; i++) {
      const folder = parts.slice(0, i).join("/");
      await Deno.mkdir(await workspace.resolve(folder, { create: true })).catch((error) => {
        if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
      });
    }
    await workspace.write(file.name, file.text, file.mode);
  }
  return Response.json({ ...report, files: planned.map((p) => p.name) });
}

/** The files an import writes, by `dial import`'s reader and writer. */
async function plan(
  sources: Array<{ name: string; text: string }>,
): Promise<{ report: Omit<ImportReport, "files">; files: Array<Omit<Planned, "changes">> }> {
  const httpFiles = sources.filter((s) => /\.(http|rest)$/i.test(s.name));
  if (httpFiles.length > 0) {
    if (httpFiles.length !== sources.length) {
      throw new UsageError("Drop request files (.http) apart from other files to import");
    }
    let requests = 0;
    for (const source of httpFiles) {
      requests += parseHttpFile(source.text, source.name).requests.length;
    }
    return {
      report: { format: "http", requests, losses: [], secrets: false, moved: [] },
      files: httpFiles.map((s) => ({ name: s.name, text: s.text, mode: 0o644 })),
    };
  }
  // The importer (and its YAML and OpenAPI packages) loads when something is dropped.
  const { readImport } = await load.readImport();
  const { importFiles } = await load.writeImport();
  const { movedSecrets } = await load.importSecrets();
  const result = await readImport(sources);
  const files = importFiles(result);
  return {
    report: {
      format: result.format,
      requests: result.requests.length,
      losses: result.losses.map((l) => ({ where: l.where, what: l.what })),
      secrets: files.some((f) => f.name === PRIVATE_ENV_FILE),
      moved: movedSecrets(result.moved),
    },
    files: files.map((f) => ({ name: f.name, text: f.text, mode: f.mode })),
  };
}

/**
 * The file as it would be written over what is there: a request file whole, an environment
 * file merged into the existing one.
 */
async function merged(workspace: Workspace, file: Omit<Planned, "changes">): Promise<Planned> {
  const real = await workspace.resolve(file.name, { create: true }).catch((error) => {
    // In a folder that does not exist yet: a new file.
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  });
  if (real === undefined) return { ...file, changes: [] };
  const current = await Deno.readTextFile(real).catch((error) => {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  });
  if (current === undefined) return { ...file, changes: [] };
  if (!ENV_FILES.has(file.name)) {
    return { ...file, changes: current === file.text ? [] : [file.name] };
  }
  let existing: unknown;
  try {
    existing = JSON.parse(current);
  } catch {
    return { ...file, changes: [file.name] };
  }
  const incoming: unknown = JSON.parse(file.text);
  if (!isObject(existing) || !isObject(incoming)) return { ...file, changes: [file.name] };
  const out: Record<string, unknown> = { ...existing };
  const changes: string[] = [];
  for (const [env, vars] of Object.entries(incoming)) {
    const before = existing[env];
    if (!isObject(vars) || !isObject(before)) {
      if (before !== undefined && JSON.stringify(before) !== JSON.stringify(vars)) {
        changes.push(`${file.name} (${env})`);
      }
      out[env] = before === undefined ? vars : isObject(vars) ? vars : before;
      continue;
    }
    for (const [key, value] of Object.entries(vars)) {
      if (key in before && JSON.stringify(before[key]) !== JSON.stringify(value)) {
        changes.push(`${file.name} (${env}.${key})`);
      }
    }
    out[env] = { ...before, ...vars };
  }
  // The private file keeps its own mode (0600 or stricter).
  const mode = file.name === PRIVATE_ENV_FILE ? 0o600 : file.mode;
  return { name: file.name, text: `${JSON.stringify(out, null, 2)}\n`, mode, changes };
}

/** A dropped file's own name: the browser gives no folder, and none is taken from it. */
function baseName(name: string): string {
  const base = name.split(/[\\/]/).at(-1)!.trim();
  if (base === "" || base === "." || base === ".." || base.includes("\0")) {
    throw new UsageError(`Invalid file name "${name}"`);
  }
  return base;
}
