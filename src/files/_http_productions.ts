/**
 * The productions of the request-file grammar, one small parser per line kind (the grammar is
 * written out in docs/request-files.md, "Grammar"): each reads the current line of a
 * {@link Block} when it is its kind, records it and moves the cursor on. The phases at the end
 * list which productions may appear where, in the order they are tried.
 * @module
 */
import { Phase, type Production, type RequestLineParts } from "./_http_block.ts";
import type { ParseWarning } from "./http_file_types.ts";
import {
  clip,
  type Fail,
  type Line,
  readScript,
  spanBetween,
  spanOf,
  warnDirective,
} from "./_http_lines.ts";

const NONBLANK = /\S/;
const COMMENT = /^\s*(?:#|\/\/)/;
const VARIABLE = /^@([A-Za-z0-9_.-]+)\s*:?=\s?(.*)$/;
// httpyac's own pattern (a quoted URI keeps a closing quote, as there).
const XPATH_NS = /^\s*@xpath_ns\s+(?<key>[^\s=:]*)\s*=\s*"?(?<value>.*)"?\s*$/u;
const DIRECTIVE = /^\s*(?:#|\/\/)\s*@([A-Za-z][\w-]*)(?:\s+(.*?))?\s*$/;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function isBlank(text: string): boolean {
  return !NONBLANK.test(text);
}

const COMMENT_MARK = /^(#|\/\/)\s*/;

function commentText(text: string): string {
  return text.trim().replace(COMMENT_MARK, "");
}

/** A blank line in the head: comments above it are the file's, not the request's. */
export const headBlank: Production = (block) => {
  if (!isBlank(block.line.text)) return false;
  if (block.detached) block.first = undefined;
  return block.consumed();
};

/** `@name = value` (`:=` is httpyac's): a file variable. */
export const fileVariable: Production = (block) => {
  const line = block.line;
  const match = VARIABLE.exec(line.text);
  if (!match) return false;
  block.file.variables.push({ name: match[1]!, value: match[2]!.trim(), span: spanOf(line) });
  if (block.detached) block.first = undefined;
  return block.consumed();
};

/** httpyac's `@xpath_ns prefix=uri`: a namespace for every `?? xpath` of the file. */
export const xpathNamespace: Production = (block) => {
  const line = block.line;
  const match = XPATH_NS.exec(line.text);
  if (!match?.groups?.key || !match.groups.value) return false;
  (block.file.xpathNamespaces ??= []).push({
    prefix: match.groups.key,
    uri: match.groups.value,
    span: spanOf(line),
  });
  if (block.detached) block.first = undefined;
  return block.consumed();
};

/** `# @name value` or `// @name value`: a directive (unknown ones are warnings). */
export const directive: Production = (block) => {
  const line = block.line;
  const match = COMMENT.test(line.text) ? DIRECTIVE.exec(line.text) : null;
  if (!match) return false;
  block.first ??= line;
  const name = match[1]!;
  const value = (match[2] ?? "").trim();
  if (name === "import" && value) {
    // httpyac's `# @import ./other.http` holds for the whole file, as JetBrains' `import` line.
    (block.file.imports ??= []).push({ path: value, span: spanOf(line), httpyac: true });
    block.runs++;
    return block.consumed();
  }
  block.directives.push({ name, value, span: spanOf(line) });
  warnDirective(name, line, block.file.warnings);
  return block.consumed();
};

/** `# text` or `// text` above the request line. */
export const headComment: Production = (block) => {
  const line = block.line;
  if (!COMMENT.test(line.text)) return false;
  block.first ??= line;
  block.comments.push(commentText(line.text));
  return block.consumed();
};

/**
 * httpyac's block comment above a request: a line of a slash and a star, then every line up to a
 * line of a star and a slash (one that is never closed is no comment).
 */
export const blockComment: Production = (block) => {
  const line = block.line;
  if (!/^\s*\/\*$/.test(line.text)) return false;
  const end = block.lines.findIndex((l, i) => i > block.i && /^\s*\*\/\s*$/.test(l.text));
  if (end < 0) return false;
  block.first ??= line;
  block.comments.push(
    block.lines.slice(block.i + 1, end).map((l) => l.text).join("\n").trim(),
  );
  block.i = end + 1;
  return true;
};

const SCRIPT_BLOCK_START =
  /^\s*\{\{(?:@js\s+)?([+@])?(request|streaming|response|after|responseLogging)?\s*$/i;
const SCRIPT_BLOCK_END = /^\s*\}\}\s*$/;

/**
 * httpyac's JavaScript block, a line `{{` (or `{{+`, `{{@response`, `{{+after` …) up to a line
 * `}}`: code run in dial's sandbox with httpyac's script globals. Above the request line it runs
 * before the request, below it after the response (httpyac's order of hooks); `{{+…` ones run
 * for every request of the file, and so do blocks without a request, once (the file keeps
 * those). `{{@streaming` runs while the response is read (the request keeps it);
 * `{{@responseLogging` (it only changes what httpyac logs) is skipped with a warning.
 */
export const httpyacScript: Production = (block) => {
  const line = block.line;
  const start = SCRIPT_BLOCK_START.exec(line.text);
  if (!start) return false;
  const end = block.lines.findIndex((l, i) => i > block.i && SCRIPT_BLOCK_END.test(l.text));
  if (end < 0) return false;
  const event = (start[2] ?? "").toLowerCase();
  block.flushText();
  block.first ??= line;
  block.lastContent = block.lines[end]!;
  const lines = block.lines.slice(block.i + 1, end);
  block.i = end + 1;
  if (event === "responselogging") {
    block.file.warnings.push({
      message: `httpyac's "${line.text.trim()}" block only changes what httpyac logs: skipped`,
      line: line.number,
      column: 1,
    });
    return true;
  }
  const script = {
    kind: "inline" as const,
    code: lines.map((l) => l.text).join("\n"),
    codeLine: line.number + 1,
    codeColumn: 1,
    span: spanBetween(line, block.lastContent),
    httpyac: {
      event: event as "" | "request" | "response" | "after" | "streaming",
      every: start[1] === "+",
    },
  };
  if (event === "streaming") {
    block.streaming.push(script);
    return true;
  }
  // Above a request line, `{{+` blocks wait in the head: in a block without a request every
  // block is the file's, in file order (the driver moves them).
  if (!block.requestLine) block.preScripts.push(script);
  else if (script.httpyac.every) (block.file.scripts ??= []).push(script);
  else if (event === "request") block.preScripts.push(script);
  else block.handlers.push(script);
  return true;
};

/**
 * httpyac's GraphQL fragment above a request, `fragment NAME on TYPE {` up to a blank line: the
 * file's requests whose query spreads it (`...NAME`) send it after their query.
 */
export const graphqlFragment: Production = (block) => {
  const line = block.line;
  const match = /^\s*fragment\s+([_A-Za-z]\w*)\s+on\s+/.exec(line.text);
  if (!match) return false;
  let end = block.lines.findIndex((l, i) => i > block.i && isBlank(l.text));
  if (end < 0) end = block.lines.length;
  (block.file.fragments ??= []).push({
    name: match[1]!,
    text: block.lines.slice(block.i, end).map((l) => l.text).join("\n"),
  });
  block.i = end;
  return true;
};

/**
 * httpyac's `gql NAME < ./parts.gql` above a request: a GraphQL fragment from a file, sent after
 * the query of each request of the file that spreads it (`...NAME`), as a written one is.
 */
export const graphqlFragmentFile: Production = (block) => {
  const line = block.line;
  const match = /^\s*gql\s+([_A-Za-z]\w*)\s+<\s+(\S.*?)\s*$/.exec(line.text);
  if (!match) return false;
  (block.file.fragments ??= []).push({ name: match[1]!, path: match[2]!, line: line.number });
  return block.consumed();
};

/** `< {% … %}` or `< ./script.js` before the request line: a pre-request script. */
export const preScript: Production = (block) => {
  const line = block.line;
  if (!/^<\s/.test(line.text)) return false;
  block.first ??= line;
  const [script, next] = readScript(block.lines, block.i, block.lines.length, 1, block.file.fail);
  block.preScripts.push(script);
  block.i = next;
  return true;
};

const PROTO = /^proto\s+<\s+(\S.*?)\s*$/;
// The options of `@grpc/proto-loader` that httpyac passes on, one `key: value` line each.
const PROTO_OPTION =
  /^\s*(keepCase|longs|enums|bytes|defaults|arrays|objects|oneofs|json|includeDirs)\s*:\s*(.*?),?\s*$/;

/**
 * httpyac's `proto < ./greeter.proto` and its option lines (`includeDirs: ["./protos"]`): the
 * `.proto` files a `GRPC` request is described by. The other options of `@grpc/proto-loader`
 * shape httpyac's objects; dial's replies are always the proto3 JSON mapping, so they are
 * ignored with a warning.
 */
export const protoImport: Production = (block) => {
  const first = block.line;
  const match = PROTO.exec(first.text);
  if (!match) return false;
  block.first ??= first;
  const importPaths: string[] = [];
  let last = first;
  block.i++;
  for (; !block.done; block.i++) {
    const line = block.line;
    const option = PROTO_OPTION.exec(line.text);
    if (!option) break;
    last = line;
    if (option[1] !== "includeDirs") {
      block.file.warnings.push({
        message: `The proto-loader option "${
          option[1]
        }" is ignored: dial's replies are the proto3 JSON mapping`,
        line: line.number,
        column: line.text.indexOf(option[1]!) + 1,
      });
      continue;
    }
    importPaths.push(...includeDirs(option[2]!, line, block.file.fail));
  }
  block.protos.push({
    path: match[1]!,
    importPaths,
    span: spanBetween(first, last),
  });
  return true;
};

/** `includeDirs`' value: a JSON string or array of strings (httpyac evaluates it; dial does not). */
function includeDirs(text: string, line: Line, fail: Fail): string[] {
  let value: unknown;
  // JSON, or the same written with JavaScript's single quotes.
  for (const json of [text, text.replaceAll("'", '"')]) {
    try {
      value = JSON.parse(json);
      break;
    } catch {
      // next form
    }
  }
  if (typeof value === "string") return [value];
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value;
  return fail(
    line,
    line.text.indexOf(text) + 1,
    `Cannot parse includeDirs "${clip(text)}": expected a list of folders, e.g. ["./protos"]`,
  );
}

const RUN = /^run\s+(#\s*(.*?)|(\S+?))\s*(?:\((\s*@[^)]*)\))?\s*$/;

/**
 * JetBrains' `run #name` / `run ./file.http`, with `(@var=value, …)` overrides: runs a request of
 * this file, or every request of another, in place.
 */
export const runLine: Production = (block) => {
  const line = block.line;
  if (!line.text.startsWith("run ") && !line.text.startsWith("run\t")) return false;
  const match = RUN.exec(line.text.trimEnd());
  const fail = block.file.fail;
  if (!match || (match[2] !== undefined && !match[2])) {
    return fail(
      line,
      1,
      `Cannot parse run line "${clip(line.text)}": expected "run #name" or "run ./file.http"`,
    );
  }
  const variables = [];
  for (const item of match[4]?.split(",") ?? []) {
    const pair = /^\s*@([A-Za-z0-9_.-]+)\s*=\s*(.*?)\s*$/.exec(item);
    if (!pair) {
      const column = line.text.indexOf(item.trim()) + 1;
      return fail(line, column, `Cannot parse run line: "${clip(item.trim())}" is not @name=value`);
    }
    variables.push({ name: pair[1]!, value: pair[2]! });
  }
  block.file.runs.push({
    target: match[2] !== undefined
      ? { kind: "request", name: match[2] }
      : { kind: "file", path: match[3]! },
    variables,
    after: block.file.index - 1,
    span: spanOf(line),
  });
  block.runs++;
  return block.consumed();
};

/**
 * JetBrains' `import ./other.http`: the other file's requests become runnable by `run #name`
 * (nothing of it runs by the import itself).
 */
export const importLine: Production = (block) => {
  const line = block.line;
  if (!/^import\s/.test(line.text)) return false;
  const path = line.text.slice("import".length).trim();
  if (!path || /\s/.test(path)) {
    return block.file.fail(
      line,
      1,
      `Cannot parse import line "${clip(line.text)}": expected "import ./file.http"`,
    );
  }
  (block.file.imports ??= []).push({ path, span: spanOf(line) });
  // Like a run line, an import is not a request: a block of them needs no request line.
  block.runs++;
  if (block.detached) block.first = undefined;
  return block.consumed();
};

/** `[METHOD] target [HTTP/x.y]`: the request line (always read: anything else is an error). */
export const requestLine: Production = (block) => {
  const line = block.line;
  block.first ??= line;
  const parts = parseRequestLine(line, block.file.fail);
  block.requestLine = { parts, first: line, last: line };
  block.lastContent = line;
  return block.consumed();
};

// The request line's parts (regular expressions are made once: a literal is an object per use).
const METHOD = /^([A-Z][A-Z-]*)(?:\s+|$)/;
const VERSION_AT_END = /\s+(HTTP\/\d+(?:\.\d+)?)$/;
const SPACE = /\s/;
const TEMPLATE = /\{\{[^{}]*\}\}/g;
const SPACES = /\s+/;

function parseRequestLine(line: Line, fail: Fail): RequestLineParts {
  let rest = line.text.trim();
  const indent = line.text.length - line.text.trimStart().length;
  let method = "GET";
  let methodWritten = false;
  const head = METHOD.exec(rest);
  // A word alone is a method without its URL only when it names one (`POST`); another
  // (`USERS`) is the short form's URL, as httpyac and REST Client read it: that request fails
  // when it is sent, and the file's other requests run.
  const alone = head?.[0] === rest;
  if (head && (alone ? METHODS.test(head[1]!) : true)) {
    if (alone) fail(line, line.text.length + 1, `Missing URL after method "${head[1]}"`);
    method = head[1]!;
    methodWritten = true;
    rest = rest.slice(head[0].length);
  }
  let version: string | undefined;
  const tail = VERSION_AT_END.exec(rest);
  if (tail) {
    version = tail[1];
    rest = rest.slice(0, tail.index);
  }
  // Spaces are allowed inside {{ … }} and in the query (REST Client, httpyac and kulala read the
  // URL up to the version: `?city=New York` is sent as `?city=New%20York`).
  const outside = SPACE.test(rest) ? rest.replace(TEMPLATE, (m) => "x".repeat(m.length)) : rest;
  const query = outside.indexOf("?");
  const path = query < 0 ? outside : outside.slice(0, query);
  const space = path === rest && !SPACE.test(rest) ? null : SPACE.exec(path);
  if (space) {
    const column = indent + line.text.trim().indexOf(rest) + space.index + 1;
    const word = rest.slice(space.index).trim().split(SPACES)[0]!;
    fail(line, column + 1, `Cannot parse request line: unexpected "${clip(word)}"`);
  }
  return { method, methodWritten, target: rest, version };
}

const INDENTED_TEXT = /^\s+\S/;
const QUERY_LINE = /^[?&]/;
const VERSION_LAST = /\s+(HTTP\/\d+(?:\.\d+)?)\s*$/;

/**
 * An indented line, or a REST Client `?a=1` / `&b=2` line, after the request line. The HTTP
 * version may end the last one (spec 4.2.1: the request line is the target's lines, then the
 * version).
 */
export const urlContinuation: Production = (block) => {
  const line = block.line;
  if (!INDENTED_TEXT.test(line.text) && !QUERY_LINE.test(line.text)) return false;
  const request = block.requestLine!;
  const version = request.parts.version ? null : VERSION_LAST.exec(line.text);
  if (version) request.parts.version = version[1];
  request.parts.target += (version ? line.text.slice(0, version.index) : line.text).trim();
  request.last = line;
  block.lastContent = line;
  return block.consumed();
};

/** A comment between headers (it belongs to the request's span). */
export const headerComment: Production = (block) => {
  const line = block.line;
  if (!COMMENT.test(line.text)) return false;
  block.comments.push(commentText(line.text));
  block.lastContent = line;
  return block.consumed();
};

const HEADER_SPREAD = /^\s*\.{3}(\S+?),?\s*$/;

/**
 * httpyac's `...NAME` among the headers: the object NAME (JavaScript, as httpyac evaluates it)
 * gives headers, set when the request is sent over the written ones of the same name.
 */
export const headerSpread: Production = (block) => {
  const line = block.line;
  const spread = HEADER_SPREAD.exec(line.text);
  if (!spread) return false;
  block.headerSpreads.push({ expression: spread[1]!, span: spanOf(line) });
  block.lastContent = line;
  return block.consumed();
};

const INDENTED = /^\s/;

/** An indented line after a header: it continues the header's value. */
export const headerContinuation: Production = (block) => {
  const line = block.line;
  if (!INDENTED.test(line.text) || !block.headers.length) return false;
  const header = block.headers[block.headers.length - 1]!;
  header.value = `${header.value} ${line.text.trim()}`;
  header.span = { ...header.span, end: line.end, endLine: line.number };
  block.lastContent = line;
  return block.consumed();
};

/** `Name: value` (always read in the header phase: anything else is an error). */
export const header: Production = (block) => {
  const line = block.line;
  const text = line.text;
  const colon = text.indexOf(":");
  const fail = block.file.fail;
  // httpyac sends such a line (and what follows) as the body; dial needs the blank line, so that
  // a header missing its ":" is never sent as a body.
  if (colon <= 0) {
    fail(
      line,
      1,
      `Cannot parse header "${clip(text)}": missing ":" (a body needs a blank line above it)`,
    );
  }
  const name = text.slice(0, colon).trim();
  if (!TOKEN.test(name)) {
    fail(line, 1, `Cannot parse header "${clip(text)}": invalid name "${clip(name)}"`);
  }
  const value = text.slice(colon + 1).trim();
  if (isClientCertHeader(name, value)) {
    // httpyac's client certificate (`X-ClientCert: pfx: ./c.p12 passphrase: …`) is not a
    // header: kept in the file, never sent (file_request.ts); a file does not choose the client
    // certificate either.
    block.file.warnings.push({
      message:
        `httpyac's client certificate header "${name}" is not sent: a client certificate is given on the command line, not by a file`,
      line: line.number,
      column: 1,
    });
  }
  block.headers.push({ name, value, span: spanOf(line) });
  block.lastContent = line;
  return block.consumed();
};

/**
 * @param name a header's name
 * @param value its value as written
 * @returns whether it is httpyac's client certificate (a name ending in `ClientCert`, a value
 *   `cert: … key: …` or `pfx: … passphrase: …`), which is never sent
 */
export function isClientCertHeader(name: string, value: string): boolean {
  return /clientcert$/i.test(name) && CLIENT_CERT.test(value);
}
const CLIENT_CERT =
  /^(?=\s*(?:cert|pfx):)(?:cert:\s*\S*\s*)?(?:key:\s*\S*\s*)?(?:pfx:\s*\S*\s*)?(?:passphrase:\s*\S*\s*)?$/;

const HANDLER_PATH = /^>\s/;
const HANDLER_SCRIPT = /^>\{%/;
const RESPONSE_REF = /^<>\s/;
const OUTPUT = /^>>(!?)\s+(\S.*)$/;

/** `> {% … %}` or `> ./handler.js` after the body: a response handler. */
export const handler: Production = (block) => {
  const text = block.line.text;
  if (!HANDLER_PATH.test(text) && !HANDLER_SCRIPT.test(text)) return false;
  block.flushText();
  const [script, next] = readScript(block.lines, block.i, block.lines.length, 1, block.file.fail);
  block.handlers.push(script);
  block.lastContent = block.lines[next - 1]!;
  block.i = next;
  return true;
};

/** `<> path`: a response reference (kept, never executed). */
export const responseRef: Production = (block) => {
  const line = block.line;
  if (!RESPONSE_REF.test(line.text)) return false;
  block.flushText();
  block.responseRefs.push({ path: line.text.slice(2).trim(), span: spanOf(line) });
  block.lastContent = line;
  return block.consumed();
};

/** `>> path` / `>>! path`: save the response body (`!` overwrites). */
export const output: Production = (block) => {
  const line = block.line;
  const match = OUTPUT.exec(line.text);
  if (!match) return false;
  block.flushText();
  block.outputs.push({ path: match[2]!.trim(), overwrite: match[1] === "!", span: spanOf(line) });
  block.lastContent = line;
  return block.consumed();
};

/** httpyac's operators, in its order (the first names the operator in messages). */
export const OPERATORS: readonly (readonly string[])[] = [
  ["endsWith"],
  ["==", "===", "equals"],
  ["exists", "isTrue"],
  [">="],
  [">"],
  ["includes", "contains"],
  ["isArray"],
  ["isBoolean"],
  ["isNumber"],
  ["isString"],
  ["<="],
  ["<"],
  ["matches"],
  ["!=", "!=="],
  ["startsWith"],
  ["sha256"],
  ["md5"],
  ["sha512"],
  ["isFalse"],
];

// httpyac's pattern, case-insensitive as there: the value is greedy, so the operator is the
// last one that follows a space; the expected text keeps its trailing spaces.
const ASSERTION = new RegExp(
  `^\\s*\\?\\?\\s*(\\S*)(?:\\s+(.*))?\\s+(${OPERATORS.flat().join("|")})\\s*(.*)$`,
  "iu",
);
const ASSERTION_MARK = /^\s*\?\?/;
const OPERATOR_NAMES: ReadonlySet<string> = new Set(OPERATORS.flat());
/** The subjects httpyac 6.16.7 gives a value, and dial's JSONPath. */
const SUBJECTS = /^(?:status|header|body|duration|js|xpath|\$.*)$/;

/**
 * `?? SUBJECT [ARGUMENT] OPERATOR [EXPECTED]` (httpyac): an assertion on the response. A line
 * that starts with `??` is never anything else. One that httpyac does not read as a test (no
 * operator; an operator in other letter case) is skipped with a warning, as httpyac makes no
 * test of it; an unknown subject is a warning, and its value is `false`, as in httpyac.
 */
export const assertion: Production = (block) => {
  const line = block.line;
  if (!ASSERTION_MARK.test(line.text)) return false;
  block.flushText();
  const column = line.text.indexOf("??") + 1;
  const match = ASSERTION.exec(line.text);
  const warn = (message: string) =>
    block.file.warnings.push({ message, line: line.number, column });
  if (!match || !match[1] || !OPERATOR_NAMES.has(match[3]!)) {
    warn(
      match?.[1]
        ? `The assertion "${
          clip(line.text.trim())
        }" is skipped: httpyac reads no test from it (its operator "${
          match[3]
        }" is not written as httpyac's operators are)`
        : `The assertion "${
          clip(line.text.trim())
        }" is skipped: expected "?? SUBJECT OPERATOR [VALUE]" (httpyac reads no test from it)`,
    );
    block.lastContent = line;
    return block.consumed();
  }
  if (!SUBJECTS.test(match[1])) {
    warn(
      `Unknown assertion subject "${
        match[1]
      }": status, header, body, duration, js, xpath or $ (JSONPath); its value is false, as in httpyac`,
    );
  }
  if (!block.requestLine) block.first ??= line;
  block.assertions.push({
    subject: match[1]!,
    ...(match[2]?.trim() ? { argument: match[2].trim() } : {}),
    operator: match[3]!,
    ...(match[4] ? { expected: match[4] } : {}),
    text: line.text.trim().slice(2).trim(),
    span: spanOf(line),
  });
  block.lastContent = line;
  return block.consumed();
};

/** After the tail began: blank lines and comments are skipped, anything else is an error. */
export const tailFiller: Production = (block) => {
  if (!block.inTail) return false;
  const line = block.line;
  if (!isBlank(line.text) && !COMMENT.test(line.text)) {
    block.file.fail(
      line,
      1,
      "Unexpected text after a response handler: start a new request with ###",
    );
  }
  return block.consumed();
};

/**
 * A comment inside a body (spec 2.4): not sent; it ends the current text part. A `#` line of a
 * GraphQL query is the query's instead ({@link isGraphqlQueryLine}).
 */
export const bodyComment: Production = (block) => {
  const line = block.line;
  if (!COMMENT.test(line.text)) return false;
  if (
    // Above it: comments and blank lines only, then the query's lines.
    block.body.every((part) => part.kind === "text" && isBlank(part.text)) &&
    isGraphqlQueryLine(
      block.requestLine?.parts.method ?? "",
      block.headers,
      block.textLines.map((l) => l.text),
      line.text,
    )
  ) {
    return false;
  }
  block.flushText();
  block.comments.push(commentText(line.text));
  return block.consumed();
};

/** httpyac's GraphQL body: its first line opens a query or mutation. */
const GRAPHQL_OPENING = /^\s*(?:query|mutation)(?:\s+[_A-Za-z]\w*)?\s*[({]/;
const GRAPHQL_COMMENT = /^\s*#(?!##)/;

/**
 * Whether a `#` line of a body is a line of a GraphQL request's query (a GraphQL comment), sent
 * as httpyac 6.16.7 sends it, rather than a comment of the request file: the request is GraphQL
 * (`GRAPHQL`, REST Client's `X-Request-Type: GraphQL`, or httpyac's JSON body that opens with a
 * query or mutation) and the line is right under a line of the query's first paragraph. A `#`
 * line above the query or after a blank line stays the file's comment, as in httpyac; a `//`
 * line is always one (no GraphQL document holds it).
 *
 * @param method the request's method
 * @param headers its headers as written
 * @param above the body's text lines above the line, in order (blank ones too)
 * @param text the line
 * @returns whether the line is the query's
 */
export function isGraphqlQueryLine(
  method: string,
  headers: readonly { name: string; value: string }[],
  above: readonly string[],
  text: string,
): boolean {
  if (!GRAPHQL_COMMENT.test(text)) return false;
  const start = above.findIndex((line) => !isBlank(line));
  if (start < 0 || above.slice(start).some(isBlank)) return false;
  const header = (name: string) =>
    headers.find((h) => h.name.trim().toLowerCase() === name)?.value.trim();
  if (method === "GRAPHQL" || /^graphql$/i.test(header("x-request-type") ?? "")) return true;
  const type = header("content-type");
  return (type === undefined || /json/i.test(type)) && !["WEBSOCKET", "GRPC"].includes(method) &&
    GRAPHQL_OPENING.test(above[start]!);
}

const FILE_INCLUDE = /^<(@[\w-]*)?\s+(\S.*)$/;

/** `< path` (as it is) or `<@[encoding] path` (substituted): a file included in the body. */
export const fileInclude: Production = (block) => {
  const line = block.line;
  const match = FILE_INCLUDE.exec(line.text);
  if (!match) return false;
  block.flushText();
  const encoding = match[1]?.slice(1);
  block.body.push({
    kind: "file",
    path: match[2]!.trim(),
    substitute: match[1] !== undefined,
    ...(encoding ? { encoding } : {}),
    span: spanOf(line),
  });
  block.lastContent = line;
  return block.consumed();
};

/**
 * REST Client's `@name = value` after the body: a file variable, when nothing but blank lines,
 * comments, assertions and other variables follow it in the block (inside a body it is text).
 */
export const trailingVariable: Production = (block) => {
  if (!VARIABLE.test(block.line.text)) return false;
  for (let j = block.i + 1; j < block.lines.length; j++) {
    const text = block.lines[j]!.text;
    if (
      !isBlank(text) && !COMMENT.test(text) && !VARIABLE.test(text) && !ASSERTION_MARK.test(text)
    ) {
      return false;
    }
  }
  block.flushText();
  return fileVariable(block);
};

/** httpyac's methods, WebDAV's too. */
const HTTPYAC_METHODS = "GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE|CONNECT|PROPFIND|PROPPATCH|" +
  "MKCOL|COPY|MOVE|LOCK|UNLOCK|CHECKOUT|CHECKIN|REPORT|MERGE|MKACTIVITY|MKWORKSPACE|" +
  "VERSION-CONTROL|BASELINE-CONTROL|MKCALENDAR|ACL|SEARCH";

/** A method's name: httpyac's, and those of the protocols dial sends (`GRAPHQL`, `WEBSOCKET` …). */
const METHODS = new RegExp(
  `^(?:${HTTPYAC_METHODS}|QUERY|GRAPHQL|GQL|WEBSOCKET|WS|GRPC|SSE|MQTT|AMQP)$`,
);

/**
 * A request line that starts a request inside another, with httpyac's methods; its target may
 * hold `{{$randomInt 1 9}}`.
 */
const REQUEST_LINE = new RegExp(
  `^(?:${HTTPYAC_METHODS})\\s+(?:\\{\\{[^{}\\n]*\\}\\}|[^\\s{]|\\{(?!\\{))+(?:\\s+HTTP\\/[\\d.]+)?\\s*$`,
);

const EXAMPLE_RESPONSE = /^\s*HTTP\/\S+\s*[1-5]\d\d\b/;

/**
 * httpyac's example response after a request (`HTTP/1.1 200 - OK`, its headers and body, as
 * httpyac writes one into the file): kept out of the request, never sent; it runs to the end of
 * the block or, as httpyac reads it, to a request line, which starts the next request.
 */
export const exampleResponse: Production = (block) => {
  if (!EXAMPLE_RESPONSE.test(block.line.text)) return false;
  block.flushText();
  do block.i++; while (!block.done && !isRequestLine(block.line.text));
  return true;
};

/** Any other line of the body: text, sent as written. */
export const bodyText: Production = (block) => {
  const line = block.line;
  block.textLines.push(line);
  if (!isBlank(line.text)) block.lastContent = line;
  return block.consumed();
};

/**
 * What each line kind starts with: the characters its first character that is not white space
 * may be (`"\n"`: a blank line). A phase tries a production only on lines that start so; one not
 * listed reads lines of any start (indented continuations, headers, body text, the tail's filler).
 */
const STARTS: ReadonlyMap<Production, string> = new Map<Production, string>([
  [headBlank, "\n"],
  [fileVariable, "@"],
  [xpathNamespace, "@"],
  [directive, "#/"],
  [headComment, "#/"],
  [blockComment, "/"],
  [httpyacScript, "{"],
  [graphqlFragment, "f"],
  [graphqlFragmentFile, "g"],
  [protoImport, "p"],
  [preScript, "<"],
  [assertion, "?"],
  [runLine, "r"],
  [importLine, "i"],
  [headerComment, "#/"],
  [headerSpread, "."],
  [handler, ">"],
  [responseRef, "<"],
  [output, ">"],
  [exampleResponse, "H"],
  [trailingVariable, "@"],
  [bodyComment, "#/"],
  [fileInclude, "<"],
]);

/**
 * @param productions tried in this order on each line
 * @returns the phase, each production tried only on the lines its kind may start
 */
export function phase(productions: readonly Production[]): Phase {
  return new Phase(productions, STARTS);
}

/** The head, before the request line. */
export const HEAD: Phase = phase([
  headBlank,
  fileVariable,
  xpathNamespace,
  directive,
  headComment,
  blockComment,
  httpyacScript,
  graphqlFragment,
  graphqlFragmentFile,
  protoImport,
  preScript,
  assertion,
  runLine,
  importLine,
]);
/** Right after the request line. */
export const REQUEST_LINE_CONTINUATION: Phase = phase([assertion, urlContinuation]);
/** Headers, up to a blank line or the tail. */
export const HEADERS: Phase = phase([
  assertion,
  httpyacScript,
  headerComment,
  headerSpread,
  headerContinuation,
  header,
]);
/** The body and the tail (handlers, references, outputs, assertions). */
export const BODY: Phase = phase([
  handler,
  responseRef,
  output,
  assertion,
  httpyacScript,
  exampleResponse,
  trailingVariable,
  tailFiller,
  bodyComment,
  fileInclude,
  bodyText,
]);

const GRPC_MESSAGE = /^\s*[{[]/;
const UNSEPARATED_BODY = /^(?:\{(?!\{)|\{\{[^{}]*\}\}\s*$|\[|<[?!A-Za-z@\s])/;

/**
 * Whether a header-phase line starts the body with no blank line before it: a `GRPC` request's
 * JSON message (JetBrains writes it right under the request line or the metadata), or, as
 * httpyac and Visual Studio read it, a line that opens JSON (`{`, `[`) or XML (`<?`, `<!`,
 * `<name`), includes a file (`< path`, `<@ path`) or starts with a variable (`{{body}}`), with a
 * warning (JetBrains and REST Client need the blank line). No header starts so.
 *
 * @param method the request's method
 * @param line the line
 * @param warnings where the warning goes
 * @returns whether the body starts at the line
 */
export function startsBody(method: string, line: Line, warnings: ParseWarning[]): boolean {
  if (method === "GRPC" && GRPC_MESSAGE.test(line.text)) return true;
  if (!UNSEPARATED_BODY.test(line.text)) return false;
  warnings.push({
    message:
      "The body starts with no blank line before it: read as the body, as httpyac reads it (add a blank line after the headers)",
    line: line.number,
    column: 1,
  });
  return true;
}

/**
 * @param text a line
 * @returns whether it is a request line with a method (`GET /x`, `POST https://… HTTP/1.1`)
 */
export function isRequestLine(text: string): boolean {
  // Every method starts with a capital letter: other lines need no look at the pattern.
  if (text.length === 0) return false;
  const first = text.charCodeAt(0);
  return first >= 65 && first <= 90 && REQUEST_LINE.test(text);
}

const OUTPUT_MARK = /^>>!?\s/;

/** @returns whether a header-phase line ends the headers (a blank line or the tail) */
export function endsHeaders(line: Line): boolean {
  const text = line.text;
  return isBlank(text) || HANDLER_PATH.test(text) || RESPONSE_REF.test(text) ||
    OUTPUT_MARK.test(text);
}
