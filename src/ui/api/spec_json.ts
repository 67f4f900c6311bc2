/**
 * Turns the browser's JSON into the same {@link RequestSpec} and {@link AuthSpec} the CLI
 * builds from flags, with the core's value parsers (`src/http/values.ts`) that the CLI uses
 * too, so both faces share one set of rules.
 * @module
 */
import type { Authorization, AuthSpec, QueryKey } from "../../auth/auth_spec.ts";
import {
  DEFAULT_CALLBACK_PORT,
  OAUTH2_CLIENT_AUTHS,
  OAUTH2_FLOWS,
  type OAuth2Options,
  parseOAuth2Param,
} from "../../auth/oauth2/parse_value.ts";
import { parseHeader, parseJsonText, parseMethod, parsePort, parseUrl } from "../../http/values.ts";
import { UsageError } from "../../errors/mod.ts";
import { parseSigV4Value } from "../../auth/sigv4_value.ts";
import { checkOneAuthorization, hasAuthorizationHeader } from "../../auth/one_authorization.ts";
import { missingOAuth2Setting, type OAuth2Requirement } from "../../auth/oauth2/required.ts";
import { newBoundary } from "../../http/body.ts";
import type { BodySource, FormField, HeaderField, RequestSpec } from "../../http/request_spec.ts";
import { Secret } from "../../secret.ts";
import { array, object, oneOf, optionalString, rows, string } from "./decode.ts";
import { AUTH_KINDS } from "../protocol.ts";

/** OAuth 2.0 settings that come from the server, not from the panel. */
export interface UiOAuthSettings {
  /** The token cache directory (default: the CLI's). */
  cacheDir?: string;
  /** Shows the authorization URL (authorization_code); default: the system browser. */
  openBrowser?: (url: URL) => void | Promise<void>;
  /** Shows the device flow's code and page (device_code); default: nowhere. */
  showDeviceCode?: OAuth2Options["showDeviceCode"];
  /** Told what the person should know (a token response that needed repair); default: nobody. */
  notify?: OAuth2Options["notify"];
}

/** Auth and the headers it adds, as parsed from the auth panel. */
export interface ParsedUiAuth {
  /** Authorization and query keys. */
  auth: AuthSpec;
  /** Headers the auth adds (an API key in a header). */
  headers: HeaderField[];
}

/**
 * Parses the auth panel: `{kind: "none"}`, `{kind: "basic", username, password}`,
 * `{kind: "bearer", token}`, `{kind: "apikey", in: "header" | "query", name, value}` or
 * `{kind: "oauth2", flow, tokenUrl, issuer?, params?, clientId, clientSecret?, scope?, authUrl?,
 * username?, password?, port?, clientAuth?, clientKey?, timeout?}` (timeout in seconds): the same semantics as `-u`, `-B`, `-H`/`-K` and `--oauth2*`.
 *
 * @param value the panel's JSON
 * @param settings the server's OAuth 2.0 settings (cache directory, browser opener)
 * @returns auth spec and extra headers
 * @throws {UsageError} naming the bad field
 */
export function parseUiAuth(value: unknown, settings: UiOAuthSettings = {}): ParsedUiAuth {
  const json = value === undefined ? { kind: "none" } : object(value, "auth");
  const kind = oneOf(json.kind, "auth.kind", AUTH_KINDS);
  const queryKeys: QueryKey[] = [];
  const headers: HeaderField[] = [];
  let authorization: Authorization | undefined;
  switch (kind) {
    case "none":
      break;
    case "basic":
    case "digest": {
      const label = kind === "basic" ? "Basic" : "Digest";
      const username = string(json.username ?? "", "auth.username");
      if (username === "") throw new UsageError(`Missing user name for ${label} auth`);
      if (username.includes(":")) {
        throw new UsageError(`Invalid user name "${username}" for ${label} auth: contains ":"`);
      }
      const password = new Secret(string(json.password ?? "", "auth.password"));
      authorization = { kind, username, password };
      break;
    }
    case "bearer": {
      const token = string(json.token ?? "", "auth.token").trim();
      if (token === "") throw new UsageError("Missing token for Bearer auth");
      authorization = { kind: "bearer", token: new Secret(token) };
      break;
    }
    case "apikey": {
      const place = oneOf(json.in, "auth.in", ["header", "query"] as const);
      const name = string(json.name ?? "", "auth.name").trim();
      const key = string(json.value ?? "", "auth.value");
      if (name === "") throw new UsageError("Missing name for the API key");
      if (place === "query") {
        queryKeys.push({ name, value: new Secret(key) });
      } else {
        const header = parseHeader(`${name}: ${key}`);
        // A credential wherever it goes, whatever its name (e.g. X-Partner-Id).
        headers.push({ name: header.name, value: new Secret(key.trim()), credential: true });
      }
      break;
    }
    case "aws-sigv4": {
      const value = parseSigV4Value(string(json.sigv4 ?? "aws:amz", "auth.sigv4").trim());
      const accessKeyId = string(json.accessKeyId ?? "", "auth.accessKeyId").trim();
      const secret = string(json.secretAccessKey ?? "", "auth.secretAccessKey");
      if (accessKeyId === "" || secret === "") {
        throw new UsageError("Missing access key id or secret for AWS Signature Version 4");
      }
      const token = optionalString(json.sessionToken, "auth.sessionToken");
      authorization = {
        kind: "aws-sigv4",
        sigv4: {
          ...value,
          accessKeyId,
          secretAccessKey: new Secret(secret),
          ...(token !== undefined ? { sessionToken: new Secret(token) } : {}),
        },
      };
      break;
    }
    case "oauth2":
      authorization = {
        kind: "oauth2",
        oauth2: {
          ...parseUiOAuth2(json),
          ...(settings.cacheDir !== undefined ? { cacheDir: settings.cacheDir } : {}),
          ...(settings.openBrowser ? { openBrowser: settings.openBrowser } : {}),
          ...(settings.showDeviceCode ? { showDeviceCode: settings.showDeviceCode } : {}),
          ...(settings.notify ? { notify: settings.notify } : {}),
        },
      };
      break;
  }
  return { auth: { ...(authorization ? { authorization } : {}), queryKeys }, headers };
}

/** A setting the flow needs, as the auth panel names it. */
const MISSING: { readonly [R in OAuth2Requirement]: string } = {
  client_secret: "Missing client secret for the client_credentials flow",
  auth_url: "Missing authorization URL for the authorization_code flow",
  device_url: "Missing device authorization URL for the device_code flow",
  username: "Missing user name for the password flow",
};

function parseUiOAuth2(json: Readonly<Record<string, unknown>>): OAuth2Options {
  const flow = oneOf(json.flow, "auth.flow", OAUTH2_FLOWS);
  const tokenText = optionalString(json.tokenUrl, "auth.tokenUrl");
  const issuerText = optionalString(json.issuer, "auth.issuer");
  if (tokenText === undefined && issuerText === undefined) {
    throw new UsageError("Missing token URL for OAuth 2.0", {
      hint: "give the token URL, or the issuer to discover it",
    });
  }
  const params = parseUiParams(json.params);
  const clientId = optionalString(json.clientId, "auth.clientId");
  if (clientId === undefined) throw new UsageError("Missing client id for OAuth 2.0");
  const clientSecret = optionalString(json.clientSecret, "auth.clientSecret");
  const scope = optionalString(json.scope, "auth.scope");
  const authText = optionalString(json.authUrl, "auth.authUrl");
  const username = optionalString(json.username, "auth.username");
  const password = optionalString(json.password, "auth.password");
  const portText = json.port === undefined || json.port === null || json.port === ""
    ? undefined
    : String(json.port);
  const deviceText = optionalString(json.deviceUrl, "auth.deviceUrl");
  const missing = missingOAuth2Setting({
    flow,
    clientSecret,
    clientKey: json.clientKey,
    authUrl: authText,
    deviceUrl: deviceText,
    issuer: issuerText,
    username,
  });
  if (missing) throw new UsageError(MISSING[missing], { remedy: { give: missing } });
  const clientAuth = json.clientAuth === undefined || json.clientAuth === ""
    ? undefined
    : oneOf(json.clientAuth, "auth.clientAuth", OAUTH2_CLIENT_AUTHS);
  const clientKey = optionalString(json.clientKey, "auth.clientKey");
  if (clientAuth === "private_key_jwt" && clientKey === undefined) {
    throw new UsageError("Missing client private key for private_key_jwt");
  }
  if (clientAuth === "client_secret_jwt" && clientSecret === undefined) {
    throw new UsageError("Missing client secret for client_secret_jwt");
  }
  const timeout = parseLoginTimeout(json.timeout);
  return {
    flow,
    ...(tokenText !== undefined ? { tokenUrl: parseUrl(tokenText) } : {}),
    ...(issuerText !== undefined ? { issuer: parseUrl(issuerText) } : {}),
    ...(deviceText !== undefined ? { deviceUrl: parseUrl(deviceText) } : {}),
    ...(params.length ? { params } : {}),
    clientId,
    ...(clientSecret !== undefined ? { clientSecret: new Secret(clientSecret) } : {}),
    ...(scope !== undefined ? { scope } : {}),
    ...(authText !== undefined ? { authUrl: parseUrl(authText) } : {}),
    ...(username !== undefined ? { username } : {}),
    ...(password !== undefined ? { password: new Secret(password) } : {}),
    port: portText === undefined ? DEFAULT_CALLBACK_PORT : parsePort(portText, "callback port"),
    ...(clientAuth !== undefined ? { clientAuth } : {}),
    ...(clientAuth === "private_key_jwt" && clientKey !== undefined
      ? { clientKey: new Secret(clientKey) }
      : {}),
    ...(timeout !== undefined ? { timeout } : {}),
  };
}

/** The extra parameters table: enabled rows with a name, checked as `--oauth2-param` is. */
function parseUiParams(value: unknown): Array<[string, string]> {
  if (value === undefined || value === null) return [];
  return rows(value, "auth.params").map((row) => parseOAuth2Param(`${row.name}=${row.value}`));
}

/** The login timeout field, in seconds, as milliseconds. */
function parseLoginTimeout(value: unknown): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new UsageError(`Invalid login timeout "${String(value)}": expected seconds above 0`);
  }
  return Math.round(seconds * 1000);
}

/**
 * Parses the auth panel and the header table of a tab, with the single-Authorization rule.
 *
 * @param json the tab's request, with `auth` and `headers`
 * @param settings the server's OAuth 2.0 settings
 * @returns the auth spec, and the headers (the auth's own first)
 * @throws {UsageError} naming the bad field, or auth and an Authorization header together
 */
export function parseUiAuthAndHeaders(
  json: Readonly<Record<string, unknown>>,
  settings: UiOAuthSettings = {},
): { auth: AuthSpec; headers: HeaderField[] } {
  const { auth, headers: authHeaders } = parseUiAuth(json.auth, settings);
  const headers = [...authHeaders, ...parseUiHeaders(json.headers)];
  const sources = auth.authorization ? ["auth"] : [];
  if (hasAuthorizationHeader(headers)) sources.push("Authorization header");
  checkOneAuthorization(sources);
  return { auth, headers };
}

/**
 * Parses the header table: each enabled row through the CLI's `-H` parser.
 *
 * @param value `[{name, value, enabled?}]`
 * @returns the headers (credential-looking values wrapped as secrets)
 */
export function parseUiHeaders(value: unknown): HeaderField[] {
  return rows(value, "headers").map((row) => parseHeader(`${row.name}: ${row.value}`));
}

/**
 * Parses an HTTP-tab request: `{method, url, params, headers, body, auth}`. Query parameters
 * are appended to the URL; the body is `{kind: "none" | "json" | "text" | "form", …}`.
 *
 * A form row holding a file becomes a file part: from the path in `uploads` (where the server
 * spooled the page's bytes), else from the file's own name (what Copy as curl shows).
 *
 * @param value the request's JSON
 * @param settings the server's OAuth 2.0 settings
 * @param uploads form row index → the spooled file's path
 * @returns the spec the CLI would build for the same request
 * @throws {UsageError} naming the bad field
 */
export function parseUiRequest(
  value: unknown,
  settings: UiOAuthSettings = {},
  uploads: ReadonlyMap<number, string> = new Map(),
): RequestSpec {
  const json = object(value, "request");
  const method = parseMethod(string(json.method ?? "GET", "method").trim().toUpperCase());
  // As on the command line: no scheme means http://, :PORT/path means localhost.
  const url = parseUrl(string(json.url ?? "", "url").trim(), undefined, true);
  for (const param of rows(json.params, "params")) url.searchParams.append(param.name, param.value);
  const { auth, headers } = parseUiAuthAndHeaders(json, settings);
  const body = parseUiBody(json.body, uploads);
  return { method, url, headers, auth, ...(body ? { body } : {}) };
}

function parseUiBody(
  value: unknown,
  uploads: ReadonlyMap<number, string>,
): BodySource | undefined {
  if (value === undefined || value === null) return undefined;
  const json = object(value, "body");
  const kind = oneOf(json.kind, "body.kind", ["none", "json", "text", "form"] as const);
  switch (kind) {
    case "none":
      return undefined;
    case "json": {
      const text = string(json.text ?? "", "body.text");
      parseJsonText(text, "JSON body");
      return { kind: "text", text, contentType: "application/json" };
    }
    case "text": {
      const contentType = optionalString(json.contentType, "body.contentType");
      return {
        kind: "text",
        text: string(json.text ?? "", "body.text"),
        contentType: contentType ?? "text/plain;charset=UTF-8",
      };
    }
    case "form":
      return { kind: "form", fields: formFields(json.fields, uploads), boundary: newBoundary() };
  }
}

/**
 * @param value `[{name, value, enabled?, file?: {name, type, base64}}]`
 * @param uploads row index → spooled path of an attached file, or the workspace file a
 *   `< ./file` row names
 * @returns the enabled parts with a name, in order
 */
function formFields(value: unknown, uploads: ReadonlyMap<number, string>): FormField[] {
  const fields: FormField[] = [];
  for (const [i, item] of array(value, "body.fields").entries()) {
    const row = object(item, `body.fields[${i}]`);
    if (row.enabled === false) continue;
    const name = string(row.name ?? "", `body.fields[${i}].name`).trim();
    if (name === "") continue;
    if (row.file === undefined || row.file === null) {
      const included = uploads.get(i);
      // A request file's `< ./file` row, resolved in the workspace by the caller.
      if (included !== undefined) {
        fields.push({
          name,
          path: included,
          filename: included.slice(included.lastIndexOf("/") + 1),
          contentType: "application/octet-stream",
        });
        continue;
      }
      fields.push({ name, value: string(row.value ?? "", `body.fields[${i}].value`) });
      continue;
    }
    const file = uploadOf(row.file, `body.fields[${i}].file`);
    fields.push({
      name,
      path: uploads.get(i) ?? file.name,
      filename: file.name,
      contentType: file.type || "application/octet-stream",
    });
  }
  return fields;
}

/**
 * @param value a form row's `file`
 * @param field where it is, for messages
 * @returns its name, media type and base64 bytes
 */
export function uploadOf(
  value: unknown,
  field: string,
): { name: string; type: string; base64: string } {
  const file = object(value, field);
  return {
    name: string(file.name ?? "", `${field}.name`).replaceAll(/[\/]/g, "_") || "file",
    type: string(file.type ?? "", `${field}.type`),
    base64: string(file.base64 ?? "", `${field}.base64`),
  };
}
