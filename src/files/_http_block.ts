/**
 * One block of a request file being parsed (the lines between two `###` separators): the
 * cursor over its lines, the parts of the request read so far, and how the productions of
 * `_http_productions.ts` hand lines to each other. The driver walks the block through the
 * phases of the grammar (head, request line, headers, body and tail); each phase tries its
 * productions in order on the current line.
 * @module
 */
import type {
  Assertion,
  BodyPart,
  Directive,
  FileVariable,
  HeaderLine,
  HttpFile,
  HttpRequest,
  ImportLine,
  ParseWarning,
  ProtoImport,
  RunLine,
  Script,
  XPathNamespace,
} from "./http_file_types.ts";
import { type Fail, type Line, spanBetween, trimBody } from "./_http_lines.ts";

/** What a block shares with the whole file. */
export interface FileContext {
  /** The file's variables, in order. */
  variables: FileVariable[];
  /** The file's warnings, in order. */
  warnings: ParseWarning[];
  /** The file's `run` lines, in order. */
  runs: RunLine[];
  /** `proto <` lines of blocks without a request (they hold for the whole file). */
  protos: ProtoImport[];
  /**
   * httpyac's GraphQL fragments, in file order (made at the first): written out, or from a file
   * (`gql NAME < ./parts.gql`).
   */
  fragments?: ({ name: string; text: string } | { name: string; path: string; line: number })[];
  /** httpyac's `{{ … }}` blocks of the file as a whole (made at the first). */
  scripts?: HttpFile["scripts"];
  /** httpyac's named regions without a request line, in order (made at the first). */
  regions?: HttpRequest[];
  /** The file's `import` lines, in order (made at the first). */
  imports?: ImportLine[];
  /** The file's `@xpath_ns` lines, in order (made at the first). */
  xpathNamespaces?: XPathNamespace[];
  /** Reports a syntax error; never returns. */
  fail: Fail;
  /** 1-based index the block's request gets. */
  index: number;
}

/** The request line, as its production read it. */
export interface RequestLineParts {
  method: string;
  methodWritten: boolean;
  target: string;
  version: string | undefined;
}

/**
 * A production: reads the current line (and maybe the ones after it) when it is the line kind
 * the production knows, records what it read in the block and advances the cursor.
 *
 * @returns whether the line was its kind (the cursor then moved past what it read)
 */
export type Production = (block: Block) => boolean;

/** The slot of {@link Phase.byLead} for a blank line. */
const BLANK_SLOT = 128;
/** The slot for a line whose first character that is not white space is not ASCII. */
const OTHER_SLOT = 129;
const NONBLANK = /\S/;

/**
 * @param text a line
 * @returns the slot of its lead, the first character that is not white space (`\s`): the
 *   character's code when it is ASCII, else {@link OTHER_SLOT}; {@link BLANK_SLOT} for a blank
 *   line
 */
function leadSlot(text: string): number {
  // An empty line is looked at apart: charCodeAt past the end would undo V8's optimised code.
  if (text.length === 0) return BLANK_SLOT;
  const code = text.charCodeAt(0);
  // Printable ASCII is never white space: most lines end here.
  if (code > 32 && code < 127) return code;
  const at = text.search(NONBLANK);
  if (at < 0) return BLANK_SLOT;
  const lead = text.charCodeAt(at);
  return lead < 128 ? lead : OTHER_SLOT;
}

/**
 * A phase of the grammar: its productions in the order they are tried, and for each lead of a
 * line the productions that may read it, in the same order. A production of a line kind that
 * always starts with one of a few characters (`#`, `@`, `<` …) is not tried on a line that
 * starts otherwise, so a line costs the tests of the few kinds it may be, not of all.
 */
export class Phase {
  /** The productions to try on a line, by {@link leadSlot}. */
  readonly byLead: readonly (readonly Production[])[];

  /**
   * @param productions tried in this order on each line
   * @param starts what a production's line kind starts with: the characters its first character
   *   that is not white space may be, and `"\n"` for a blank line; a production not in the map
   *   reads lines of any start
   */
  constructor(
    readonly productions: readonly Production[],
    starts: ReadonlyMap<Production, string>,
  ) {
    // Most leads need only the productions of any start: one list for them all.
    const any = productions.filter((read) => !starts.has(read));
    const slots: (readonly Production[])[] = new Array(OTHER_SLOT + 1).fill(any);
    for (const read of productions) {
      for (const lead of starts.get(read) ?? "") {
        const slot = lead === "\n" ? BLANK_SLOT : lead.charCodeAt(0);
        if (slots[slot] !== any) continue;
        slots[slot] = productions.filter((other) => starts.get(other)?.includes(lead) ?? true);
      }
    }
    this.byLead = slots;
  }
}

/** The lines of one block, a cursor, and the parts read so far. */
export class Block {
  /** The index of the current line in `lines`. */
  i: number;
  /** Where the request's span starts (its separator, first comment or request line). */
  first: Line | undefined;
  /** The last line that belongs to the request's span. */
  lastContent: Line | undefined;
  /** The request line and its continuations. */
  requestLine: { parts: RequestLineParts; first: Line; last: Line } | undefined;
  readonly comments: string[] = [];
  readonly directives: Directive[] = [];
  readonly preScripts: Script[] = [];
  readonly headers: HeaderLine[] = [];
  /** httpyac's `...NAME` header lines. */
  readonly headerSpreads: NonNullable<HttpRequest["headerSpreads"]> = [];
  readonly body: BodyPart[] = [];
  /** Body text lines not yet joined into a text part. */
  textLines: Line[] = [];
  readonly handlers: Script[] = [];
  /** httpyac's `{{@streaming` blocks. */
  readonly streaming: Script[] = [];
  readonly responseRefs: HttpRequest["responseRefs"] = [];
  readonly outputs: HttpRequest["outputs"] = [];
  readonly assertions: Assertion[] = [];
  /** `proto <` lines of this block. */
  readonly protos: ProtoImport[] = [];
  /** `run` lines of this block. */
  runs = 0;

  /**
   * @param lines the file's lines of this block
   * @param separator the `###` line before them, if any
   * @param file what the block shares with the file
   */
  constructor(
    readonly lines: Line[],
    readonly separator: Line | undefined,
    readonly file: FileContext,
  ) {
    this.i = 0;
    this.first = separator;
  }

  /** @returns the current line (callers check {@link done} first) */
  get line(): Line {
    return this.lines[this.i]!;
  }

  /**
   * Moves past the current line, which a production has read.
   *
   * @returns true, a production's answer that it read the line
   */
  consumed(): true {
    this.i++;
    return true;
  }

  /** @returns whether every line was read */
  get done(): boolean {
    return this.i >= this.lines.length;
  }

  /** @returns whether a handler, response reference or output was read (the tail began) */
  get inTail(): boolean {
    return this.handlers.length > 0 || this.responseRefs.length > 0 || this.outputs.length > 0;
  }

  /** @returns whether nothing but comments, blank lines and file variables came before */
  get detached(): boolean {
    return !this.separator && !this.directives.length && !this.preScripts.length &&
      !this.protos.length;
  }

  /** Joins the pending body text lines into one text part. */
  flushText(): void {
    const lines = this.textLines;
    if (!lines.length) return;
    let text = lines[0]!.text;
    for (let k = 1; k < lines.length; k++) text += `\n${lines[k]!.text}`;
    this.body.push({ kind: "text", text, span: spanBetween(lines[0]!, lines[lines.length - 1]!) });
    this.textLines = [];
  }

  /**
   * Runs a phase's productions on the current line until none of them reads it, or `until` holds.
   *
   * @param phase its productions, tried in order on each line (those its lead allows)
   * @param until ends the phase before a line (left for the next phase)
   */
  phase(phase: Phase, until?: (line: Line, block: Block) => boolean): void {
    read: while (!this.done && !until?.(this.line, this)) {
      const productions = phase.byLead[leadSlot(this.line.text)]!;
      for (let k = 0; k < productions.length; k++) if (productions[k]!(this)) continue read;
      return;
    }
  }

  /** @returns its `# @name`, else the text after its `###` separator, if any */
  get name(): string | undefined {
    let named: string | undefined;
    for (let k = this.directives.length - 1; k >= 0 && named === undefined; k--) {
      if (this.directives[k]!.name === "name") named = this.directives[k]!.value;
    }
    return named || this.separator?.text.slice(3).trim() || undefined;
  }

  /**
   * @param name the region's name
   * @returns httpyac's named region the block is, when it read no request line: its directives
   *   and blocks, nothing to send
   */
  region(name: string): HttpRequest {
    const span = spanBetween(this.first ?? this.lines[0]!, this.lastContent ?? this.lines.at(-1)!);
    const region: HttpRequest = {
      name,
      index: this.file.index,
      span,
      method: "",
      methodWritten: false,
      url: "",
      requestLine: span,
      comments: this.comments,
      directives: this.directives,
      preScripts: this.preScripts,
      headers: [],
      body: [],
      handlers: [],
      responseRefs: [],
      outputs: [],
      assertions: [],
      region: true,
    };
    if (this.separator) region.separator = spanBetween(this.separator, this.separator);
    return region;
  }

  /** @returns the request the block read (call after its last phase) */
  request(): HttpRequest {
    this.flushText();
    trimBody(this.body, this.lines);
    const line = this.requestLine!;
    const { method, methodWritten, target, version } = line.parts;
    const name = this.name;
    const request: HttpRequest = {
      index: this.file.index,
      span: spanBetween(this.first ?? line.first, this.lastContent ?? line.last),
      method,
      methodWritten,
      url: target,
      requestLine: spanBetween(line.first, line.last),
      comments: this.comments,
      directives: this.directives,
      preScripts: this.preScripts,
      headers: this.headers,
      body: this.body,
      handlers: this.handlers,
      responseRefs: this.responseRefs,
      outputs: this.outputs,
      assertions: this.assertions,
    };
    // Assigned, not spread: a 10,000-request file builds no throw-away objects.
    if (name) request.name = name;
    if (this.separator) request.separator = spanBetween(this.separator, this.separator);
    if (version) request.httpVersion = version;
    if (this.protos.length) request.protos = this.protos;
    if (this.headerSpreads.length) request.headerSpreads = this.headerSpreads;
    if (this.streaming.length) request.streaming = this.streaming;
    const body = this.body;
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
}
