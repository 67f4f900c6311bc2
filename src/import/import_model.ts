/**
 * What every importer produces: requests for `.http` files, variables, environments (public and
 * private) and a report of everything that could not be carried. The writer
 * (`write_import.ts`) turns it into files.
 * @module
 */

/** One imported request. Every value may hold `{{variables}}`. */
export interface ImportedRequest {
  /** The request's name (Postman item name, OpenAPI operationId, …). */
  name: string;
  /** Folder names from the top; the first one names the `.http` file. */
  folder: string[];
  /** The method, upper-case. */
  method: string;
  /** The URL. */
  url: string;
  /** Headers in order. */
  headers: Array<{ name: string; value: string }>;
  /**
   * The body text, a file included with `< path`, or text and `< path` includes in order (a
   * multipart body with file parts): each text holds whole lines.
   */
  body?: string | { file: string } | { parts: Array<string | { file: string }> };
  /** Comment lines written above the request (descriptions, notes on what was not carried). */
  comments?: string[];
  /** Request directives, e.g. `{ name: "no-redirect" }` or `{ name: "timeout", value: "5" }`. */
  directives?: Array<{ name: string; value?: string }>;
  /**
   * Scripts carried as they are, in the order they run: pre-request scripts before the request
   * line (`< {% … %}`), test scripts after it (`> {% … %}`); the request gets `# @postman`,
   * which gives them Postman's `pm` API in dial's sandbox.
   */
  scripts?: { pre: ImportScript[]; test: ImportScript[] };
  /** Assertion lines (`?? status == 200`), written after the request. */
  assertions?: string[];
}

/**
 * An imported request of these parts; the body only when there is one.
 *
 * @param name the request's name
 * @param folder its folder names from the top
 * @param method its method, upper-case
 * @param url its URL
 * @param headers its headers in order
 * @param body its body, or undefined
 * @returns the request
 */
export function importedRequest(
  name: string,
  folder: string[],
  method: string,
  url: string,
  headers: ImportedRequest["headers"],
  body: ImportedRequest["body"] | undefined,
): ImportedRequest {
  return { name, folder, method, url, headers, ...(body !== undefined ? { body } : {}) };
}

/**
 * A request an importer is reading: the import it goes to, where it is (for the report), its
 * headers so far, and how its texts are rewritten (its own variables renamed).
 */
export interface RequestReading {
  result: ImportResult;
  where: string;
  headers: ImportedRequest["headers"];
  /** Rewrites a text of the request: `{{name}}` of its own variables to their new names. */
  fix: (text: string) => string;
}

/** One carried script. */
export interface ImportScript {
  /** Its code, as the source has it. */
  code: string;
  /**
   * For a collection's or folder's script, which many requests run: the file it is written to
   * once (`scripts/NAME.js` beside the request files) instead of in each request.
   */
  shared?: string;
}

/** Something the source had that the `.http` files do not carry. */
export interface ImportLoss {
  /** Where: the request or folder name, or the environment. */
  where: string;
  /** What, e.g. `pre-request script (3 lines)` or `auth type "hawk"`. */
  what: string;
}

/** A secret the import moved out of the shareable files into the private environment. */
export interface ImportMove {
  /** Where it was: the request, folder or environment. */
  where: string;
  /** What it was, e.g. `header "X-Auth-Key"` or `query parameter "access_token"`. */
  what: string;
  /** The variable that now holds it (in `http-client.private.env.json`). */
  variable: string;
}

/** The whole import. */
export interface ImportResult {
  /** The format read: `curl`, `postman`, `insomnia`, `openapi`, `har`. */
  format: string;
  /** The collection's name: names the `.http` file of requests outside any folder. */
  name: string;
  /** The requests in source order. */
  requests: ImportedRequest[];
  /** Variables every request may use (written as `@name = value` in each file). */
  variables: Record<string, string>;
  /** Environments for `http-client.env.json`. */
  environments: Record<string, Record<string, string>>;
  /** Secret values for `http-client.private.env.json`, by environment. */
  privateEnvironments: Record<string, Record<string, string>>;
  /**
   * OAuth 2.0 configurations for `Security.Auth` of the `$shared` environment (JetBrains keys:
   * `Type`, `Grant Type`, `Token URL` …), used as `{{$auth.token("id")}}`; secret values in
   * them are `{{variables}}` of the private environment.
   */
  auth?: Record<string, Record<string, string>>;
  /** What could not be carried. */
  losses: ImportLoss[];
  /** Secrets moved to the private environment, each one named for the report. */
  moved: ImportMove[];
  /** What the source held and what of it was carried, for the migration report. */
  counts: ImportCounts;
}

/** The migration report's numbers. */
export interface ImportCounts {
  /** Requests the source held (a curl command dial could not read counts, and is lost). */
  requests: number;
  /** Scripts (pre-request, test, …; collection, folder and request level). */
  scripts: number;
  /** Scripts carried into the request files as handlers. */
  scriptsCarried: number;
  /** Assertions the scripts make (`pm.test`, `tests[…]`, Bruno's `assert` and `test`). */
  assertions: number;
  /** Assertions in carried scripts. */
  assertionsCarried: number;
}

/** @returns an empty result of a format */
export function emptyImport(format: string, name: string): ImportResult {
  return {
    format,
    name,
    requests: [],
    variables: {},
    environments: {},
    privateEnvironments: {},
    losses: [],
    moved: [],
    counts: { requests: 0, scripts: 0, scriptsCarried: 0, assertions: 0, assertionsCarried: 0 },
  };
}

/**
 * A reference to another request's response, as the request files' request variable
 * (`{{login.response.body.$.token}}`), when that request runs first: earlier, in the same file
 * (the same folder). Its name is made one a request variable can name (no spaces or dots).
 *
 * @param target the request whose response is read
 * @param user the request that reads it, or undefined for an environment value
 * @param order every request in the order they run
 * @param selector `body.$.path`, `body.*` or `headers.Name`
 * @returns the `{{…}}` reference, or undefined when the target does not run first
 */
export function responseReference(
  target: ImportedRequest,
  user: ImportedRequest | undefined,
  order: readonly ImportedRequest[],
  selector: string,
): string | undefined {
  if (user) {
    const same = target.folder.join("/") === user.folder.join("/");
    if (!same || order.indexOf(target) >= order.indexOf(user)) return undefined;
  }
  if (!/^[A-Za-z0-9_-]+$/.test(target.name)) {
    target.name = target.name.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^_+|_+$/g, "") ||
      "request";
  }
  return `{{${target.name}.response.${selector}}}`;
}
