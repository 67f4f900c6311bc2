/**
 * Which named requests a request refers to, for the runner (to send them first) and `dial mcp`
 * (to list a tool's chain): `{{login.response…}}` in its URL, headers or text body, through
 * the file variables those name too, and httpyac's `# @ref NAME` and `# @forceRef NAME`.
 * @module
 */
import type { HttpFile, HttpRequest } from "./http_file_types.ts";
import { httpyacReferences, referencedRequests } from "./substitute.ts";

/**
 * @param request a request
 * @returns its texts that `{{…}}` may appear in: the URL, the header values, the text body
 */
export function templatesOf(request: HttpRequest): string[] {
  const texts = [request.url, ...request.headers.map((h) => h.value)];
  for (const part of request.body) if (part.kind === "text") texts.push(part.text);
  return texts;
}

/** The `{{name}}` variables a text names, as the runner follows them. */
const variableNames = (text: string): string[] =>
  [...text.matchAll(/\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g)].map((match) => match[1]!);

/**
 * Names of requests referred to by a request's templates, through file variables too.
 *
 * @param file the file
 * @param request one of its requests
 * @param namesIn the variables a text names (default: every `{{name}}`)
 * @returns the names
 */
export function requestDependencies(
  file: HttpFile,
  request: HttpRequest,
  namesIn: (text: string) => string[] = variableNames,
): string[] {
  const refs: string[] = [];
  for (const d of request.directives) {
    if ((d.name === "ref" || d.name === "forceRef") && d.value) refs.push(d.value);
  }
  // Most files refer to no request's response: their requests are not scanned one by one.
  if (!refersToRequests(file)) return [...new Set(refs)];
  const texts = templatesOf(request);
  const names = new Set<string>();
  const seen = new Set<string>();
  const named = requestNames(file);
  while (texts.length) {
    const text = texts.pop()!;
    // Each reading below looks for `{{`: a text without one (most values) names nothing.
    if (!text.includes("{{")) continue;
    for (const name of referencedRequests(text)) names.add(name);
    for (const variable of namesIn(text)) {
      if (seen.has(variable)) continue;
      seen.add(variable);
      const defined = file.variables.findLast((v) => v.name === variable);
      if (defined) texts.push(defined.value);
    }
    // httpyac's {{login.token}}, unless a file variable of that whole name is defined.
    const isVariable = (name: string) => file.variables.some((v) => v.name === name);
    for (const name of httpyacReferences(text, named, isVariable)) {
      if (name !== request.name) names.add(name);
    }
  }
  // httpyac's `# @ref NAME` asks for it outright.
  for (const name of refs) names.add(name);
  return [...names];
}

const referring = new WeakMap<HttpFile, boolean>();

/**
 * Whether a file's text has a request variable (`name.response.…`, `name.request.…`) at all, or
 * httpyac's `{{name.…}}` of one of its named requests.
 */
function refersToRequests(file: HttpFile): boolean {
  let refers = referring.get(file);
  if (refers === undefined) {
    refers = /\.(?:response|request)\./.test(file.source) || namesARequest(file);
    referring.set(file, refers);
  }
  return refers;
}

/**
 * Whether a `{{…` of the file's text starts with one of its request names and a `.` or `[`
 * (httpyac's `{{name.…}}`): one pass over the text, not one search per name (a chain of 1,000
 * named requests made that a search of the whole file 2,000 times).
 */
function namesARequest(file: HttpFile): boolean {
  const names = requestNames(file);
  if (names.size === 0) return false;
  for (const [, inner] of file.source.matchAll(/\{\{([^}]*)/g)) {
    for (let i = 0; i < inner!.length; i++) {
      const c = inner![i];
      if ((c === "." || c === "[") && names.has(inner!.slice(0, i))) return true;
    }
  }
  return false;
}

const named = new WeakMap<HttpFile, ReadonlySet<string>>();

function requestNames(file: HttpFile): ReadonlySet<string> {
  let names = named.get(file);
  if (!names) {
    names = new Set(file.requests.flatMap((r) => r.name === undefined ? [] : [r.name]));
    named.set(file, names);
  }
  return names;
}
