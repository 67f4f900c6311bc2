/**
 * The last step of every import (CLI and UI alike): nothing that looks like a credential stays
 * in the shareable files. Credential-named collection variables and environment values,
 * credential-named headers and query parameters, URL user information, credential-named
 * fields of form-encoded bodies and Basic user names sent without a password go to the
 * private environment (`http-client.private.env.json`) and are referred to as `{{name}}`;
 * each one is listed in the import's report. Names are judged by the one credential-name rule
 * (`src/credential_name.ts`) plus vendor headers it would not catch. The importers move the
 * credentials they meet on the way ({@link secretVariable}).
 * @module
 */
import { isCredentialName } from "../credential_name.ts";
import type { ImportResult } from "./import_model.ts";

/** Parts of a name that mark a credential wherever they appear (`X_Auth_Token`, `apiKey`). */
const ANYWHERE = /token|secret|passw|apikey|api_key|credential|signature|jwt|private_key/i;

/** Words that mark a credential only as a whole word (`api_key`, `sig`, not `keyword`). */
const WORDS = new Set(["key", "auth", "sig", "pw", "pwd", "pass", "session", "sessionid", "sid"]);

/** A last word that names something about a credential, not the credential (`token_url`). */
const ABOUT = new Set([
  "url",
  "uri",
  "endpoint",
  "host",
  "path",
  "type",
  "name",
  "expiry",
  "expires",
  "ttl",
  "prefix",
  "location",
  "method",
  "mode",
  "version",
  "scope",
  "scopes",
]);

/**
 * Moves every credential left in the shareable parts of an import to its private environment.
 *
 * @param result the import, changed in place
 */
export function keepSecretsPrivate(result: ImportResult): void {
  for (const [name, value] of Object.entries(result.variables)) {
    // An empty one holds no secret, and stays below what scripts set (a file variable).
    if (!secretName(name) || value === "" || !holdsLiteral(value)) continue;
    delete result.variables[name];
    moveVariable(result, name, value, "collection variables", `variable "${name}"`);
  }
  for (const [env, vars] of Object.entries(result.environments)) {
    for (const [name, value] of Object.entries(vars)) {
      if (!secretName(name) || value === "" || !holdsLiteral(value)) continue;
      delete vars[name];
      const own = result.privateEnvironments[env] ??= {};
      own[name] ??= value;
      if (value !== "") {
        result.moved.push({
          where: `environment "${env}"`,
          what: `variable "${name}"`,
          variable: name,
        });
      }
    }
  }
  for (const request of result.requests) {
    const where = [...request.folder, request.name].join(" / ");
    request.url = privateUrl(result, where, request.url);
    for (const header of request.headers) {
      header.value = privateHeader(result, where, header.name, header.value);
    }
    const type = request.headers.find((h) => /^content-type$/i.test(h.name))?.value ?? "";
    if (typeof request.body === "string" && /x-www-form-urlencoded/i.test(type)) {
      request.body = privateForm(result, where, request.body);
    }
  }
}

/**
 * Whether a name marks a credential. Headers follow the redaction rule (`*token*`, `*key*`,
 * `*auth*` … anywhere: `X-Auth-Key`, `X-Authy-API-Key`); variables, query parameters and form
 * fields need a credential word (`api_key`, `access_token`, `client_secret`, not `keyword` or
 * `author`); either way a name about a credential (`token_url`, `auth_type`) is not one.
 */
function secretName(name: string, header = false): boolean {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase().split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (words.length > 1 && ABOUT.has(words.at(-1)!)) return false;
  if (header) return isCredentialName(name);
  return ANYWHERE.test(name) || words.some((w) => WORDS.has(w));
}

/**
 * A collection variable keeps its name (requests refer to it): it goes to the private block of
 * every environment that does not set it itself (an environment wins over the collection, as in
 * Postman), or of `imported` when there is none.
 */
function moveVariable(
  result: ImportResult,
  name: string,
  value: string,
  where: string,
  what: string,
): void {
  const envs = Object.keys(result.environments);
  const targets = envs.length > 0 ? envs : ["imported"];
  for (const env of targets) {
    if (result.environments[env]?.[name] !== undefined) continue;
    (result.privateEnvironments[env] ??= {})[name] ??= value;
  }
  if (envs.length === 0) result.environments["imported"] ??= {};
  if (value !== "") result.moved.push({ where, what, variable: name });
}

/** A variable name made from a header or parameter name. */
function variableName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9_]+/g, "_").replace(/^_+|_+$/g, "") || "secret";
}

/**
 * Takes a secret out of a value: returns what to write in its place (a `{{variable}}` for an
 * import, an environment lookup for an export).
 */
export type TakeSecret = (secret: string, name: string, what: string) => string;

function privateHeader(result: ImportResult, where: string, name: string, value: string): string {
  return headerWithoutSecret(
    name,
    value,
    (secret, variable, what) => secretVariable(result, variable, secret, { where, what }),
  );
}

/**
 * A header's value with its literal credential taken out, when its name marks one: an
 * `Authorization` keeps its scheme (`Bearer {{token}}`; Basic keeps the user name, or takes it
 * when there is no password); any other credential header gives its whole value.
 *
 * @param name the header's name
 * @param value its value as written
 * @param take what replaces the secret
 * @returns the value to write
 */
export function headerWithoutSecret(name: string, value: string, take: TakeSecret): string {
  if (!secretName(name, true) || value.trim() === "" || !holdsLiteral(value)) return value;
  const what = `header "${name}"`;
  if (!/^(proxy-)?authorization$/i.test(name)) return take(value, variableName(name), what);
  const match = /^(\s*)([A-Za-z][\w-]*)(\s+)(.*?)(\s*)$/s.exec(value);
  if (!match) return take(value, "authorization", what);
  const [, lead, scheme, gap, rest, tail] = match as unknown as string[];
  const keep = (secret: string) => `${lead}${scheme}${gap}${secret}${tail}`;
  if (rest === "" || !holdsLiteral(rest!)) return value;
  if (/^basic$/i.test(scheme!)) {
    // JetBrains' `Basic user password`, `Basic user:password`, or already encoded.
    const pair = /^(\S+?)(\s+|:)(.*)$/s.exec(rest!);
    if (pair) {
      const [, user, sep, password] = pair as unknown as string[];
      if (password!.trim() === "") {
        // A user name without a password is the credential (Stripe's secret key).
        return keep(`${take(user!, "basic_user", `${what} (Basic user name)`)}:`);
      }
      if (!holdsLiteral(password!)) return value;
      return keep(`${user}${sep}${take(password!, "password", `${what} (Basic password)`)}`);
    }
  }
  const variable = /^bearer$/i.test(scheme!) ? "token" : "authorization";
  return keep(take(rest!, variable, what));
}

function privateUrl(result: ImportResult, where: string, url: string): string {
  return urlWithoutSecrets(
    url,
    (secret, variable, what) => secretVariable(result, variable, secret, { where, what }),
  );
}

/**
 * A URL with its literal credentials taken out (credential-named query values, the password of
 * `user:password@`), every other byte as written.
 *
 * @param url the URL as written
 * @param take what replaces each secret
 * @returns the URL to write
 */
export function urlWithoutSecrets(url: string, take: TakeSecret): string {
  let out = url;
  const auth = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#@]*)@/i.exec(out);
  if (auth && holdsLiteral(auth[2]!)) {
    const [user, ...rest] = auth[2]!.split(":");
    const password = rest.join(":");
    const what = "user information of the URL";
    const info = password !== "" && holdsLiteral(password)
      ? `${user}:${take(password, "url_password", what)}`
      : password === "" && user !== "" && holdsLiteral(user!)
      ? take(user!, "url_user", what)
      : auth[2]!;
    out = `${auth[1]}${info}@${out.slice(auth[0].length)}`;
  }
  const q = out.indexOf("?");
  if (q < 0) return out;
  const hash = out.indexOf("#", q);
  const end = hash < 0 ? out.length : hash;
  const query = out.slice(q + 1, end).split("&").map((pair) => {
    const eq = pair.indexOf("=");
    if (eq < 0) return pair;
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    if (!secretName(decoded(name)) || value === "" || !holdsLiteral(value)) return pair;
    const what = `query parameter "${decoded(name)}"`;
    return `${name}=${take(value, variableName(decoded(name)), what)}`;
  });
  return `${out.slice(0, q + 1)}${query.join("&")}${out.slice(end)}`;
}

function privateForm(result: ImportResult, where: string, body: string): string {
  return body.split("&").map((pair) => {
    const eq = pair.indexOf("=");
    if (eq < 0) return pair;
    const name = decoded(pair.slice(0, eq).replaceAll("+", " "));
    const value = pair.slice(eq + 1);
    if (!secretName(name) || value === "" || !holdsLiteral(value)) return pair;
    // The private value is sent as written: it keeps its form encoding.
    const what = `form field "${name}"`;
    return `${pair.slice(0, eq)}=${
      secretVariable(result, variableName(name), value, { where, what })
    }`;
  }).join("&");
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * A Basic `Authorization` value as the importers write it (JetBrains' `Basic user password`):
 * the password in the private environment; with no password, `Basic user:` (sent as
 * `user:`, as Postman and curl send it), whose user name the last step then moves.
 *
 * @param result the import
 * @param name the password variable's name
 * @param user the user name
 * @param password the password
 * @param from where it was, for the report
 * @returns the header's value
 */
export function basicValue(
  result: ImportResult,
  name: string,
  user: string,
  password: string,
  from: (what: string) => { where: string; what: string },
): string {
  if (password === "" && user !== "") return `Basic ${user}:`;
  return `Basic ${user} ${secretVariable(result, name, password, from("password"))}`;
}

/** The auth kinds every source has, with what each importer read for them. */
export interface CommonAuth {
  /** `bearer`, `basic` or `apikey`. */
  type: string;
  /** The source's name for it, in the report (default: `type`). */
  label?: string;
  token?: string;
  username?: string;
  password?: string;
  /** The API key's header or query parameter name. */
  key?: string;
  /** The API key's value. */
  value?: string;
  /** The API key goes in the query. */
  query?: boolean;
}

/**
 * Bearer, Basic and API key auth as the importers write them: the credential in the private
 * environment (named after the request), an `Authorization` header (replacing one the request
 * has when `replace`) or the key's header or query parameter.
 *
 * @param result the import
 * @param where the request, for the report
 * @param slug the request's name as a variable name's start
 * @param auth the auth
 * @param headers the request's headers, changed in place
 * @param url the request's URL
 * @param replace a request's own `Authorization` gives way (Bruno)
 * @returns the URL (with an API key in the query), or undefined for another auth type
 */
export function commonAuth(
  result: ImportResult,
  where: string,
  slug: string,
  auth: CommonAuth,
  headers: Array<{ name: string; value: string }>,
  url: string,
  replace = false,
): string | undefined {
  const from = (what: string) => ({
    where,
    what: `${what} of the ${auth.label ?? auth.type} auth`,
  });
  const authorization = (value: string) => {
    const at = replace ? headers.findIndex((h) => /^authorization$/i.test(h.name)) : -1;
    if (at >= 0) headers.splice(at, 1);
    headers.push({ name: "Authorization", value });
    return url;
  };
  switch (auth.type) {
    case "bearer":
      return authorization(
        `Bearer ${secretVariable(result, `${slug}_token`, auth.token ?? "", from("token"))}`,
      );
    case "basic":
      return authorization(
        basicValue(result, `${slug}_password`, auth.username ?? "", auth.password ?? "", from),
      );
    case "apikey": {
      const value = secretVariable(
        result,
        auth.key || `${slug}_key`,
        auth.value ?? "",
        from("key"),
      );
      if (auth.query) {
        return `${url}${url.includes("?") ? "&" : "?"}${auth.key || "api_key"}=${value}`;
      }
      headers.push({ name: auth.key || "X-API-Key", value });
      return url;
    }
    default:
      return undefined;
  }
}

/**
 * The report's lines on moved secrets (CLI and UI): one per variable and kind, with the places
 * it came from (the first three named).
 *
 * @param moved the import's moves
 * @returns one line each, e.g. `{{x_auth_key}} <- header "X-Auth-Key" (Zones / List; …)`
 */
export function movedSecrets(moved: ImportResult["moved"]): string[] {
  const groups = new Map<string, string[]>();
  for (const m of moved) {
    const key = `{{${m.variable}}} <- ${m.what}`;
    groups.set(key, [...(groups.get(key) ?? []), m.where]);
  }
  return [...groups].map(([key, wheres]) => {
    const named = wheres.slice(0, 3).join("; ");
    const more = wheres.length > 3 ? ` and ${wheres.length - 3} more` : "";
    return `${key} (${named}${more})`;
  });
}

/**
 * Keeps a secret out of the public files: the value goes to the private environment (of every
 * environment, or of `imported` when there is none yet) and the request refers to `{{name}}`.
 * A value that is already a `{{reference}}` stays as it is.
 *
 * @param result the import being built
 * @param name the variable name wanted (made unique)
 * @param value the secret
 * @param from where it was and what it was, for the report (a non-empty value is listed)
 * @returns the text to put where the secret was
 */
export function secretVariable(
  result: ImportResult,
  name: string,
  value: string,
  from?: { where: string; what: string },
): string {
  if (!holdsLiteral(value)) return value;
  const base = name.replace(/[^A-Za-z0-9_]+/g, "_").replace(/^_+|_+$/g, "") || "secret";
  const envs = Object.keys(result.environments);
  const targets = envs.length > 0 ? envs : ["imported"];
  let unique = base;
  for (let n = 2; targets.some((e) => isTaken(result, e, unique, value)); n++) {
    unique = `${base}_${n}`;
  }
  for (const env of targets) (result.privateEnvironments[env] ??= {})[unique] = value;
  if (envs.length === 0) result.environments["imported"] ??= {};
  if (from && value !== "") result.moved.push({ ...from, variable: unique });
  return `{{${unique}}}`;
}

/**
 * @param value a value as written in a source
 * @returns whether it holds text of its own besides `{{references}}` and white space (an empty
 *   value counts: it is a placeholder the user fills in)
 */
export function holdsLiteral(value: string): boolean {
  return value.trim() === "" || value.replace(/\{\{[^{}]*\}\}/g, "").trim() !== "";
}

function isTaken(result: ImportResult, env: string, name: string, value: string): boolean {
  const existing = result.privateEnvironments[env]?.[name] ?? result.environments[env]?.[name] ??
    result.variables[name];
  return existing !== undefined && existing !== value;
}
