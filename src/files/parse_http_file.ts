/**
 * The one parser of request files: the JetBrains "HTTP Request in Editor" format with the
 * additions of VS Code REST Client and httpyac. The grammar is the spec, written out in
 * docs/request-files.md ("Grammar"); each of its line kinds is one production of
 * `_http_productions.ts`, and this module cuts the file into blocks at `###` lines and walks
 * each block through the grammar's phases: head, request line, headers, body and tail.
 * @module
 */
import type {
  FileVariable,
  HttpFile,
  HttpRequest,
  ParseWarning,
  ProtoImport,
  RunLine,
} from "./http_file_types.ts";
import { Block, type FileContext } from "./_http_block.ts";
import {
  BODY,
  endsHeaders,
  HEAD,
  HEADERS,
  isRequestLine,
  REQUEST_LINE_CONTINUATION,
  requestLine,
  startsBody,
} from "./_http_productions.ts";
import { HttpFileSyntaxError, KNOWN_DIRECTIVES, type Line, LineReader } from "./_http_lines.ts";

export { HttpFileSyntaxError, KNOWN_DIRECTIVES };

/** `###` at the start of a line (spec 2.5). */
function isSeparator(text: string): boolean {
  return text.length >= 3 && text.charCodeAt(0) === 35 && text.startsWith("###");
}
/**
 * Parses a request file.
 *
 * @param source the file's text
 * @param path the file's name, for messages and relative includes
 * @param options `recover`: an editor's mode: a request with a syntax error is left out and
 *   the error recorded in `errors`, instead of thrown
 * @returns the syntax tree, with warnings (and, when recovering, errors)
 * @throws {HttpFileSyntaxError} naming file, line and column (unless `recover`)
 * @example
 * ```ts
 * const file = parseHttpFile("GET https://example.com/\nAccept: text/html\n", "a.http");
 * file.requests[0]?.url; // "https://example.com/"
 * ```
 */
export function parseHttpFile(
  source: string,
  path = "request.http",
  options: { recover?: boolean } = {},
): HttpFile {
  const reader = new LineReader(source);
  const variables: FileVariable[] = [];
  const requests: HttpRequest[] = [];
  const warnings: ParseWarning[] = [];
  const errors: ParseWarning[] = [];
  const fail = (line: Line, column: number, message: string): never => {
    throw new HttpFileSyntaxError(path, line.number, column, message);
  };
  const runs: RunLine[] = [];
  const protos: ProtoImport[] = [];
  const context: FileContext = { variables, warnings, runs, protos, fail, index: 1 };
  let line = reader.next();
  while (line) {
    // One block: from a separator (or the start) to the next separator.
    let separator: Line | undefined;
    if (isSeparator(line.text)) {
      separator = line;
      line = reader.next();
    }
    const block: Line[] = [];
    while (line && !isSeparator(line.text)) {
      block.push(line);
      line = reader.next();
    }
    try {
      // A block may hold several requests when request lines follow headers (httpyac).
      for (let rest: Line[] | undefined = block; rest;) {
        context.index = requests.length + 1;
        const read: Parsed = parseBlock(rest, rest === block ? separator : undefined, context);
        if (read.request) requests.push(read.request);
        rest = read.rest;
      }
    } catch (error) {
      if (!options.recover || !(error instanceof HttpFileSyntaxError)) throw error;
      errors.push({
        message: error.message.slice(`${path}:${error.line}:${error.column}: `.length),
        line: error.line,
        column: error.column,
      });
    }
  }
  // httpyac's GraphQL fragments hold for every request of the file whose body spreads them.
  for (const request of context.fragments ? requests : []) {
    const text = request.body.map((part) => part.kind === "text" ? part.text : "").join("\n");
    const spread = context.fragments!.filter((f) => text.includes(`...${f.name}`));
    const written = spread.flatMap((f) => "text" in f ? [f.text] : []);
    if (written.length) request.graphqlFragments = written;
    // A fragment file may be spread by a query from a file too: the build reads and decides.
    const files = context.fragments!.flatMap((f) => "path" in f ? [f] : []);
    if (files.length && (spread.length || /^\s*gql\s/.test(text))) {
      request.graphqlFragmentFiles = files;
    }
  }
  return {
    path,
    source,
    variables,
    requests,
    runs,
    warnings,
    ...(protos.length ? { protos } : {}),
    ...(context.scripts ? { scripts: context.scripts } : {}),
    ...(context.regions ? { regions: context.regions } : {}),
    ...(context.imports ? { imports: context.imports } : {}),
    ...(context.xpathNamespaces ? { xpathNamespaces: context.xpathNamespaces } : {}),
    ...(options.recover ? { errors } : {}),
  };
}

const MULTIPART_MIXED = /^\s*multipart\/mixed/i;

/** Whether a line ends the headers: a blank line, the tail, another request or the body. */
function headersEnd(line: Line, block: Block): boolean {
  const { method } = block.requestLine!.parts;
  return endsHeaders(line) || isRequestLine(line.text) ||
    startsBody(method, line, block.file.warnings);
}

/** Whether a body line starts another request (httpyac). */
function startsRequest(line: Line): boolean {
  return isRequestLine(line.text);
}

/** What one block read: its request, and the lines of another when one starts inside it. */
interface Parsed {
  request?: HttpRequest;
  rest?: Line[];
}

/** One block: the grammar's phases in order, each a list of productions. */
function parseBlock(
  lines: Line[],
  separator: Line | undefined,
  context: FileContext,
): Parsed {
  const block = new Block(lines, separator, context);
  block.phase(HEAD);
  if (block.done) {
    const scripts = block.preScripts;
    const httpyac = scripts.length && scripts.every((s) => s.kind === "inline" && s.httpyac);
    const name = httpyac ? block.name : undefined;
    if (name !== undefined) {
      // httpyac: a named block without a request is a region of its own, run in its place;
      // its `{{+ … }}` blocks hold for every request of the file, as anywhere.
      const every = scripts.filter((s) => s.kind === "inline" && s.httpyac?.every);
      if (every.length) {
        (context.scripts ??= []).push(...every as NonNullable<HttpFile["scripts"]>);
        scripts.splice(0, scripts.length, ...scripts.filter((s) => !every.includes(s)));
      }
      (context.regions ??= []).push(block.region(name));
      context.protos.push(...block.protos);
      return {};
    }
    if (httpyac) {
      // httpyac: a block without a request is a global region, its scripts run once per file.
      (context.scripts ??= []).push(...scripts as NonNullable<HttpFile["scripts"]>);
      if (block.directives.length) {
        context.warnings.push({
          message: "Directives of a block without a request are ignored",
          line: block.directives[0]!.span.line,
          column: 1,
        });
      }
      context.protos.push(...block.protos);
      return {};
    }
    if ((block.directives.length || scripts.length) && !block.runs) {
      // kulala leaves a block without a request line out of the run, scripts and all.
      context.warnings.push({
        message:
          "Directives or a pre-request script with no request line below them before the next ### are skipped",
        line: (block.directives[0]?.span ?? scripts[0]!.span).line,
        column: 1,
      });
    }
    // httpyac: a block of `proto <` lines alone describes every GRPC request of the file.
    context.protos.push(...block.protos);
    return {};
  }
  // httpyac's `{{+ … }}` blocks above a request hold for every request of the file.
  const every = block.preScripts.length
    ? block.preScripts.filter((s) => s.kind === "inline" && s.httpyac?.every)
    : undefined;
  if (every?.length) {
    (context.scripts ??= []).push(...every as NonNullable<HttpFile["scripts"]>);
    block.preScripts.splice(
      0,
      block.preScripts.length,
      ...block.preScripts.filter((s) => !every.includes(s)),
    );
  }
  requestLine(block);
  block.phase(REQUEST_LINE_CONTINUATION);
  const method = block.requestLine!.parts.method;
  if (block.protos.length && method !== "GRPC") {
    const at = block.protos[0]!.span;
    context.warnings.push({
      message: `"proto <" describes GRPC requests only: ${method} ignores it`,
      line: at.line,
      column: 1,
    });
  }
  block.phase(HEADERS, headersEnd);
  // httpyac starts a new request at a request line under the headers or in the body (but in a
  // multipart/mixed body, whose parts may be requests).
  const mixed = block.headers.length > 0 &&
    block.headers.some((h) =>
      h.name.toLowerCase() === "content-type" && MULTIPART_MIXED.test(String(h.value))
    );
  if (!block.done && !isRequestLine(block.line.text)) {
    block.phase(BODY, mixed ? undefined : startsRequest);
  }
  if (block.done) return { request: block.request() };
  context.warnings.push({
    message:
      "A request line inside the request above starts a new request, as httpyac reads it: start it with ###",
    line: block.line.number,
    column: 1,
  });
  return { request: block.request(), rest: lines.slice(block.i) };
}
