/**
 * The environment picker (`http-client.env.json` / `http-client.private.env.json`) and the
 * line that shows each `{{variable}}` of the active request: its value and where it comes from
 * (the environment's public file, the private one, whose values never reach the page, or the
 * file's `@variables`), and the undefined ones, marked before sending. The server substitutes
 * when it sends, with the request files' own rules.
 * @module
 */
import { batch, computed, effect, signal } from "@preact/signals";
import type { JSX } from "preact";
import { useEffect } from "preact/hooks";
import { isRecord, postJson } from "../api.ts";
import { currentDraft } from "../http/http_tab.tsx";
import {
  httpSource,
  setRequestDraft,
  setRequestExtras,
  setRequestSource,
} from "../request_extras.ts";
import { draftOfKind, kindDrafts, kindSources, type StreamKind } from "./kind_requests.ts";
import type { HttpDraft } from "./request_edit.ts";
import { isString, persisted } from "../storage.ts";
import { openedFiles, sessionGlobals } from "./files.ts";
import { activeSource } from "./request_tabs.tsx";
import {
  setKindLookup,
  setVariableLookup,
  shownValue,
  type VariableLookup,
  variablesChanged,
} from "../variable_marks.ts";
import { SecretForm, setSecret } from "./secret_form.tsx";
import { loadIndex, requestIndex } from "./request_index.ts";

type Info = { value?: string; from: "public" | "private"; file?: string };

/** The environments beside the active request's file. */
const names = signal<string[]>([]);
/**
 * Whether the environments have been read: until then the picker shows no value (neither
 * "No environment", which the workspace may have none of, nor a name it may not have).
 */
const namesKnown = signal(false);
const variables = signal<Record<string, Record<string, Info>>>({});
/** The `Security.Auth` configurations of each environment: ids and grants, no values. */
const authConfigs = signal<Record<string, { id: string; grant: string }[]>>({});
/** The chosen environment ("" for none). */
export const chosenEnvironment = persisted("environment", "", isString);
/** Whether the person chose it (else the first environment is taken when there is one). */
const environmentPicked = persisted(
  "environment.picked",
  false,
  (v): v is boolean => typeof v === "boolean",
);

setRequestExtras((kind) => {
  const source = kind === "http" ? activeSource.peek() : kindSources.peek()[kind];
  return {
    ...(chosenEnvironment.peek() ? { environment: chosenEnvironment.peek() } : {}),
    ...(source ? { file: source.path } : {}),
  };
});

setRequestSource((kind) => kind === "http" ? activeSource.peek() : kindSources.peek()[kind]);
setRequestDraft((kind) => {
  if (kind === "http") return undefined;
  try {
    return draftOfKind(kind);
  } catch {
    // A binary message cannot be written in a request file: the tab's own fields are sent.
    return undefined;
  }
});
effect(() => {
  httpSource.value = activeSource.value;
});

/** The chosen environment's `Security.Auth` configurations (id and grant). */
export const securityAuths = computed(() => authConfigs.value[chosenEnvironment.value] ?? []);

async function load(file: string | undefined): Promise<void> {
  try {
    const answer = await postJson("/api/workspace/environments", file ? { file } : {});
    if (!isRecord(answer) || !Array.isArray(answer.names) || !isRecord(answer.variables)) {
      namesKnown.value = true;
      return;
    }
    const listed = answer.names.filter(isString);
    // One render: the names and the environment chosen among them.
    batch(() => {
      // `.env` may have changed too: the line asks again.
      systemVariables.value = new Map();
      names.value = listed;
      // Until one is picked, the first environment (as `dial run` users name it with --env).
      if (!environmentPicked.peek() && chosenEnvironment.peek() === "" && listed[0]) {
        chosenEnvironment.value = listed[0];
      }
      namesKnown.value = true;
      variables.value = answer.variables as Record<string, Record<string, Info>>;
      authConfigs.value = isRecord(answer.auth)
        ? answer.auth as Record<string, { id: string; grant: string }[]>
        : {};
    });
  } catch {
    // The request's file is gone (renamed, moved or deleted): the workspace top's environments.
    if (file !== undefined) return await load(undefined);
    batch(() => {
      names.value = [];
      namesKnown.value = true;
    });
  }
}

/** @returns the picker */
export function EnvironmentPicker(): JSX.Element {
  const file = activeSource.value?.path;
  useEffect(() => void load(file), [file]);
  return (
    <>
      <EnvironmentSelect />
      <SecretForm environment={chosenEnvironment.value} reload={() => load(file)} />
    </>
  );
}

function EnvironmentSelect(): JSX.Element {
  return (
    <label class="environment">
      Environment
      <select
        value={chosenEnvironment.value}
        aria-busy={!namesKnown.value}
        onChange={(e) => {
          environmentPicked.value = true;
          chosenEnvironment.value = e.currentTarget.value;
        }}
      >
        {namesKnown.value && <option value="">No environment</option>}
        {names.value.map((n) => <option key={n} value={n}>{n}</option>)}
      </select>
    </label>
  );
}

const TEMPLATE = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** A variable's value (none when private or set by a script), where it comes from. */
type Lookup = VariableLookup;

/**
 * A variable's value and source: the chosen environment, else the session's globals, else the
 * file's `@variables` (the order of Send's scope).
 */
const lookup = computed(() => lookupIn(activeSource.value?.path));

/** The lookup for a request of a file (or of none), reading the signals it depends on. */
function lookupIn(path: string | undefined): Lookup {
  const env = variables.value[chosenEnvironment.value] ?? {};
  const chosen = chosenEnvironment.value;
  const file = path !== undefined ? openedFiles.value.get(path) : undefined;
  const fileVariables = file && !("error" in file.parsed) ? file.parsed.variables : [];
  const globals = sessionGlobals.value;
  return (name: string): ReturnType<Lookup> => {
    const fromEnv = env[name];
    if (fromEnv) {
      return {
        ...(fromEnv.value !== undefined ? { value: fromEnv.value } : {}),
        // Which environment, and which of its files.
        from: `${chosen} in ${
          fromEnv.file ??
            (fromEnv.from === "private" ? "http-client.private.env.json" : "http-client.env.json")
        }`,
      };
    }
    // Then the session's globals, as Send's scope has them (environment > globals > file).
    if (globals.has(name)) return { from: "a global of this session", shown: "(set by a script)" };
    const fromFile = fileVariables.findLast((v) => v.name === name);
    if (fromFile) return { value: fromFile.value, from: `@${name} of ${path}` };
    // Set when a script of the file runs (a global, or a request variable), as dial run has it.
    const setter = file ? scriptSetter(file.text, name) : undefined;
    return setter ? { from: `${setter} in ${path}`, shown: "(when the script runs)" } : undefined;
  };
}

/**
 * @param text a request file's text
 * @param name a variable
 * @returns which script call of the file sets it, if one does
 */
function scriptSetter(text: string, name: string): string | undefined {
  for (
    const match of text.matchAll(/\b(client\.global|request\.variables)\.set\(\s*(["'`])(.*?)\2/g)
  ) {
    if (match[3] === name) return `${match[1]}.set`;
  }
  return undefined;
}
setVariableLookup((name) => lookup.peek()(name));
setKindLookup((kind, name) => lookupIn(kindSources.peek()[kind as StreamKind]?.path)(name));
// A new lookup (another environment, new values): the editors mark again.
lookup.subscribe(() => variablesChanged());

/**
 * A request variable of a request (`{{login.response.body.$.token}}`): the files it reads from.
 * A request of a file reads its own file's requests (as `dial run`); one in no file reads the
 * one file of the workspace that names the request (two are an error that Send gives too).
 */
interface Reference {
  /** The request's name. */
  name: string;
  /** Its files: the tab's own, else those of the workspace that name it. */
  files: string[];
}

/** `{{$processEnv NAME}}` or `{{$dotenv NAME}}` (a name not read from a variable: `%NAME`). */
const SYSTEM = /^\$(?:processEnv|dotenv)\s+[^\s%]\S*$/;

/** A `{{$processEnv NAME}}` or `{{$dotenv NAME}}` of a request: the server tells where Send reads it. */
interface SystemUse {
  system: true;
}

/** Where Send reads one, or why it would refuse it (the server's answer; never a value). */
type SystemInfo = { from: string } | { missing: string };

/** The server's answers, by {@link systemKey}; emptied when the environments are read again. */
const systemVariables = signal<ReadonlyMap<string, SystemInfo>>(new Map());
/** The keys asked for and not answered yet. */
const systemAsked = new Set<string>();

function systemKey(path: string | undefined, name: string): string {
  return `${path ?? ""}\n${name}`;
}

/** Asks the server where Send reads these `$processEnv` / `$dotenv` names of a file's request. */
async function askSystem(path: string | undefined, names: string[]): Promise<void> {
  try {
    const answer = await postJson("/api/workspace/environments/system", {
      ...(path !== undefined ? { file: path } : {}),
      names,
    });
    if (!isRecord(answer) || !isRecord(answer.variables)) return;
    const next = new Map(systemVariables.peek());
    for (const [name, info] of Object.entries(answer.variables)) {
      if (isRecord(info) && (isString(info.from) || isString(info.missing))) {
        next.set(systemKey(path, name), info as SystemInfo);
      }
    }
    systemVariables.value = next;
  } catch {
    // The file is gone: the line leaves them out, Send says why.
  } finally {
    for (const name of names) systemAsked.delete(systemKey(path, name));
  }
}

/** Each `{{name}}` of a request, with its value and source, or undefined; or a reference. */
function usedIn(draft: HttpDraft | undefined, look: Lookup, path: string | undefined) {
  if (!draft) return [];
  const text = [
    draft.url,
    ...draft.headers.flatMap((h) => [h.name, h.value]),
    draft.body,
    ...draft.form.flatMap((r) => [r.name, r.value]),
  ].join("\n");
  const found = new Map<string, ReturnType<Lookup> | Reference | SystemUse>();
  for (const match of text.matchAll(TEMPLATE)) {
    const name = match[1]!;
    if (found.has(name)) continue;
    if (SYSTEM.test(name)) found.set(name, { system: true });
    if (name.startsWith("$")) continue;
    const ref = REFERENCE.exec(name);
    if (ref) found.set(name, { name: ref[1]!, files: path ? [path] : filesNaming(ref[1]!) });
    else if (!name.includes(".")) found.set(name, look(name));
  }
  return [...found];
}

const REFERENCE = /^([^.\s$]+)\.(?:response|request)\.(?:body|headers)\./;

/** The files of the workspace with a request of that name (from the request index). */
function filesNaming(name: string): string[] {
  return [...new Set(requestIndex.value.filter((r) => r.name === name).map((r) => r.path))];
}

/** The variables of the HTTP tab's active request. */
const used = computed(() => usedIn(currentDraft.value, lookup.value, activeSource.value?.path));
/** The variables of the GraphQL, WebSocket and SSE tabs' requests (with their own file's). */
const kindUsed = computed(() => {
  const drafts = kindDrafts.value;
  const sources = kindSources.value;
  const of = (kind: StreamKind) => {
    const path = sources[kind]?.path;
    return usedIn(drafts[kind], lookupIn(path), path);
  };
  return { graphql: of("graphql"), ws: of("ws"), sse: of("sse"), grpc: of("grpc") };
});

// A request in no file that reads another's result: the line needs the workspace's requests.
effect(() => {
  const lists = [used.value, ...Object.values(kindUsed.value)];
  const reads = lists.some((list) =>
    list.some(([, info]) => isReference(info) && info.files.length === 0)
  );
  if (reads && requestIndex.peek().length === 0) void loadIndex();
});

// The `$processEnv` / `$dotenv` names the shown requests use and the line does not know yet.
effect(() => {
  const sources = kindSources.value;
  const lists: Array<[string | undefined, ReturnType<typeof usedIn>]> = [
    [activeSource.value?.path, used.value],
    ...Object.entries(kindUsed.value).map(([kind, list]) =>
      [sources[kind as StreamKind]?.path, list] as [string | undefined, typeof list]
    ),
  ];
  const known = systemVariables.value;
  const ask = new Map<string | undefined, string[]>();
  for (const [path, list] of lists) {
    for (const [name, info] of list) {
      const key = systemKey(path, name);
      if (!isSystem(info) || known.has(key) || systemAsked.has(key)) continue;
      systemAsked.add(key);
      ask.set(path, [...ask.get(path) ?? [], name]);
    }
  }
  for (const [path, names] of ask) void askSystem(path, names);
});

function isReference(info: ReturnType<Lookup> | Reference | SystemUse): info is Reference {
  return info !== undefined && "files" in info;
}

function isSystem(info: ReturnType<Lookup> | Reference | SystemUse): info is SystemUse {
  return info !== undefined && "system" in info;
}

/**
 * @param props the variable as written and its request's file
 * @returns its part of the variables line: where Send reads it, never its value (as a private
 *   value), or why Send would refuse it; nothing until the server said
 */
function SystemItem(props: { expr: string; path: string | undefined }): JSX.Element | null {
  const info = systemVariables.value.get(systemKey(props.path, props.expr));
  if (!info) return null;
  if ("missing" in info) {
    return (
      <span class="variable undefined" role="alert">
        {`{{${props.expr}}}`} {info.missing}
      </span>
    );
  }
  return (
    <span class="variable" title={`from ${info.from}`}>
      {`{{${props.expr}}}`} = (private) <small>({info.from})</small>
    </span>
  );
}

/**
 * @param expr the reference as written
 * @param reference the request it reads and its files
 * @returns its part of the variables line
 */
function ReferenceItem(
  { expr, reference }: { expr: string; reference: Reference },
): JSX.Element | null {
  const [only, ...others] = reference.files;
  if (only !== undefined && others.length === 0) {
    return (
      <span class="variable" title={`from ${reference.name} in ${only}`}>
        {`{{${expr}}}`} <small>(the result of {reference.name} in {only})</small>
      </span>
    );
  }
  // Not known yet (the index is loading).
  if (only === undefined && requestIndex.value.length === 0) return null;
  return (
    <span class="variable undefined" role="alert">
      {`{{${expr}}}`} {only === undefined
        ? `: no request of the workspace is named ${reference.name}`
        : `is ambiguous: ${reference.name} is named in ${reference.files.join(" and ")}`}
    </span>
  );
}

/**
 * @param props the tab, for the GraphQL, WebSocket and SSE tabs (default: the HTTP tab)
 * @returns the variables line (nothing when the request has none)
 */
export function VariablesLine(props: { kind?: StreamKind }): JSX.Element | null {
  const list = props.kind ? kindUsed.value[props.kind] : used.value;
  const file = props.kind ? kindSources.value[props.kind]?.path : activeSource.value?.path;
  if (list.length === 0) return null;
  return (
    <p class="variables-line" aria-label="Variables">
      {list.map(([name, info]) =>
        isReference(info)
          ? <ReferenceItem key={name} expr={name} reference={info} />
          : isSystem(info)
          ? <SystemItem key={name} expr={name} path={file} />
          : info
          ? (
            <span key={name} class="variable" title={`from ${info.from}`}>
              {`{{${name}}}`} = {shownValue(info)} <small>({info.from})</small>
            </span>
          )
          : (
            <span key={name} class="variable undefined" role="alert">
              {`{{${name}}}`} is undefined
              {chosenEnvironment.value ? ` in ${chosenEnvironment.value}` : ": pick an environment"}
              {chosenEnvironment.value && (
                <button
                  type="button"
                  class="link"
                  onClick={() => setSecret(name, file)}
                >
                  Set {name}
                </button>
              )}
            </span>
          )
      )}
    </p>
  );
}
