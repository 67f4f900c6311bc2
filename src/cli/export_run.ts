/**
 * `dial export`'s implementation.
 * @module
 */
import { ExitCode, UsageError } from "../errors/mod.ts";
import {
  asteriskLoss,
  curlCode,
  type ExportTarget,
  fetchCode,
  harRequest,
  httpieCode,
  pythonCode,
} from "../export/code_writers.ts";
import { type ExportedRequest, exportRequest } from "../export/export_request.ts";
import { withoutLiteralSecrets } from "../export/export_secrets.ts";
import { postmanCollection, postmanEnvironment } from "../export/postman_export.ts";
import { loadEnvironment, PRIVATE_ENV_FILE, PUBLIC_ENV_FILE } from "../files/environment.ts";
import type { HttpFile, HttpRequest, Script } from "../files/http_file_types.ts";
import type { VariableScope, VariableValue } from "../files/substitute.ts";
import { protoLines, type ScriptModel, writeHttpRequest } from "../files/write_http_file.ts";
import { warn } from "../output/report.ts";
import type { CliContext } from "./context.ts";
import type { ExportFlagValues } from "./interchange.ts";
import { dirOf, readHttpFile } from "./file_setup.ts";
import { parseVarFlags } from "../files/environment.ts";
import { isReference, resolveReference } from "./secret_ref.ts";
import { Secret } from "../secret.ts";

/**
 * Runs `dial export`.
 *
 * @param path the request file
 * @param names the requests to export (all when empty)
 * @param flags the flag values
 * @param context the run's output and environment
 * @returns the exit code
 */
export async function runExport(
  path: string,
  names: readonly string[],
  flags: ExportFlagValues,
  context: CliContext,
): Promise<number> {
  const target = flags.to as ExportTarget | undefined;
  if (target === undefined) {
    throw new UsageError("dial export needs --to", {
      hint: "give --to curl, http, postman, har, fetch, python or httpie",
    });
  }
  const file = await readHttpFile(path, context);
  const picked = pick(file.requests, names, path);
  // Credentials the file holds literally are secrets too: variables, unless --with-secrets.
  const { requests, secrets: literal } = flags.withSecrets
    ? { requests: picked, secrets: new Map<string, string>() }
    : withoutLiteralSecrets(picked, new Set(file.variables.map((v) => v.name)));
  const dir = dirOf(path);
  const secrets = flags.withSecrets;
  // Without --with-secrets references are not even resolved: they stay secrets by name.
  const needsScope = target !== "http" && target !== "postman";
  const environment = needsScope
    ? await loadEnvironment(dir, {
      ...(flags.env !== undefined ? { name: flags.env } : {}),
      envFiles: flags.envFile,
      resolve: secrets
        ? (value, where) => resolveReference(value, where, context)
        : (value) => Promise.resolve(value),
    })
    : undefined;
  const overrides = new Map<string, VariableValue>();
  for (const [name, value] of needsScope ? parseVarFlags(flags.var) : []) {
    overrides.set(
      name,
      isReference(value)
        ? new Secret(secrets ? await resolveReference(value, `--var ${name}=`, context) : value)
        : value,
    );
  }
  const variables = new Map(environment?.variables ?? []);
  for (const [name, value] of literal) variables.set(name, new Secret(value));
  if (literal.size && !needsScope) {
    await warn(
      context.stderr,
      `The export refers to ${
        [...literal.keys()].map((v) => `{{${v}}}`).join(", ")
      } instead of the credentials the file holds: set ${
        literal.size === 1 ? "it" : "them"
      } in an environment (or give --with-secrets)`,
    );
  }
  const text = await exportText(target, file, requests, {
    path,
    withSecrets: secrets,
    scope: {
      ...(environment || literal.size ? { environment: variables } : {}),
      overrides,
      env: (name: string) => context.env(name),
    },
    context,
  });
  if (target === "postman" && flags.out !== undefined) {
    await postmanEnvironments(path, flags.out, flags.withSecrets);
  }
  if (flags.out !== undefined) await Deno.writeTextFile(flags.out, text);
  else await context.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
  return ExitCode.OK;
}

/** Options of {@link exportText}. */
export interface ExportTextOptions {
  /** The request file's path (relative includes are read from its directory). */
  path: string;
  /** Write secret values as they are. */
  withSecrets: boolean;
  /** The variables `dial run` would use, besides the file's own (added here). */
  scope: VariableScope;
  /** Variables for the Postman collection and the `.http` text besides the file's own. */
  variables?: Record<string, string>;
  /** curl arguments that curl output adds (the transport flags of `dial … --export curl`). */
  curlArgs?: readonly string[];
  /** The run's output and environment. */
  context: CliContext;
}

/**
 * The requests of a file in one of the export formats: the one writer of each format, used by
 * `dial export` and by `dial … --export`.
 *
 * @param target the format
 * @param file the parsed request file
 * @param requests the requests to write
 * @param options the scope, secrets and output
 * @returns the text
 */
export async function exportText(
  target: ExportTarget,
  file: HttpFile,
  requests: readonly HttpRequest[],
  options: ExportTextOptions,
): Promise<string> {
  const extra = Object.entries(options.variables ?? {});
  if (target === "http") {
    const variables = [
      ...file.variables.map((v) => `@${v.name} = ${v.value}\n`),
      ...extra.map(([name, value]) => `@${name} = ${value}\n`),
      // The file's own `proto <` lines: a block of their own, ended by the first request's `###`.
      ...(file.protos?.length ? [`${protoLines(file.protos).join("\n")}\n`] : []),
    ];
    // Each request in a block of its own: an unnamed one after another starts with `###`.
    const texts = requests.map((r, i) => {
      const text = writeHttpRequest(modelOf(r, file.source));
      const separated = text.startsWith("###") || (i === 0 && !file.protos?.length);
      return separated ? text : `###\n${text}`;
    });
    return [variables.join(""), ...texts].filter((t) => t !== "").join("\n");
  }
  // A gRPC call has no form in the other formats: left out, and said so.
  const grpc = requests.filter((r) => r.method === "GRPC");
  for (const r of grpc) {
    await warn(
      options.context.stderr,
      `Not carried: the GRPC request ${
        r.name ? `"${r.name}"` : `of line ${r.requestLine.line}`
      }: a gRPC call has no ${target} form (export it --to http, or call it with dial grpc)`,
    );
  }
  if (grpc.length) {
    requests = requests.filter((r) => r.method !== "GRPC");
    if (!requests.length) {
      throw new UsageError(`Nothing to export --to ${target}: every request is a GRPC request`, {
        hint: "export them --to http, or call them with dial grpc",
      });
    }
  }
  if (target === "postman") {
    const name = (options.path.split("/").at(-1) ?? options.path).replace(/\.(http|rest)$/, "");
    const scripts = await postmanScriptFiles(requests, dirOf(options.path));
    const { collection, losses } = postmanCollection(file, name, requests, scripts);
    for (const [key, value] of extra) {
      (collection.variable as Array<{ key: string; value: string }>).push({ key, value });
    }
    for (const l of losses) {
      await warn(options.context.stderr, `Not carried: ${l.where}: ${l.what}`);
    }
    return `${JSON.stringify(collection, null, 2)}\n`;
  }
  return await code(target, requests, {
    path: options.path,
    dir: dirOf(options.path),
    secrets: options.withSecrets,
    scope: { ...options.scope, file: file.variables },
    context: options.context,
    curlArgs: options.curlArgs ?? [],
  });
}

function pick(
  requests: readonly HttpRequest[],
  names: readonly string[],
  path: string,
): HttpRequest[] {
  if (names.length === 0) return [...requests];
  return names.map((name) => {
    const found = requests.find((r) => r.name === name);
    if (!found) {
      const known = requests.flatMap((r) => r.name ? [r.name] : []).join(", ");
      throw new UsageError(`No request named "${name}" in ${path}`, {
        ...(known ? { hint: `its named requests: ${known}` } : {}),
      });
    }
    return found;
  });
}

async function code(
  target: Exclude<ExportTarget, "http" | "postman">,
  requests: readonly HttpRequest[],
  options: {
    path: string;
    dir: string;
    secrets: boolean;
    scope: VariableScope;
    context: CliContext;
    curlArgs: readonly string[];
  },
): Promise<string> {
  const { context, scope } = options;
  const out: string[] = [];
  const entries: unknown[] = [];
  const envVars = new Set<string>();
  const exports: ExportedRequest[] = [];
  for (const request of requests) {
    exports.push(
      await exportRequest(request, {
        scope,
        path: options.path,
        dir: options.dir,
        withSecrets: options.secrets,
      }),
    );
  }
  const readsEnvironment = exports.some((e) => e.envVars.length > 0);
  const asterisk = exports.some((e) => e.prepared.target !== undefined);
  for (const [index, request] of requests.entries()) {
    const exported = exports[index]!;
    exported.envVars.forEach((v) => envVars.add(v));
    const loss = exported.prepared.target && asteriskLoss(target, exported.file.follow);
    if (loss) {
      await warn(
        context.stderr,
        `Not carried: ${request.name ?? `OPTIONS ${request.url}`}: ${loss}`,
      );
    }
    if (target === "har") {
      entries.push({
        startedDateTime: new Date(0).toISOString(),
        time: -1,
        request: harRequest(exported),
        response: emptyResponse(),
        cache: {},
        timings: { send: -1, wait: -1, receive: -1 },
      });
      continue;
    }
    const label = request.name ? `${request.name}: ` : "";
    const several = requests.length > 1;
    const writer = {
      curl: (e: ExportedRequest) => curlCode(e, options.curlArgs),
      httpie: httpieCode,
      // One program: the imports once, at the top; each request's `response` in its own block.
      python: (e: ExportedRequest) =>
        pythonCode(e, { imports: out.length === 0, readsEnvironment, asterisk }),
      fetch: (e: ExportedRequest) =>
        several ? `{\n${fetchCode(e).trimEnd().replace(/^(?=.)/gm, "  ")}\n}\n` : fetchCode(e),
    }[target];
    const comment = target === "python" ? "#" : target === "fetch" ? "//" : "#";
    out.push(`${comment} ${label}${request.method} ${request.url}`.trimEnd(), writer(exported));
  }
  if (envVars.size) {
    await warn(
      context.stderr,
      `The exported code reads ${[...envVars].map((v) => `$${v}`).join(", ")} from the environment`,
    );
  }
  if (target === "har") {
    return `${
      JSON.stringify(
        { log: { version: "1.2", creator: { name: "dial", version: "export" }, entries } },
        null,
        2,
      )
    }\n`;
  }
  return `${out.join("\n")}\n`;
}

function emptyResponse() {
  return {
    status: 0,
    statusText: "",
    httpVersion: "",
    cookies: [],
    headers: [],
    content: { size: 0, mimeType: "" },
    redirectURL: "",
    headersSize: -1,
    bodySize: -1,
  };
}

function modelOf(r: HttpRequest, source: string) {
  return {
    ...(r.name !== undefined ? { name: r.name } : {}),
    ...(r.comments.length ? { comments: r.comments } : {}),
    directives: r.directives.map((d) => ({ name: d.name, ...(d.value ? { value: d.value } : {}) })),
    ...(r.protos ? { protos: r.protos } : {}),
    method: r.method,
    url: r.url,
    headers: r.headers.map((h) => ({ name: h.name, value: h.value })),
    ...(r.body.length
      ? {
        body: r.body.length === 1 && r.body[0]!.kind === "file"
          ? { file: r.body[0]!.path }
          : { parts: r.body.map((p) => p.kind === "text" ? p.text : { file: p.path }) },
      }
      : {}),
    ...(r.preScripts.length ? { preScripts: r.preScripts.map(scriptModel) } : {}),
    // httpyac's {{@streaming blocks are written after the body too (their form keeps the event).
    ...(r.handlers.length || r.streaming
      ? { handlers: [...r.handlers, ...r.streaming ?? []].map(scriptModel) }
      : {}),
    ...(r.outputs.length
      ? { outputs: r.outputs.map((o) => ({ path: o.path, overwrite: o.overwrite })) }
      : {}),
    ...(r.assertions.length
      ? {
        assertions: r.assertions.map((a) =>
          source.slice(a.span.start, a.span.end).replace(/^\s*\?\?\s*/, "").trimEnd()
        ),
      }
      : {}),
  };
}

function scriptModel(script: Script): ScriptModel {
  if (script.kind === "file") return { file: script.path };
  return script.httpyac ? { code: script.code, httpyac: script.httpyac } : { code: script.code };
}

/**
 * The script files of `# @postman` requests, by the path as written: `.js` files inside the
 * request file's folder only (a file from elsewhere is left out and reported, never copied into
 * the collection).
 */
async function postmanScriptFiles(
  requests: readonly HttpRequest[],
  dir: string,
): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  let root: string;
  try {
    root = await Deno.realPath(dir);
  } catch {
    return texts;
  }
  for (const r of requests) {
    if (!r.directives.some((d) => d.name === "postman")) continue;
    for (const script of [...r.preScripts, ...r.handlers]) {
      if (script.kind !== "file" || texts.has(script.path) || !/\.js$/i.test(script.path)) continue;
      try {
        const real = await Deno.realPath(
          script.path.startsWith("/") ? script.path : `${dir}/${script.path}`,
        );
        if (real.startsWith(`${root}/`)) texts.set(script.path, await Deno.readTextFile(real));
      } catch {
        // Not there: reported as not read.
      }
    }
  }
  return texts;
}

/** Writes each environment of the request file's folder beside the exported collection. */
async function postmanEnvironments(
  path: string,
  out: string,
  withSecrets: boolean,
): Promise<void> {
  const dir = dirOf(path);
  const read = async (p: string) => {
    try {
      return JSON.parse(await Deno.readTextFile(`${dir}/${p}`)) as Record<
        string,
        Record<string, string>
      >;
    } catch {
      return {};
    }
  };
  const pub = await read(PUBLIC_ENV_FILE);
  const priv = await read(PRIVATE_ENV_FILE);
  const outDir = dirOf(out);
  for (const env of new Set([...Object.keys(pub), ...Object.keys(priv)])) {
    if (env.startsWith("$")) continue;
    const target = `${outDir}/${env}.postman_environment.json`;
    await Deno.writeTextFile(
      target,
      `${
        JSON.stringify(
          postmanEnvironment(env, pub[env] ?? {}, priv[env] ?? {}, withSecrets),
          null,
          2,
        )
      }\n`,
      { mode: 0o600 },
    );
  }
}
