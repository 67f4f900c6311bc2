/**
 * The one parser of request files: the JetBrains "HTTP Request in Editor" format with the
 * additions of VS Code REST Client (and what httpyac reads of both).
 *
 * Grammar (the JetBrains spec's productions, lines as the unit; `▷` marks a REST Client or
 * dial addition, `⚠` a deliberate difference):
 *
 * ```
 * requests-file   = *( separator / file-variable / blank / comment ) *request-block
 * separator       = "###" line-tail                  ; the text after ### names the request ▷
 * request-block   = head request-line *url-cont headers [ blank body ]
 *                   *( handler / output / response-ref )
 * head            = *( comment / directive / file-variable / pre-script / blank )
 * file-variable   = "@" identifier *WS [ ":" ] "=" *WS line-tail  ; := is httpyac's   ▷
 * directive       = ( "#" / "//" ) *WS "@" identifier [ WS line-tail ]                ▷
 *                   ; name, no-redirect, no-cookie-jar, timeout N, connection-timeout N,
 *                   ; no-log; unknown ones are warnings
 * comment         = ( "#" / "//" ) line-tail
 * pre-script      = "<" WS ( "{%" script "%}" / file-path )       ; JetBrains pre-request
 * request-line    = [ method WS ] request-target [ WS http-version ]
 * method          = 1*( "A"-"Z" / "-" )     ; GET … TRACE, GRAPHQL, WEBSOCKET, or any token ⚠
 * url-cont        = WS line-tail            ; indented: joined, trimmed (spec 4.2.1)
 *                 / ( "?" / "&" ) line-tail ; REST Client query lines ▷
 * headers         = *( header / comment )   ; header continuation: an indented line
 * header          = field-name ":" *WS field-value
 * body            = 1*( body-line / file-include / comment )   ; trimmed around (4.2.2)
 * file-include    = "<" WS file-path / "<@" [encoding] WS file-path   ; <@ substitutes ▷
 * handler         = ">" WS ( "{%" script "%}" / file-path )
 * response-ref    = "<>" WS file-path                ; kept, never executed
 * output          = ">>" [ "!" ] WS file-path        ; save the body (JetBrains; ! overwrites)
 * identifier      = 1*( ALPHA / DIGIT / "_" / "-" / "." )
 * ```
 *
 * Lines starting with `#` or `//` inside a body are comments (spec 2.4), not sent: a body
 * line that must start with them goes in a file included with `< path`. A request's span
 * ends at its last line that is not blank and not a comment.
 * @module
 */
import type {
  BodyPart,
  Directive,
  FileVariable,
  HeaderLine,
  HttpFile,
  HttpRequest,
  ParseWarning,
  Script,
  Span,
} from "./http_file_types.ts";
import {
  clip,
  HttpFileSyntaxError,
  KNOWN_DIRECTIVES,
  type Line,
  LineReader,
  readScript,
  spanBetween,
  spanOf,
  trimBody,
  warnDirective,
} from "./_http_lines.ts";

export { HttpFileSyntaxError, KNOWN_DIRECTIVES };

/** `###` at the start of a line (spec 2.5). */
function isSeparator(text: string): boolean {
  return text.charCodeAt(0) === 35 && text.startsWith("###");
}
const VARIABLE = /^@([A-Za-z0-9_.-]+)\s*:?=\s?(.*)$/;
const DIRECTIVE = /^\s*(?:#|\/\/)\s*@([A-Za-z][\w-]*)(?:\s+(.*?))?\s*$/;
const NONBLANK = /\S/;
const COMMENT = /^\s*(?:#|\/\/)/;

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
  const context = { variables, warnings, fail, index: 1 };
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
    context.index = requests.length + 1;
    try {
      const request = parseBlock(block, 0, block.length, separator, context);
      if (request) requests.push(request);
    } catch (error) {
      if (!options.recover || !(error instanceof HttpFileSyntaxError)) throw error;
      errors.push({
        message: error.message.slice(`${path}:${error.line}:${error.column}: `.length),
        line: error.line,
        column: error.column,
      });
    }
  }
  return {
    path,
    source,
    variables,
    requests,
    warnings,
    ...(options.recover ? { errors } : {}),
  };
}

interface BlockContext {
  variables: FileVariable[];
  warnings: ParseWarning[];
  fail: (line: Line, column: number, message: string) => never;
  index: number;
}

function parseBlock(
  lines: Line[],
  from: number,
  to: number,
  separator: Line | undefined,
  context: BlockContext,
): HttpRequest | undefined {
  const { fail } = context;
  const comments: string[] = [];
  const directives: Directive[] = [];
  const preScripts: Script[] = [];
  let first: Line | undefined = separator;
  let i = from;
  // Head: comments, directives, file variables, pre-request scripts.
  for (; i < to; i++) {
    const line = lines[i]!;
    const text = line.text;
    // Comments above a blank line or a file variable are the file's, not the request's.
    const detached = !separator && !directives.length && !preScripts.length;
    if (!NONBLANK.test(text)) {
      if (detached) first = undefined;
      continue;
    }
    const variable = VARIABLE.exec(text);
    if (variable) {
      context.variables.push({
        name: variable[1]!,
        value: variable[2]!.trim(),
        span: spanOf(line),
      });
      if (detached) first = undefined;
      continue;
    }
    first ??= line;
    const directive = COMMENT.test(text) ? DIRECTIVE.exec(text) : null;
    if (directive) {
      const name = directive[1]!;
      directives.push({ name, value: (directive[2] ?? "").trim(), span: spanOf(line) });
      warnDirective(name, line, context.warnings);
      continue;
    }
    if (COMMENT.test(text)) {
      comments.push(text.trim().replace(/^(#|\/\/)\s*/, ""));
      continue;
    }
    if (/^<\s/.test(text)) {
      const [script, next] = readScript(lines, i, to, 1, fail);
      preScripts.push(script);
      i = next - 1;
      continue;
    }
    break;
  }
  if (i >= to) {
    if (directives.length || preScripts.length) {
      const at = lines[i - 1] ?? lines[from]!;
      fail(at, 1, "Missing request line after directives or a pre-request script");
    }
    return undefined;
  }
  // Request line and its continuation lines.
  const lineStart = lines[i]!;
  first ??= lineStart;
  const { method, methodWritten, target, version } = parseRequestLine(lineStart, fail);
  let url = target;
  let last = lineStart;
  i++;
  while (i < to) {
    const text = lines[i]!.text;
    if (/^\s+\S/.test(text) || /^[?&]/.test(text)) {
      url += text.trim();
      last = lines[i++]!;
    } else break;
  }
  const requestLine = spanBetween(lineStart, last);
  // Headers, until a blank line.
  const headers: HeaderLine[] = [];
  const handlers: Script[] = [];
  const responseRefs: { path: string; span: Span }[] = [];
  const outputs: HttpRequest["outputs"] = [];
  let lastContent = last;
  for (; i < to; i++) {
    const line = lines[i]!;
    const text = line.text;
    if (!NONBLANK.test(text)) break;
    if (/^>\s/.test(text) || /^<>\s/.test(text) || /^>>!?\s/.test(text)) break;
    if (COMMENT.test(text)) {
      comments.push(text.trim().replace(/^(#|\/\/)\s*/, ""));
      lastContent = line;
      continue;
    }
    if (/^\s/.test(text) && headers.length) {
      const header = headers[headers.length - 1]!;
      header.value = `${header.value} ${text.trim()}`;
      header.span = { ...header.span, end: line.end, endLine: line.number };
      lastContent = line;
      continue;
    }
    const colon = text.indexOf(":");
    if (colon <= 0) {
      fail(line, 1, `Cannot parse header "${clip(text)}": missing ":"`);
    }
    const name = text.slice(0, colon).trim();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      fail(line, 1, `Cannot parse header "${clip(text)}": invalid name "${clip(name)}"`);
    }
    headers.push({ name, value: text.slice(colon + 1).trim(), span: spanOf(line) });
    lastContent = line;
  }
  // Body, handlers, response references.
  const body: BodyPart[] = [];
  let textLines: Line[] = [];
  const flushText = () => {
    if (textLines.length) {
      body.push({
        kind: "text",
        text: textLines.map((l) => l.text).join("\n"),
        span: spanBetween(textLines[0]!, textLines.at(-1)!),
      });
    }
    textLines = [];
  };
  for (; i < to; i++) {
    const line = lines[i]!;
    const text = line.text;
    if (/^>\s/.test(text) || /^>\{%/.test(text)) {
      flushText();
      const [script, next] = readScript(lines, i, to, 1, fail);
      handlers.push(script);
      lastContent = lines[next - 1]!;
      i = next - 1;
      continue;
    }
    if (/^<>\s/.test(text)) {
      flushText();
      responseRefs.push({ path: text.slice(2).trim(), span: spanOf(line) });
      lastContent = line;
      continue;
    }
    const redirect = /^>>(!?)\s+(\S.*)$/.exec(text);
    if (redirect) {
      flushText();
      outputs.push({
        path: redirect[2]!.trim(),
        overwrite: redirect[1] === "!",
        span: spanOf(line),
      });
      lastContent = line;
      continue;
    }
    if (handlers.length || responseRefs.length || outputs.length) {
      if (!NONBLANK.test(text) || COMMENT.test(text)) continue;
      fail(line, 1, "Unexpected text after a response handler: start a new request with ###");
    }
    if (COMMENT.test(text)) {
      // A comment inside a body (spec 2.4) is not sent; it ends the current text part.
      flushText();
      comments.push(text.trim().replace(/^(#|\/\/)\s*/, ""));
      continue;
    }
    const include = /^<(@[\w-]*)?\s+(\S.*)$/.exec(text);
    if (include) {
      flushText();
      const encoding = include[1]?.slice(1);
      body.push({
        kind: "file",
        path: include[2]!.trim(),
        substitute: include[1] !== undefined,
        ...(encoding ? { encoding } : {}),
        span: spanOf(line),
      });
      lastContent = line;
      continue;
    }
    textLines.push(line);
    if (NONBLANK.test(text)) lastContent = line;
  }
  flushText();
  trimBody(body, lines);
  const named = directives.findLast((d) => d.name === "name")?.value;
  const separatorName = separator?.text.slice(3).trim();
  const name = named || separatorName || undefined;
  const request: HttpRequest = {
    index: context.index,
    span: spanBetween(first, lastContent),
    method,
    methodWritten,
    url,
    requestLine,
    comments,
    directives,
    preScripts,
    headers,
    body,
    handlers,
    responseRefs,
    outputs,
  };
  // Assigned, not spread: a 10,000-request file builds no throw-away objects.
  if (name) request.name = name;
  if (separator) request.separator = spanOf(separator);
  if (version) request.httpVersion = version;
  if (body.length) {
    const last = body[body.length - 1]!.span;
    request.bodySpan = {
      start: body[0]!.span.start,
      end: last.end,
      line: body[0]!.span.line,
      endLine: last.endLine,
    };
  }
  return request;
}

function parseRequestLine(line: Line, fail: BlockContext["fail"]) {
  let rest = line.text.trim();
  const indent = line.text.length - line.text.trimStart().length;
  let method = "GET";
  let methodWritten = false;
  const head = /^([A-Z][A-Z-]*)(?:\s+|$)/.exec(rest);
  if (head && (head[0] !== rest || !/[.:/]/.test(head[1]!))) {
    if (head[0] === rest) fail(line, line.text.length + 1, `Missing URL after method "${head[1]}"`);
    method = head[1]!;
    methodWritten = true;
    rest = rest.slice(head[0].length);
  }
  let version: string | undefined;
  const tail = /\s+(HTTP\/\d+(?:\.\d+)?)$/.exec(rest);
  if (tail) {
    version = tail[1];
    rest = rest.slice(0, tail.index);
  }
  // Spaces are allowed only inside {{ … }}.
  const outside = /\s/.test(rest)
    ? rest.replace(/\{\{[^{}]*\}\}/g, (m) => "x".repeat(m.length))
    : rest;
  const space = outside === rest && !/\s/.test(rest) ? null : /\s/.exec(outside);
  if (space) {
    const column = indent + line.text.trim().indexOf(rest) + space.index + 1;
    const word = rest.slice(space.index).trim().split(/\s+/)[0]!;
    fail(line, column + 1, `Cannot parse request line: unexpected "${clip(word)}"`);
  }
  return { method, methodWritten, target: rest, version };
}
