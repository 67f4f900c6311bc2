/**
 * Request files as a Postman collection v2.1 and environments. Variables keep their
 * `{{name}}` form (Postman's own syntax); file variables become collection variables;
 * private environment values become `secret` variables, empty unless the user asks for them.
 * The scripts of `# @postman` requests are Postman's: they become the request's `prerequest` and
 * `test` events again (a script file's text given by the caller); other requests' handlers and
 * pre-request scripts are JetBrains scripts, and are reported, as are `??` assertions.
 *
 * @see https://schema.postman.com/collection/json/v2.1.0/draft-07/docs/index.html
 * @module
 */
import type { HttpFile, HttpRequest, Script } from "../files/http_file_types.ts";
import type { ImportLoss } from "../import/import_model.ts";

const SCHEMA = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/** A collection and what it could not carry. */
export interface PostmanExport {
  /** The collection. */
  collection: Record<string, unknown>;
  /** What was left out. */
  losses: ImportLoss[];
}

/**
 * @param file the parsed request file
 * @param name the collection's name
 * @param requests the requests to export (default: all)
 * @returns the collection
 */
export function postmanCollection(
  file: HttpFile,
  name: string,
  requests: readonly HttpRequest[] = file.requests,
  scriptFiles: ReadonlyMap<string, string> = new Map(),
): PostmanExport {
  const losses: ImportLoss[] = [];
  const items = requests.map((r) => {
    const label = r.name ?? `${r.method} ${r.url}`;
    const postman = r.directives.some((d) => d.name === "postman");
    let event: Array<Record<string, unknown>> = [];
    if (postman) event = postmanEvents(r, scriptFiles, losses, label);
    else if (r.preScripts.length || r.handlers.length) {
      losses.push({ where: label, what: "JetBrains scripts (not Postman's pm API)" });
    }
    if (r.assertions.length) {
      losses.push({ where: label, what: `${r.assertions.length} ?? assertion(s) (httpyac's)` });
    }
    if (r.method === "GRAPHQL" || r.method === "WEBSOCKET") {
      losses.push({ where: label, what: `${r.method} request (Postman collections hold HTTP)` });
    }
    return {
      name: label,
      ...(event.length ? { event } : {}),
      request: postmanRequest(r, losses, label),
    };
  });
  return {
    collection: {
      info: { name, schema: SCHEMA },
      item: items,
      variable: file.variables.map((v) => ({ key: v.name, value: v.value })),
    },
    losses,
  };
}

/**
 * A `# @postman` request's scripts as Postman's events, in the order they run: its pre-request
 * scripts one `prerequest` script, its handlers one `test` script.
 */
function postmanEvents(
  r: HttpRequest,
  scriptFiles: ReadonlyMap<string, string>,
  losses: ImportLoss[],
  label: string,
): Array<Record<string, unknown>> {
  const code = (script: Script) => {
    if (script.kind === "inline") {
      return script.code.replace(/^[ \t]*\r?\n/, "").replace(/\s+$/, "");
    }
    const text = scriptFiles.get(script.path);
    if (text === undefined) {
      losses.push({ where: label, what: `script file ${script.path} (not read)` });
    }
    return text?.replace(/\s+$/, "");
  };
  const event = (listen: string, scripts: readonly Script[]) => {
    const texts = scripts.map(code).filter((t): t is string => t !== undefined);
    if (!texts.length) return [];
    return [{
      listen,
      script: { type: "text/javascript", exec: texts.join("\n").split(/\r?\n/) },
    }];
  };
  return [...event("prerequest", r.preScripts), ...event("test", r.handlers)];
}

function postmanRequest(r: HttpRequest, losses: ImportLoss[], label: string) {
  const header: Array<{ key: string; value: string }> = [];
  let auth: Record<string, unknown> | undefined;
  for (const h of r.headers) {
    const basic = /^Basic\s+(\S+)\s+(\S+)$/i.exec(h.value);
    if (h.name.toLowerCase() === "authorization" && basic) {
      auth = {
        type: "basic",
        basic: [
          { key: "username", value: basic[1], type: "string" },
          { key: "password", value: basic[2], type: "string" },
        ],
      };
    } else header.push({ key: h.name, value: h.value });
  }
  const request: Record<string, unknown> = { method: r.method, header, url: postmanUrl(r) };
  if (request.url !== r.url) {
    losses.push({
      where: label,
      what: "the request-target * (a Postman request has a path: it sends OPTIONS /)",
    });
  }
  if (auth) request.auth = auth;
  if (r.body.length) {
    const files = r.body.filter((p) => p.kind === "file");
    if (files.length && r.body.length === 1) {
      request.body = {
        mode: "file",
        file: { src: files[0]!.kind === "file" ? files[0]!.path : "" },
      };
    } else {
      if (files.length) losses.push({ where: label, what: "file parts inside a body (< path)" });
      const raw = r.body.map((p) => p.kind === "text" ? p.text : `< ${p.path}`).join("\n");
      request.body = { mode: "raw", raw };
    }
  }
  return request;
}

/**
 * `OPTIONS *` with a Host header as the nearest request Postman sends (Newman reads a URL of
 * `*` as the host name `*`); any other URL as written.
 */
function postmanUrl(r: HttpRequest): string {
  const host = r.headers.find((h) => h.name.toLowerCase() === "host")?.value.trim();
  if (r.method !== "OPTIONS" || r.url.trim() !== "*" || !host) return r.url;
  return /^[a-z]+:\/\//i.test(host) ? `${host.replace(/\/+$/, "")}/` : `http://${host}/`;
}

/**
 * @param name the environment's name
 * @param publicValues its public variables
 * @param privateValues its private variables
 * @param withSecrets write the private values (else they are left empty)
 * @returns a Postman environment
 */
export function postmanEnvironment(
  name: string,
  publicValues: Record<string, string>,
  privateValues: Record<string, string>,
  withSecrets: boolean,
): Record<string, unknown> {
  return {
    name,
    _postman_variable_scope: "environment",
    values: [
      ...Object.entries(publicValues).map(([key, value]) => ({
        key,
        value,
        type: "default",
        enabled: true,
      })),
      ...Object.entries(privateValues).map(([key, value]) => ({
        key,
        value: withSecrets ? value : "",
        type: "secret",
        enabled: true,
      })),
    ],
  };
}
