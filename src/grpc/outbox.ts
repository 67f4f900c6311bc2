/**
 * The requests of a client- or bidi-streaming call given one at a time while the call is open
 * (the UI's gRPC composer), as `dial grpc -d @-` reads them from a terminal: each is checked
 * against the method's input type when it is given, so one that does not fit is refused and the
 * call goes on; {@link GrpcOutbox.end} half-closes (the server sees the end of the requests).
 * @module
 */
import type { JsonValue } from "@bufbuild/protobuf";
import { UsageError } from "../errors/mod.ts";

/** Requests queued for an open call, in order. */
export class GrpcOutbox implements AsyncIterable<JsonValue> {
  #queue: JsonValue[] = [];
  #wake: (() => void) | undefined;
  #check: ((request: JsonValue) => void) | undefined;
  #state: "waiting" | "open" | "ended" | "closed" = "waiting";
  readonly #onOpen: (kind: string) => void;

  /** @param onOpen told once the call has started and takes requests */
  constructor(onOpen: (kind: string) => void) {
    this.#onOpen = onOpen;
  }

  /**
   * The call has started: requests are taken from now on.
   *
   * @param kind the method's kind (`client_streaming`, `bidi_streaming`)
   * @param check throws a {@link UsageError} naming the field of a request that does not fit
   */
  open(kind: string, check: (request: JsonValue) => void): void {
    if (this.#state !== "waiting") return;
    this.#check = check;
    this.#state = "open";
    this.#onOpen(kind);
  }

  /**
   * Queues requests; all are checked before any is queued.
   *
   * @param requests the requests in the JSON form
   * @throws {UsageError} when the call does not take requests (not open, sending ended, call
   *   over) or a request does not fit the input type
   */
  send(requests: readonly JsonValue[]): void {
    if (this.#state === "waiting") throw new UsageError("Cannot send: the call has not started");
    if (this.#state === "ended") throw new UsageError("Cannot send: sending was ended");
    if (this.#state === "closed") throw new UsageError("Cannot send: the call is over");
    for (const request of requests) this.#check!(request);
    this.#queue.push(...requests);
    this.#wakeUp();
  }

  /** Half-closes: the requests queued go out, then the server sees their end. */
  end(): void {
    if (this.#state === "closed") throw new UsageError("Cannot end sending: the call is over");
    this.#state = "ended";
    this.#wakeUp();
  }

  /** The call is over: nothing more is sent or taken. */
  close(): void {
    this.#state = "closed";
    this.#queue = [];
    this.#wakeUp();
  }

  #wakeUp(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<JsonValue> {
    while (true) {
      const next = this.#queue.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.#state === "ended" || this.#state === "closed") return;
      await new Promise<void>((resolve) => this.#wake = resolve);
    }
  }
}
