/**
 * Formatting of WebSocket messages and server-sent events for the terminal and for pipes.
 * @module
 */
import { paint, Style } from "./terminal.ts";

/**
 * @param time milliseconds since the epoch
 * @returns local `HH:MM:SS.mmm`
 */
export function clockTime(time: number): string {
  const d = new Date(time);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${
    String(d.getMilliseconds()).padStart(3, "0")
  }`;
}

/** How binary data is written as text. */
export type BinaryEncoding = "base64" | "hex";

/**
 * @param bytes binary message data
 * @param encoding base64 or hex
 * @returns `base64:…` or `hex:…`, naming the encoding
 */
export function formatBinary(bytes: Uint8Array, encoding: BinaryEncoding): string {
  return encoding === "hex" ? `hex:${bytes.toHex()}` : `base64:${bytes.toBase64()}`;
}

/** One WebSocket message to print. */
export interface MessageLine {
  /** Milliseconds since the epoch. */
  time: number;
  /** Received (in) or sent (out). */
  direction: "in" | "out";
  /** Text, or bytes of a binary message. */
  data: string | Uint8Array;
  /** Sent by the keep-alive timer. */
  keepAlive?: boolean;
}

/**
 * @param message the message
 * @param options interactive (timestamps and arrows), colour, binary encoding
 * @returns the line, ending in a newline
 */
export function formatMessage(
  message: MessageLine,
  options: { interactive: boolean; color: boolean; binary: BinaryEncoding },
): string {
  const text = typeof message.data === "string"
    ? message.data
    : formatBinary(message.data, options.binary);
  if (!options.interactive) return text + "\n";
  const arrow = message.direction === "in"
    ? paint("←", Style.green, options.color)
    : paint("→", Style.blue, options.color);
  const note = message.keepAlive ? paint(" (keep-alive)", Style.gray, options.color) : "";
  return `${paint(clockTime(message.time), Style.gray, options.color)} ${arrow} ${text}${note}\n`;
}

/** A server-sent event to print. */
export interface EventLine {
  /** Milliseconds since the epoch. */
  time: number;
  /** The event type. */
  event: string;
  /** The block's id, if it had one. */
  id?: string;
  /** The data. */
  data: string;
}

/** How `dial sse` prints events. */
export type EventFormat = "data" | "events" | "json";

/**
 * @param event the event
 * @param format data only, an `event:`/`id:`/`data:` block, or one JSON object
 * @param color whether to colour (the `events` format)
 * @returns the text, ending in a newline
 */
export function formatEvent(event: EventLine, format: EventFormat, color: boolean): string {
  if (format === "data") return event.data + "\n";
  if (format === "json") {
    return JSON.stringify({
      event: event.event,
      ...(event.id !== undefined ? { id: event.id } : {}),
      data: event.data,
      time: new Date(event.time).toISOString(),
    }) + "\n";
  }
  const field = (name: string, value: string) => `${paint(name, Style.cyan, color)}: ${value}\n`;
  let text = field("event", event.event);
  if (event.id !== undefined) text += field("id", event.id);
  for (const line of event.data.split("\n")) text += field("data", line);
  return text + "\n";
}
