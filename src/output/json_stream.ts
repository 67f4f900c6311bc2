/**
 * A streaming JSON re-indenter: bytes in, indented (optionally coloured) bytes out, validating
 * the grammar as it goes. It never holds more than one chunk, so a 1 GB response costs no more
 * memory than a 1 kB one, and numbers and strings keep their exact bytes.
 * @see https://www.rfc-editor.org/rfc/rfc8259
 * @module
 */
import { Style } from "./terminal.ts";

/** The body is not JSON; carries what was formatted before the fault. */
export class JsonSyntaxError extends SyntaxError {
  /** Formatted output produced from the current chunk before the fault. */
  readonly partial: Uint8Array;
  /** The rest of the current chunk, from the offending byte on. */
  readonly rest: Uint8Array;

  /**
   * @param message e.g. `unexpected "x" at line 1, column 5`
   * @param partial formatted output before the fault
   * @param rest the unformatted rest of the chunk
   */
  constructor(message: string, partial: Uint8Array, rest: Uint8Array) {
    super(message);
    this.name = "JsonSyntaxError";
    this.partial = partial;
    this.rest = rest;
  }
}

const encoder = new TextEncoder();
const sgr = (style: string) => encoder.encode(`\x1b[${style}m`);
const KEY = sgr(Style.key);
const STRING = sgr(Style.green);
const NUMBER = sgr(Style.cyan);
const BOOL = sgr(Style.yellow);
const NULL = sgr(Style.gray);
const RESET = sgr("0");
const LITERALS = {
  t: encoder.encode("true"),
  f: encoder.encode("false"),
  n: encoder.encode("null"),
};

// Parser states (plain numbers keep the hot loop monomorphic).
const VALUE = 0; // a value must come (start, after ":", after "," in an array)
const VALUE_OR_CLOSE = 1; // after "["
const KEY_OR_CLOSE = 2; // after "{"
const KEY_NEXT = 3; // after "," in an object
const COLON = 4; // after a key
const AFTER = 5; // after a value inside a container
const DONE = 6; // the top-level value is complete
const STRING_BODY = 7;
const STRING_ESCAPE = 8;
const STRING_HEX = 9;
const NUMBER_BODY = 10;
const LITERAL = 11;

// Number sub-states (RFC 8259 section 6).
const N_MINUS = 0;
const N_ZERO = 1;
const N_INT = 2;
const N_DOT = 3;
const N_FRAC = 4;
const N_E = 5;
const N_ESIGN = 6;
const N_EXP = 7;

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/** Options for {@link JsonPrettyPrinter}. */
export interface JsonPrettyPrinterOptions {
  /** Add ANSI colours (keys, strings, numbers, booleans, null). */
  color?: boolean;
  /** Spaces per level. Default 2. */
  indent?: number;
  /** Re-indent (default); false keeps the text's own layout and only colours it. */
  reformat?: boolean;
  /**
   * Show `\uXXXX` escapes of printable characters (surrogate pairs too) as the characters, as
   * HTTPie and jq do; escapes of control characters, `"` and `\` stay escapes. For a person's
   * terminal only: piped output keeps the server's bytes.
   */
  decodeEscapes?: boolean;
  /** Only validate: produce no output (a request body checked while it stays on disk). */
  validateOnly?: boolean;
}

/**
 * Re-indents a JSON byte stream chunk by chunk.
 *
 * @example
 * ```ts
 * const printer = new JsonPrettyPrinter({ color: false });
 * const out = [printer.push(new TextEncoder().encode('{"a":[1,')), printer.push(new TextEncoder().encode("2]}")), printer.end()];
 * ```
 */
export class JsonPrettyPrinter {
  #color: boolean;
  #indent: number;
  #reformat: boolean;
  #decode: boolean;
  #emit: boolean;
  /** The hex digits of the current `\u` escape, as written. */
  #hex: number[] = [];
  /** A decoded high surrogate waiting for its low half, and how it was written. */
  #high: { unit: number; text: number[] } | undefined;
  #buf = new Uint8Array(1 << 16);
  #len = 0;
  #spaces = new Uint8Array(0);
  #state = VALUE;
  /** One entry per open container: true for an object. */
  #stack: boolean[] = [];
  #key = false;
  #hexLeft = 0;
  #number = N_MINUS;
  #literal: Uint8Array = LITERALS.t;
  #literalAt = 0;
  #offset = 0;
  #line = 1;
  #lineStart = 0;

  /** @param options colour and indent width */
  constructor(options: JsonPrettyPrinterOptions = {}) {
    this.#color = options.color ?? false;
    this.#indent = options.indent ?? 2;
    this.#reformat = options.reformat ?? true;
    this.#decode = options.decodeEscapes ?? false;
    this.#emit = !(options.validateOnly ?? false);
  }

  /**
   * Formats the next chunk.
   *
   * @param chunk bytes of the JSON text, split anywhere
   * @returns the formatted bytes for this chunk (a fresh array)
   * @throws {JsonSyntaxError} at the first byte that cannot continue valid JSON
   */
  push(chunk: Uint8Array): Uint8Array {
    const n = chunk.length;
    let i = 0;
    // Each state reads from i and returns where the next read starts (n: the chunk is done).
    while (i < n) {
      switch (this.#state) {
        case STRING_BODY:
          i = this.#stringBody(chunk, i);
          break;
        case NUMBER_BODY:
          i = this.#numberBody(chunk, i);
          break;
        case STRING_ESCAPE:
          i = this.#escapeChar(chunk, i);
          break;
        case STRING_HEX:
          i = this.#hexDigit(chunk, i);
          break;
        case LITERAL:
          i = this.#literalByte(chunk, i);
          break;
        default:
          i = this.#between(chunk, i);
      }
    }
    this.#offset += n;
    return this.#take();
  }

  /** The characters of a string up to its end, an escape or a control character. */
  #stringBody(chunk: Uint8Array, i: number): number {
    const n = chunk.length;
    let j = i;
    let c = 0;
    while (j < n) {
      c = chunk[j]!;
      if (c === 0x22 || c === 0x5c || c < 0x20) break;
      j++;
    }
    if (j > i) this.#flushHigh();
    this.#bytes(chunk, i, j);
    if (j === n) return n;
    if (c === 0x22) {
      this.#flushHigh();
      this.#byte(c);
      if (this.#color) this.#bytes(RESET, 0, RESET.length);
      this.#state = this.#key ? COLON : this.#afterValue();
    } else if (c === 0x5c) {
      // Decoding: the backslash is written once the escape is known.
      if (!this.#decode) this.#byte(c);
      this.#state = STRING_ESCAPE;
    } else {
      this.#fail(chunk, j, "control character in a string");
    }
    return j + 1;
  }

  /** The digits, sign, point and exponent of a number, up to the byte that ends it. */
  #numberBody(chunk: Uint8Array, i: number): number {
    const j = this.#scanNumber(chunk, i);
    this.#bytes(chunk, i, j);
    if (j === chunk.length) return j;
    const n = this.#number;
    if (n === N_ZERO || n === N_INT || n === N_FRAC || n === N_EXP) this.#endNumber();
    else this.#fail(chunk, j);
    return j;
  }

  /** The character after a backslash in a string. */
  #escapeChar(chunk: Uint8Array, i: number): number {
    const c = chunk[i]!;
    if (c === 0x75) {
      this.#state = STRING_HEX;
      this.#hexLeft = 4;
      this.#hex = [];
    } else if (
      c === 0x22 || c === 0x5c || c === 0x2f || c === 0x62 || c === 0x66 || c === 0x6e ||
      c === 0x72 || c === 0x74
    ) {
      this.#state = STRING_BODY;
    } else {
      this.#fail(chunk, i, "invalid escape in a string");
    }
    if (!this.#decode) this.#byte(c);
    else if (c !== 0x75) {
      this.#flushHigh();
      if (c !== 0x2f) this.#byte(0x5c);
      this.#byte(c);
    }
    return i + 1;
  }

  /** One of the four hex digits of a `\u` escape. */
  #hexDigit(chunk: Uint8Array, i: number): number {
    const c = chunk[i]!;
    if (!isHex(c)) this.#fail(chunk, i, "invalid \\u escape in a string");
    if (this.#decode) this.#hex.push(c);
    else this.#byte(c);
    if (--this.#hexLeft === 0) {
      this.#state = STRING_BODY;
      if (this.#decode) this.#unicode(this.#hex);
    }
    return i + 1;
  }

  /** The next letter of `true`, `false` or `null`. */
  #literalByte(chunk: Uint8Array, i: number): number {
    const c = chunk[i]!;
    if (c !== this.#literal[this.#literalAt]) this.#fail(chunk, i);
    this.#byte(c);
    if (++this.#literalAt === this.#literal.length) {
      if (this.#color) this.#bytes(RESET, 0, RESET.length);
      this.#state = this.#afterValue();
    }
    return i + 1;
  }

  /** Whitespace and structure between values (brackets, commas, colons, a value's first byte). */
  #between(chunk: Uint8Array, i: number): number {
    const c = chunk[i]!;
    if (c === 0x20 || c === 0x09 || c === 0x0d) {
      if (!this.#reformat) this.#byte(c);
    } else if (c === 0x0a) {
      if (!this.#reformat) this.#byte(c);
      this.#line++;
      this.#lineStart = this.#offset + i + 1;
    } else {
      this.#structural(chunk, i, c);
    }
    return i + 1;
  }

  /**
   * Ends the input.
   *
   * @returns the last formatted bytes
   * @throws {JsonSyntaxError} when the JSON text is incomplete
   */
  end(): Uint8Array {
    if (this.#state === NUMBER_BODY) {
      const n = this.#number;
      if (n === N_ZERO || n === N_INT || n === N_FRAC || n === N_EXP) this.#endNumber();
    }
    if (this.#state !== DONE) {
      const empty = new Uint8Array(0);
      throw new JsonSyntaxError(
        `unexpected end of data at ${this.#where(this.#offset)}`,
        this.#take(),
        empty,
      );
    }
    return this.#take();
  }

  /** Handles a non-whitespace byte outside strings, numbers and literals. */
  #structural(chunk: Uint8Array, i: number, c: number): void {
    switch (this.#state) {
      case VALUE:
        return this.#startValue(chunk, i, c);
      case VALUE_OR_CLOSE:
        if (c === 0x5d) return this.#close(c, false);
        this.#newline(this.#stack.length);
        return this.#startValue(chunk, i, c);
      case KEY_OR_CLOSE:
        if (c === 0x7d) return this.#close(c, false);
        if (c !== 0x22) return this.#fail(chunk, i, 'expected a quoted key or "}"');
        this.#newline(this.#stack.length);
        return this.#startKey();
      case KEY_NEXT:
        if (c !== 0x22) return this.#fail(chunk, i, "expected a quoted key");
        return this.#startKey();
      case COLON:
        if (c !== 0x3a) return this.#fail(chunk, i, 'expected ":"');
        this.#byte(0x3a);
        if (this.#reformat) this.#byte(0x20);
        this.#state = VALUE;
        return;
      case AFTER: {
        const inObject = this.#stack[this.#stack.length - 1]!;
        if (c === 0x2c) {
          this.#byte(c);
          this.#newline(this.#stack.length);
          this.#state = inObject ? KEY_NEXT : VALUE;
          return;
        }
        if (c === (inObject ? 0x7d : 0x5d)) return this.#close(c, true);
        return this.#fail(chunk, i, inObject ? 'expected "," or "}"' : 'expected "," or "]"');
      }
      default:
        return this.#fail(chunk, i, "more data after the JSON value");
    }
  }

  #startKey(): void {
    if (this.#color) this.#bytes(KEY, 0, KEY.length);
    this.#byte(0x22);
    this.#key = true;
    this.#state = STRING_BODY;
  }

  #startValue(chunk: Uint8Array, i: number, c: number): void {
    if (c === 0x22) {
      if (this.#color) this.#bytes(STRING, 0, STRING.length);
      this.#byte(c);
      this.#key = false;
      this.#state = STRING_BODY;
    } else if (c === 0x7b || c === 0x5b) {
      this.#byte(c);
      this.#stack.push(c === 0x7b);
      this.#state = c === 0x7b ? KEY_OR_CLOSE : VALUE_OR_CLOSE;
    } else if (c === 0x2d || isDigit(c)) {
      if (this.#color) this.#bytes(NUMBER, 0, NUMBER.length);
      this.#byte(c);
      this.#number = c === 0x2d ? N_MINUS : c === 0x30 ? N_ZERO : N_INT;
      this.#state = NUMBER_BODY;
    } else if (c === 0x74 || c === 0x66 || c === 0x6e) {
      const literal = c === 0x74 ? LITERALS.t : c === 0x66 ? LITERALS.f : LITERALS.n;
      if (this.#color) {
        const style = c === 0x6e ? NULL : BOOL;
        this.#bytes(style, 0, style.length);
      }
      this.#byte(c);
      this.#literal = literal;
      this.#literalAt = 1;
      this.#state = LITERAL;
    } else {
      this.#fail(chunk, i, "expected a value");
    }
  }

  #close(c: number, indent: boolean): void {
    this.#stack.pop();
    // An empty container stays on one line: "{}" and "[]".
    if (indent) this.#newline(this.#stack.length);
    this.#byte(c);
    this.#state = this.#afterValue();
  }

  #afterValue(): number {
    return this.#stack.length === 0 ? DONE : AFTER;
  }

  /** @returns the index of the first byte that is not part of the number */
  #scanNumber(chunk: Uint8Array, start: number): number {
    const n = chunk.length;
    let s = this.#number;
    let j = start;
    for (; j < n; j++) {
      const c = chunk[j]!;
      const digit = isDigit(c);
      if (s === N_INT || s === N_FRAC || s === N_EXP) {
        if (digit) continue;
        if (s === N_INT && c === 0x2e) s = N_DOT;
        else if (s !== N_EXP && (c === 0x65 || c === 0x45)) s = N_E;
        else break;
      } else if (s === N_MINUS) {
        if (!digit) break;
        s = c === 0x30 ? N_ZERO : N_INT;
      } else if (s === N_ZERO) {
        if (c === 0x2e) s = N_DOT;
        else if (c === 0x65 || c === 0x45) s = N_E;
        else break;
      } else if (s === N_DOT) {
        if (!digit) break;
        s = N_FRAC;
      } else if (s === N_E) {
        if (c === 0x2b || c === 0x2d) s = N_ESIGN;
        else if (digit) s = N_EXP;
        else break;
      } else {
        if (!digit) break;
        s = N_EXP;
      }
    }
    this.#number = s;
    return j;
  }

  #endNumber(): void {
    if (this.#color) this.#bytes(RESET, 0, RESET.length);
    this.#state = this.#afterValue();
  }

  #fail(chunk: Uint8Array, i: number, expected?: string): never {
    const c = chunk[i]!;
    const shown = c >= 0x20 && c < 0x7f
      ? `"${String.fromCharCode(c)}"`
      : `byte 0x${c.toString(16).padStart(2, "0")}`;
    const where = this.#where(this.#offset + i);
    throw new JsonSyntaxError(
      `unexpected ${shown} at ${where}${expected ? ` (${expected})` : ""}`,
      this.#take(),
      chunk.subarray(i),
    );
  }

  #where(offset: number): string {
    return `line ${this.#line}, column ${offset - this.#lineStart + 1}`;
  }

  /** A complete `\uXXXX` escape while decoding: the character, or the escape as written. */
  #unicode(hex: number[]): void {
    const unit = parseInt(String.fromCharCode(...hex), 16);
    if (unit >= 0xdc00 && unit <= 0xdfff && this.#high) {
      const point = 0x10000 + ((this.#high.unit - 0xd800) << 10) + (unit - 0xdc00);
      this.#high = undefined;
      const bytes = encoder.encode(String.fromCodePoint(point));
      return this.#bytes(bytes, 0, bytes.length);
    }
    this.#flushHigh();
    if (unit >= 0xd800 && unit <= 0xdbff) {
      this.#high = { unit, text: hex };
      return;
    }
    const printable = unit >= 0x20 && unit !== 0x22 && unit !== 0x5c && unit !== 0x7f &&
      !(unit >= 0x80 && unit <= 0x9f) && !(unit >= 0xdc00 && unit <= 0xdfff);
    if (printable) {
      const bytes = encoder.encode(String.fromCharCode(unit));
      return this.#bytes(bytes, 0, bytes.length);
    }
    this.#escape(hex);
  }

  /** Writes a high surrogate that found no low half as the escape it was. */
  #flushHigh(): void {
    if (!this.#high) return;
    const { text } = this.#high;
    this.#high = undefined;
    this.#escape(text);
  }

  #escape(hex: number[]): void {
    this.#byte(0x5c);
    this.#byte(0x75);
    for (const h of hex) this.#byte(h);
  }

  #newline(depth: number): void {
    if (!this.#reformat) return;
    const width = depth * this.#indent;
    if (this.#spaces.length < width) this.#spaces = new Uint8Array(width * 2).fill(0x20);
    this.#byte(0x0a);
    this.#bytes(this.#spaces, 0, width);
  }

  #byte(c: number): void {
    if (!this.#emit) return;
    if (this.#len === this.#buf.length) this.#grow(1);
    this.#buf[this.#len++] = c;
  }

  #bytes(source: Uint8Array, start: number, end: number): void {
    const size = end - start;
    if (size <= 0 || !this.#emit) return;
    if (this.#len + size > this.#buf.length) this.#grow(size);
    const buf = this.#buf;
    let len = this.#len;
    // A short run (most keys, values and indents) is copied byte by byte: a subarray to set
    // from costs more than the copy.
    if (size < 64) {
      for (let i = start; i < end; i++) buf[len++] = source[i]!;
    } else {
      buf.set(source.subarray(start, end), len);
      len += size;
    }
    this.#len = len;
  }

  #grow(extra: number): void {
    const next = new Uint8Array(Math.max(this.#buf.length * 2, this.#len + extra));
    next.set(this.#buf.subarray(0, this.#len));
    this.#buf = next;
  }

  #take(): Uint8Array {
    const out = this.#buf.slice(0, this.#len);
    this.#len = 0;
    // Do not keep a huge buffer alive after one unusual chunk.
    if (this.#buf.length > 1 << 22) this.#buf = new Uint8Array(1 << 16);
    return out;
  }
}
