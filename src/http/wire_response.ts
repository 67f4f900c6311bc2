/**
 * The client's answer as a `Response` that holds the wire response as it came: its header
 * lines and its body source. The runtime's `Headers`, `ReadableStream` and `Response` are
 * loaded on first use (each ~1.2-1.5 ms of start-up): `dial GET` reads the status and a few
 * headers and prints an identity body straight from the connection (`directBody`), so it
 * builds none of them; `text()`, `json()` and `bytes()` of an identity body read it straight
 * into one buffer too. Anything else a caller asks for (`body`, `clone()`, `blob()`…) gets the
 * runtime's own objects, made then.
 * @module
 */
import { directBody, setDirectBody } from "./direct_body.ts";
import type { ResponseBody } from "./h1.ts";

/** An HTTP token: a header name (RFC 9110 §5.6.2). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What a header value cannot hold (the runtime's `Headers` refuses them too). */
const BAD_VALUE = /[\0\r\n]/;

/**
 * Response headers with `Headers`' behaviour (names without case, `get` joins repeated
 * values with `, `, iteration sorted by lower-case name with each `Set-Cookie` on its own),
 * kept as plain lines.
 */
export class WireHeaders implements Headers {
  #lines: Array<[string, string]>;

  /**
   * @param lines header lines as received, values as byte strings
   * @throws {TypeError} for a name that is not a token or a value with NUL, CR or LF
   */
  constructor(lines: Array<[string, string]> = []) {
    // Lines read by index, here and below: until V8 optimises a function, each `[name, value]`
    // destructuring or `for…of` makes an iterator and its result objects (see h1.ts).
    this.#lines = [];
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      check(line[0], line[1]);
      this.#lines.push([line[0].toLowerCase(), trim(line[1])]);
    }
  }

  /** @returns the values of a header joined with `, `, null when absent */
  get(name: string): string | null {
    const key = name.toLowerCase();
    let joined: string | null = null;
    for (let i = 0; i < this.#lines.length; i++) {
      const line = this.#lines[i]!;
      if (line[0] === key) joined = joined === null ? line[1] : `${joined}, ${line[1]}`;
    }
    return joined;
  }

  /** @returns each `Set-Cookie` value */
  getSetCookie(): string[] {
    const values: string[] = [];
    for (let i = 0; i < this.#lines.length; i++) {
      if (this.#lines[i]![0] === "set-cookie") values.push(this.#lines[i]![1]);
    }
    return values;
  }

  /** @returns whether the header is present */
  has(name: string): boolean {
    const key = name.toLowerCase();
    return this.#lines.some((line) => line[0] === key);
  }

  /** Replaces a header's values. */
  set(name: string, value: string): void {
    check(name, value);
    const key = name.toLowerCase();
    const at = this.#lines.findIndex(([n]) => n === key);
    this.#lines = this.#lines.filter(([n], i) => n !== key || i === at);
    if (at >= 0) this.#lines[this.#lines.findIndex(([n]) => n === key)] = [key, trim(value)];
    else this.#lines.push([key, trim(value)]);
  }

  /** Adds a value. */
  append(name: string, value: string): void {
    check(name, value);
    this.#lines.push([name.toLowerCase(), trim(value)]);
  }

  /** Removes a header. */
  delete(name: string): void {
    const key = name.toLowerCase();
    this.#lines = this.#lines.filter(([n]) => n !== key);
  }

  /** Calls `callback(value, name)` in iteration order. */
  forEach(callback: (value: string, name: string, parent: this) => void, self?: unknown): void {
    for (const [name, value] of this) callback.call(self, value, name, this);
  }

  /** @returns `[name, value]` pairs as `Headers` iterates them */
  entries(): IterableIterator<[string, string]> {
    const names: string[] = [];
    for (let i = 0; i < this.#lines.length; i++) {
      const name = this.#lines[i]![0];
      if (!names.includes(name)) names.push(name);
    }
    names.sort();
    const pairs: Array<[string, string]> = [];
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      if (name !== "set-cookie") pairs.push([name, this.get(name)!]);
      else for (const value of this.getSetCookie()) pairs.push([name, value]);
    }
    return pairs.values();
  }

  /** @returns the names as `Headers` iterates them */
  *keys(): IterableIterator<string> {
    for (const [name] of this) yield name;
  }

  /** @returns the values as `Headers` iterates them */
  *values(): IterableIterator<string> {
    for (const [, value] of this) yield value;
  }

  /** @returns {@link entries} */
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  /** `Headers`, for `Object.prototype.toString` and libraries that compare it. */
  get [Symbol.toStringTag](): string {
    return "Headers";
  }
}

function check(name: string, value: string): void {
  if (!TOKEN.test(name)) throw new TypeError(`Invalid header name: ${JSON.stringify(name)}`);
  if (BAD_VALUE.test(value)) throw new TypeError(`Invalid value for header "${name}"`);
}

function trim(value: string): string {
  // Nothing to trim (nearly every value): no new string.
  if (!EDGE_SPACE.test(value)) return value;
  return value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "");
}

const EDGE_SPACE = /^[\t\n\r ]|[\t\n\r ]$/;

/** What {@link DialResponse} is made of. */
export interface DialResponseInit {
  status: number;
  statusText: string;
  headers: WireHeaders;
  url: string;
  /** The body source, or a stream (decoded content), or none. */
  body: ResponseBody | ReadableStream<Uint8Array> | null;
}

/**
 * A `Response` whose headers and body stay as they came until asked for: see the module.
 * Its methods and its `body` are the runtime's, made on first use.
 */
export class DialResponse implements Response {
  readonly status: number;
  readonly statusText: string;
  readonly url: string;
  readonly redirected = false;
  readonly type: ResponseType = "basic";
  #headers: WireHeaders;
  #source: ResponseBody | undefined;
  #stream: ReadableStream<Uint8Array> | null | undefined;
  #real: Response | undefined;
  #taken = false;

  /** @param init status, headers, URL and body */
  constructor(init: DialResponseInit) {
    this.status = init.status;
    this.statusText = init.statusText;
    this.url = init.url;
    this.#headers = init.headers;
    if (init.body === null) this.#stream = null;
    else if ("open" in init.body && typeof init.body.open === "function") {
      this.#source = init.body as ResponseBody;
    } else this.#stream = init.body as ReadableStream<Uint8Array>;
    setDirectBody(
      this,
      init.body === null ? null : () => {
        const read = this.#real || this.#stream !== undefined || this.#taken
          ? undefined
          : this.#source?.read;
        if (read) this.#taken = true;
        return read;
      },
    );
  }

  /** Whether the status is 2xx. */
  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  /** The headers. */
  get headers(): Headers {
    return this.#real?.headers ?? this.#headers;
  }

  /** The body stream (made on first use), null for a response without a body. */
  get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    if (this.#real) return this.#real.body;
    if (this.#stream === undefined) this.#stream = this.#source!.open();
    return this.#stream as ReadableStream<Uint8Array<ArrayBuffer>> | null;
  }

  /** Whether the body was read. */
  get bodyUsed(): boolean {
    return this.#real?.bodyUsed ?? (this.#taken || (this.#stream?.locked ?? false));
  }

  /** The runtime's own Response for the same status, headers and body. */
  #runtime(): Response {
    if (this.#real) return this.#real;
    if (this.#taken) throw new TypeError("Body already consumed");
    const body = this.body;
    this.#real = new Response(body, {
      status: this.status,
      statusText: this.statusText,
      headers: [...this.#headers],
    });
    Object.defineProperty(this.#real, "url", { value: this.url });
    return this.#real;
  }

  /** @returns the body's bytes */
  async arrayBuffer(): Promise<ArrayBuffer> {
    return (await this.bytes()).buffer;
  }

  /** @returns the body as a Blob */
  blob(): Promise<Blob> {
    return this.#runtime().blob();
  }

  /** @returns the body's bytes */
  async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    // An identity body is read straight into one buffer; anything else as the runtime reads it.
    const read = this.#real ? undefined : directBody(this);
    if (!read) return await this.#runtime().bytes();
    // A short body's buffer is its declared length (and a byte for the read that ends it): a
    // 64 KiB buffer per small response was most of a kept-alive request's garbage.
    const declared = Number(this.#headers.get("content-length") ?? NaN);
    let buffer = new Uint8Array(declared >= 0 && declared < 64 * 1024 ? declared + 1 : 64 * 1024);
    let size = 0;
    for (;;) {
      if (size === buffer.length) {
        const grown = new Uint8Array(buffer.length * 2);
        grown.set(buffer);
        buffer = grown;
      }
      const n = await read(buffer.subarray(size));
      if (n === 0) return buffer.slice(0, size);
      size += n;
    }
  }

  /** @returns the body as form data */
  formData(): Promise<FormData> {
    return this.#runtime().formData();
  }

  /** @returns the body parsed as JSON */
  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  /** @returns the body as text */
  async text(): Promise<string> {
    return UTF8.decode(await this.bytes());
  }

  /** @returns the body decoded as UTF-8 text, as a stream */
  textStream(): ReadableStream<string> {
    return this.#runtime().textStream();
  }

  /** @returns a copy (the body teed), as the runtime's `clone()` */
  clone(): Response {
    return this.#runtime().clone();
  }

  /** `Response`, for `Object.prototype.toString` and libraries that compare it (oauth4webapi). */
  get [Symbol.toStringTag](): string {
    return "Response";
  }
}

/** Decodes whole bodies (no `stream` option: no state kept between calls). */
const UTF8 = new TextDecoder();
