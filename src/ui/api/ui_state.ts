/**
 * The UI's remembered state (drafts, the selected tab, history), kept by the server in the
 * workspace as `.dial/ui-state.json`, so it survives a restart on any port and is shared by
 * every browser tab of one `dial ui`. The folder holds a `.gitignore` of `*`, so git ignores it.
 * The page writes only what its drafts' rules allow (credential-named values blanked); the
 * auth panel is never sent. Without a workspace the state lives in memory for the run.
 * @module
 */
import { UsageError } from "../../errors/mod.ts";
import type { ApiContext } from "./http_api.ts";
import { isObject, object, readJson } from "./decode.ts";

/** The most the state file may hold, in characters of JSON. */
export const MAX_STATE_CHARS = 4 * 1024 * 1024;

/** Keys and their JSON text, as the page's drafts store them. */
export type StateValues = Record<string, string>;

/** Where the state lives: a file in the workspace, or memory only. */
export class UiStateStore {
  readonly #file: string | undefined;
  #values: StateValues | undefined;
  #writing: Promise<void> = Promise.resolve();

  /** @param workspace the workspace folder; undefined keeps the state in memory */
  constructor(workspace?: string) {
    this.#file = workspace === undefined ? undefined : `${workspace}/.dial/ui-state.json`;
  }

  /** @returns every key and its JSON text */
  async load(): Promise<StateValues> {
    if (this.#values) return this.#values;
    let values: StateValues = {};
    if (this.#file) {
      try {
        const json: unknown = JSON.parse(await Deno.readTextFile(this.#file));
        if (isObject(json) && isObject(json.values)) {
          for (const [key, value] of Object.entries(json.values)) {
            if (typeof value === "string") values[key] = value;
          }
        }
      } catch (error) {
        // A missing file is a first run; a corrupt one is started afresh (and rewritten).
        if (!(error instanceof Deno.errors.NotFound) && !(error instanceof SyntaxError)) {
          throw error;
        }
        values = {};
      }
    }
    return this.#values = values;
  }

  /**
   * Merges changes (null removes a key) and writes the file atomically.
   *
   * @param changes key → JSON text, or null
   * @param clear whether to forget everything first
   */
  async save(changes: Record<string, string | null>, clear = false): Promise<void> {
    const values = clear ? {} : { ...await this.load() };
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) delete values[key];
      else values[key] = value;
    }
    const text = JSON.stringify({ version: 1, values }, null, 1);
    if (text.length > MAX_STATE_CHARS) {
      throw new UsageError(`The UI state would pass ${MAX_STATE_CHARS / 1024 / 1024} MiB`, {
        hint: "clear saved drafts or history",
      });
    }
    this.#values = values;
    const file = this.#file;
    if (!file) return;
    // One write at a time, in order; each replaces the file whole.
    const write = this.#writing.then(async () => {
      const dir = file.slice(0, file.lastIndexOf("/"));
      await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
      await Deno.writeTextFile(`${dir}/.gitignore`, "*\n", { createNew: true }).catch(() => {});
      const temporary = `${file}.${crypto.randomUUID()}.tmp`;
      await Deno.writeTextFile(temporary, text, { mode: 0o600 });
      await Deno.rename(temporary, file);
    });
    this.#writing = write.catch(() => {});
    await write;
  }
}

/**
 * `POST /api/state/load`: the remembered state.
 *
 * @param request `{}`
 * @param context the state store
 * @returns `{values}`
 */
export async function handleStateLoad(request: Request, context: ApiContext): Promise<Response> {
  await readJson(request);
  return Response.json({ values: await stateOf(context).load() });
}

/**
 * `POST /api/state/save`: `{values: {key: text | null}, clear?}`.
 *
 * @param request the changes
 * @param context the state store
 * @returns `{ok: true}`
 */
export async function handleStateSave(request: Request, context: ApiContext): Promise<Response> {
  const json = object(await readJson(request), "request");
  const values = object(json.values ?? {}, "values");
  const changes: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value !== null && typeof value !== "string") {
      throw new UsageError(`Invalid values.${key}: expected a string or null`);
    }
    changes[key] = value;
  }
  await stateOf(context).save(changes, json.clear === true);
  return Response.json({ ok: true });
}

function stateOf(context: ApiContext): UiStateStore {
  if (!context.state) throw new UsageError("This server keeps no UI state");
  return context.state;
}
