/**
 * The syntax tree of a request file (`.http`, `.rest`): what {@link parseHttpFile} returns,
 * what the runner executes, what the UI edits in place and what import writes. Every node
 * keeps its source span, so a tool can replace one request's text and leave the rest of the
 * file (other requests, comments, blank lines) byte for byte as it was.
 * @module
 */

/** Where a node is in the source: UTF-16 offsets (end exclusive) and 1-based lines. */
export interface Span {
  /** Offset of the first character. */
  start: number;
  /** Offset after the last character (a request's span includes its last line break). */
  end: number;
  /** Line of the first character, from 1. */
  line: number;
  /** Line of the last character, from 1. */
  endLine: number;
}

/** A file variable, `@name = value` (JetBrains in-place variables, REST Client file variables). */
export interface FileVariable {
  /** The name, without `@`. */
  name: string;
  /** The value as written (it may hold `{{…}}`), trimmed. */
  value: string;
  /** The whole line. */
  span: Span;
}

/** httpyac's `@xpath_ns prefix=uri`: a namespace prefix for the file's `?? xpath` lines. */
export interface XPathNamespace {
  /** The prefix the expressions use. */
  prefix: string;
  /** The namespace URI. */
  uri: string;
  /** The whole line. */
  span: Span;
}

/** A per-request directive, `# @name value` or `// @name value`. */
export interface Directive {
  /** The directive's name without `@`, e.g. `no-redirect`. */
  name: string;
  /** The text after the name, trimmed; empty when there is none. */
  value: string;
  /** The whole comment line. */
  span: Span;
}

/** A JavaScript handler: inline between `{%` and `%}`, or a file. */
export type Script =
  | {
    kind: "inline";
    /** The code between `{%` and `%}`. */
    code: string;
    /** The line and column (1-based) of the code's first character, to map errors back. */
    codeLine: number;
    /** See `codeLine`. */
    codeColumn: number;
    /** From `<` or `>` to `%}` (an httpyac block: from `{{` to `}}`). */
    span: Span;
    /**
     * Set for httpyac's `{{ … }}` block (`{{@response`, `{{+after` …): its code runs in the
     * sandbox with httpyac's script globals (the variables, `exports`, `request`, `response`,
     * `test`), not the JetBrains API.
     */
    httpyac?: HttpyacScript;
  }
  | {
    kind: "file";
    /** The path as written, relative to the request file. */
    path: string;
    /** The whole line. */
    span: Span;
  };

/** When an httpyac `{{ … }}` block runs. */
export interface HttpyacScript {
  /**
   * The event after `{{@`/`{{+`: `request` (before sending, with the request built),
   * `response`/`after` (after the response), `streaming` (while the response is read), "" for a
   * plain block (before the request when
   * above its request line, after the response when below it, once per file outside requests).
   */
  event: "" | "request" | "response" | "after" | "streaming";
  /** `{{+…`: for every request of the file. */
  every: boolean;
}

/** One header line (continuation lines folded in). */
export interface HeaderLine {
  /** The field name as written. */
  name: string;
  /** The value as written, trimmed; it may hold `{{…}}`. */
  value: string;
  /** The line(s). */
  span: Span;
}

/** A part of a body: text written in place, or a file included with `< path`. */
export type BodyPart =
  | {
    kind: "text";
    /** The text, lines joined with `\n` (the last part keeps no trailing line break). */
    text: string;
    /** Where it is. */
    span: Span;
  }
  | {
    kind: "file";
    /** The path as written, relative to the request file. */
    path: string;
    /** `<@ path`: substitute `{{…}}` in the file's text (REST Client). */
    substitute: boolean;
    /** `<@latin1 path`: the file's text encoding (REST Client); UTF-8 when absent. */
    encoding?: string;
    /** The `< path` line. */
    span: Span;
  };

/** One request of a file. */
export interface HttpRequest {
  /** Its name: `# @name NAME`, else the text after its `###` separator, if any. */
  name?: string;
  /** 1-based position among the file's requests. */
  index: number;
  /**
   * Its whole text: from its `###` separator (when one precedes it) or its first comment,
   * directive or script line, to the end of its last non-blank line, line break included.
   * File variables and blank lines before it are outside.
   */
  span: Span;
  /** The `###` line that starts it, if any. */
  separator?: Span;
  /** The method as written, upper-case; `GET` when the line has none. */
  method: string;
  /** Whether the request line wrote the method. */
  methodWritten: boolean;
  /** The request target, continuation lines joined (`{{…}}` not yet substituted). */
  url: string;
  /** `HTTP/1.1`, `HTTP/2` …, when written. */
  httpVersion?: string;
  /** The request line and its continuation lines. */
  requestLine: Span;
  /** Comment lines (not directives) above and inside the head, text after `#`/`//` trimmed. */
  comments: string[];
  /** `# @…` directives, in order. */
  directives: Directive[];
  /** `< {% … %}` and `< path.js` before the request line. */
  preScripts: Script[];
  /** Header lines, in order. */
  headers: HeaderLine[];
  /**
   * httpyac's `...NAME` lines among the headers: each names an object (a JavaScript expression,
   * as httpyac evaluates it) whose entries are headers, set over the written ones when sent.
   */
  headerSpreads?: { expression: string; span: Span }[];
  /** The body parts, in order; empty when there is no body. */
  body: BodyPart[];
  /** The body's span (all its parts), when it has one. */
  bodySpan?: Span;
  /** `> {% … %}` and `> path.js` after the body. */
  handlers: Script[];
  /**
   * httpyac's `{{@streaming … }}` blocks: run while the request is sent and its response read;
   * an event stream (SSE) ends when they are done, as httpyac ends it.
   */
  streaming?: Script[];
  /** `<> path` response references (kept, never executed). */
  responseRefs: { path: string; span: Span }[];
  /** `>> path` / `>>! path`: where to save the response body (`!` overwrites). */
  outputs: { path: string; overwrite: boolean; span: Span }[];
  /** `?? …` assertions (httpyac's), in order: each is a test of the request. */
  assertions: Assertion[];
  /** `proto < path` lines above a `GRPC` request: its services come from these files. */
  protos?: ProtoImport[];
  /**
   * httpyac's GraphQL fragments (`fragment NAME on TYPE { … }` blocks of the file) its query
   * spreads (`...NAME`): sent after the query, as httpyac sends them.
   */
  graphqlFragments?: string[];
  /**
   * httpyac's fragment files of the file (`gql NAME < ./parts.gql` above a request): each is read
   * and sent after the query when the query spreads NAME.
   */
  graphqlFragmentFiles?: { name: string; path: string; line: number }[];
  /**
   * httpyac's named region without a request line (`### setup` or `# @name setup` above its
   * `{{ … }}` blocks): its blocks run, in its place in the file or when a request refers to it,
   * and nothing is sent. Such a region is in {@link HttpFile.regions}, never in `requests`; its
   * method and URL are empty, its `index` that of the request below it.
   */
  region?: true;
}

/**
 * httpyac's `proto < ./greeter.proto`, with its `includeDirs: ["./protos"]` option line: a
 * `GRPC` request's services and types read from `.proto` files instead of server reflection.
 * In a block without a request it holds for every `GRPC` request of the file.
 */
export interface ProtoImport {
  /** The `.proto` file as written, relative to the request file. */
  path: string;
  /** `includeDirs`: the folders imports are looked up in, as written, relative to the file. */
  importPaths: string[];
  /** The `proto <` line and its option lines. */
  span: Span;
}

/**
 * An assertion line, `?? SUBJECT [ARGUMENT] OPERATOR [EXPECTED]` (httpyac): `?? status == 200`,
 * `?? header content-type includes json`, `?? body items.length > 0`, and dial's JSONPath form
 * `?? $.items[0].id == 7`.
 */
export interface Assertion {
  /**
   * What is checked: `status`, `header`, `body`, `duration`, `js`, `xpath`, or a JSONPath
   * (the subject starts with `$`, argument and subject are then one expression).
   */
  subject: string;
  /** The text between the subject and the operator (a header name, a body path …), if any. */
  argument?: string;
  /** The operator as written: `==`, `!=`, `<`, `includes`, `exists` … */
  operator: string;
  /** The expected value as written (it may hold `{{…}}`); absent for `exists`, `isTrue` … */
  expected?: string;
  /** The line after `??`, trimmed: the test's name. */
  text: string;
  /** The line. */
  span: Span;
}

/**
 * A JetBrains `run` line: `run #name` runs a request of the same file, `run ./other.http` every
 * request of another file, in place, with `(@var=value, …)` overriding variables for it.
 */
export interface RunLine {
  /** `#name` (a request of this file) or a path relative to this file. */
  target: { kind: "request"; name: string } | { kind: "file"; path: string };
  /** `(@name=value, …)`, in order. */
  variables: { name: string; value: string }[];
  /** How many of the file's requests come before it: it runs after them. */
  after: number;
  /** The line. */
  span: Span;
}

/**
 * JetBrains' `import ./other.http`: the other file's requests can be run by `run #name`; or
 * httpyac's `# @import ./other.http`: its named requests run when this file names them
 * (`# @ref`, `{{name.…}}`), and its variables are this file's (below its own).
 */
export interface ImportLine {
  /** The file, relative to this file (or absolute; httpyac's may hold `{{…}}`). */
  path: string;
  /** httpyac's `# @import`. */
  httpyac?: boolean;
  /** The line. */
  span: Span;
}

/** Something the parser accepted but wants the user to see (an unknown directive). */
export interface ParseWarning {
  /** Sentence case, no trailing period. */
  message: string;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
}

/** A parsed request file. */
export interface HttpFile {
  /** The path given to the parser, for messages. */
  path: string;
  /** The text that was parsed. */
  source: string;
  /** File variables anywhere in the file, in order (later ones win). */
  variables: FileVariable[];
  /**
   * `@xpath_ns prefix=uri` lines anywhere in the file, in order (later ones win): as in httpyac,
   * each applies to every `?? xpath` of the file.
   */
  xpathNamespaces?: XPathNamespace[];
  /** The requests, in file order. */
  requests: HttpRequest[];
  /** `run` lines, in file order (each says after how many requests it runs). */
  runs: RunLine[];
  /** `proto <` lines in blocks without a request: they hold for every `GRPC` request. */
  protos?: ProtoImport[];
  /**
   * httpyac's `{{ … }}` blocks of the file as a whole: those in blocks without a request (run
   * once, before the file's first request) and the `{{+ … }}` ones (before, or with `after`/
   * `response` after, every request), in file order.
   */
  scripts?: (Script & { kind: "inline"; httpyac: HttpyacScript })[];
  /**
   * httpyac's named regions without a request line, in file order: each runs before the request
   * of its `index` when the whole file runs, and when a request refers to it (`# @ref NAME`).
   */
  regions?: HttpRequest[];
  /** `import` lines, in file order: where `run #name` looks after this file's own requests. */
  imports?: ImportLine[];
  /** Unknown directives and other things that were accepted with a doubt. */
  warnings: ParseWarning[];
  /** With `recover`: the syntax errors of the requests that were left out. */
  errors?: ParseWarning[];
}
