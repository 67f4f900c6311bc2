/**
 * A stream tab's log: a virtualized list (only the rows in view are in the DOM, so 100,000
 * entries scroll like 100), a filter, pause autoscroll, clear, and a detail pane with the
 * selected entry pretty-printed and a copy button.
 * @module
 */
import { type Signal, useSignal } from "@preact/signals";
import type { JSX } from "preact";
import { useEffect, useLayoutEffect, useReducer, useRef, useState } from "preact/hooks";
import { formatSize } from "../api.ts";
import { CheckField } from "../fields.tsx";
import { prettyIfJson } from "../response_meta.tsx";
import { hexDump } from "./binary.ts";
import { type LogEntry, LogStore, MAX_ENTRIES, textFilter } from "./log_store.ts";

/** What a stream tab's status says in the states every stream has. */
export const STREAM_STATE_TEXT = {
  disconnected: "Disconnected",
  connecting: "Connecting…",
  open: "Connected",
} as const;

/**
 * @returns a log for a {@link StreamLog}: the appends of one animation frame re-render it once,
 *   at that frame (a burst's bridge frames arrive faster than frames are drawn)
 */
export function pageLog(): LogStore {
  return new LogStore({ frame: (callback) => requestAnimationFrame(callback) });
}

/** Pixels per row; rows never wrap, so positions are arithmetic. */
export const ROW_HEIGHT = 24;
const OVERSCAN = 8;

/** Props of {@link StreamLog}. */
export interface StreamLogProps {
  /** The entries. */
  store: LogStore;
  /** "Messages" or "Events": the list's accessible name. */
  label: string;
  /** Event types seen so far, for the SSE type filter; absent for WebSocket. */
  types?: Signal<string[]>;
}

/**
 * @param props the store, its label and the known event types
 * @returns the toolbar, the list and the detail pane
 */
export function StreamLog(props: StreamLogProps): JSX.Element {
  const { store } = props;
  const filter = useSignal("");
  const type = useSignal("");
  const paused = useSignal(false);
  const selected = useSignal<LogEntry | undefined>(undefined);
  useEffect(() => store.setFilter(textFilter(filter.value, type.value)), [
    filter.value,
    type.value,
  ]);
  store.version.value; // re-render on every change of the store
  const id = props.label.toLowerCase();
  return (
    <section class="stream-log" aria-label={`${props.label} log`}>
      <div class="log-toolbar">
        <div class="field">
          <label for={`${id}-filter`}>Filter {id}</label>
          <input
            id={`${id}-filter`}
            type="search"
            value={filter.value}
            placeholder="text to find"
            onInput={(e) => filter.value = e.currentTarget.value}
          />
        </div>
        {props.types && (
          <div class="field">
            <label for={`${id}-type`}>Event type</label>
            <select
              id={`${id}-type`}
              value={type.value}
              onChange={(e) => type.value = e.currentTarget.value}
            >
              <option value="">All types</option>
              {props.types.value.map((t) => <option key={t} value={t}>{t}</option>)}
            </select>
          </div>
        )}
        <CheckField label="Pause autoscroll" value={paused} />
        <button
          type="button"
          onClick={() => {
            store.clear();
            selected.value = undefined;
          }}
        >
          Clear
        </button>
        <button
          type="button"
          onClick={() => copyText(store.shown().map(entryLine).join("\n"))}
        >
          Copy all
        </button>
        <span class="log-count" data-testid={`${id}-count`}>
          {countText(store)}
        </span>
      </div>
      <VirtualList
        store={store}
        label={props.label}
        paused={paused}
        selected={selected}
        sse={props.types !== undefined}
      />
      {selected.value && <EntryDetail entry={selected.value} />}
    </section>
  );
}

function countText(store: LogStore): string {
  const shown = store.count === store.total
    ? `${store.total.toLocaleString("en")}`
    : `${store.count.toLocaleString("en")} of ${store.total.toLocaleString("en")}`;
  const dropped = store.dropped > 0
    ? ` (oldest ${store.dropped.toLocaleString("en")} dropped: the log keeps ${
      MAX_ENTRIES.toLocaleString("en")
    })`
    : "";
  return `${shown} shown${dropped}`;
}

function VirtualList(props: {
  store: LogStore;
  label: string;
  paused: Signal<boolean>;
  selected: Signal<LogEntry | undefined>;
  sse: boolean;
}): JSX.Element {
  const { store } = props;
  const host = useRef<HTMLDivElement>(null);
  // Where the list is scrolled to, as last seen; a scroll elsewhere re-renders (not the
  // scroll to the end this component made itself: its rows are drawn already).
  const scrolled = useRef(0);
  const [, scrolledElsewhere] = useReducer((n: number) => n + 1, 0);
  const [height, setHeight] = useState(360);
  const version = store.version.value;
  useEffect(() => {
    const element = host.current!;
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  // Following the end: scrolled to the bottom once the new rows are in (not read back and
  // rendered again: the rows at the end are known from the count).
  useLayoutEffect(() => {
    const element = host.current!;
    if (props.paused.value) return;
    element.scrollTop = element.scrollHeight;
    scrolled.current = element.scrollTop;
  }, [version, props.paused.value]);
  const count = store.count;
  // New rows while following: drawn at the end at once; else where the list is scrolled to.
  const drawn = useRef(version);
  const following = !props.paused.value && drawn.current !== version;
  drawn.current = version;
  const top = following ? Math.max(0, count * ROW_HEIGHT - height) : scrolled.current;
  const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(count, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN);
  const rows: JSX.Element[] = [];
  for (let i = first; i < last; i++) {
    const entry = store.at(i)!;
    rows.push(
      <div
        key={i}
        role="listitem"
        aria-posinset={i + 1}
        aria-setsize={count}
        class={`log-row ${entry.kind}${props.selected.value === entry ? " selected" : ""}`}
        style={{ top: `${i * ROW_HEIGHT}px` }}
        tabIndex={-1}
        onClick={() => props.selected.value = entry}
      >
        <time>{clock(entry.time)}</time>
        {props.sse ? <SseCells entry={entry} /> : <WsCells entry={entry} />}
        <span class="data">{preview(entry)}</span>
      </div>,
    );
  }
  return (
    <div
      class="log-list"
      ref={host}
      role="list"
      aria-label={props.label}
      tabIndex={0}
      onScroll={(e) => {
        const at = e.currentTarget.scrollTop;
        if (at === scrolled.current) return;
        scrolled.current = at;
        scrolledElsewhere(undefined);
      }}
      onKeyDown={(e) => {
        const step = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10 }[e.key];
        if (step === undefined || count === 0) return;
        e.preventDefault();
        const current = props.selected.value ? store.indexOf(props.selected.value) : -1;
        const next = Math.min(count - 1, Math.max(0, current < 0 ? count - 1 : current + step));
        props.selected.value = store.at(next);
        const element = e.currentTarget;
        const top = next * ROW_HEIGHT;
        if (top < element.scrollTop) element.scrollTop = top;
        else if (top + ROW_HEIGHT > element.scrollTop + element.clientHeight) {
          element.scrollTop = top + ROW_HEIGHT - element.clientHeight;
        }
      }}
    >
      <div class="log-spacer" style={{ height: `${count * ROW_HEIGHT}px` }}>{rows}</div>
    </div>
  );
}

function WsCells(props: { entry: LogEntry }): JSX.Element {
  const e = props.entry;
  const direction = e.kind === "in" ? "↓ in" : e.kind === "out" ? "↑ out" : e.label;
  return (
    <>
      <span class="dir" title={e.keepAlive ? "keep-alive" : undefined}>
        {direction}
        {e.keepAlive ? " ♥" : ""}
      </span>
      <span class="size">{e.size === undefined ? "" : formatSize(e.size)}</span>
    </>
  );
}

function SseCells(props: { entry: LogEntry }): JSX.Element {
  const e = props.entry;
  return (
    <>
      <span class="type">{e.label}</span>
      <span class="id">{e.id ?? ""}</span>
    </>
  );
}

function EntryDetail(props: { entry: LogEntry }): JSX.Element {
  const e = props.entry;
  const body = payload(e);
  return (
    <section class="log-detail" aria-label="Selected entry">
      <p class="meta">
        <span>{new Date(e.time).toISOString()}</span>
        <span>{e.kind === "event" ? `event: ${e.label}` : e.kind}</span>
        {e.id !== undefined && <span>id: {e.id}</span>}
        {e.size !== undefined && <span>{formatSize(e.size)}</span>}
        {e.binary && <span>binary (hex)</span>}
        <button type="button" onClick={() => copyText(e.binary ? body : e.text)}>Copy</button>
      </p>
      <pre data-testid="entry-detail">{body}</pre>
    </section>
  );
}

/**
 * @param entry a log entry
 * @returns its payload for reading: pretty JSON, a hex dump of binary, or the text
 */
export function payload(entry: LogEntry): string {
  if (entry.binary) return hexDump(Uint8Array.fromBase64(entry.text));
  return entry.kind === "in" || entry.kind === "out" || entry.kind === "event"
    ? prettyIfJson(entry.text)
    : entry.text;
}

function preview(entry: LogEntry): string {
  if (entry.binary) {
    const bytes = Uint8Array.fromBase64(entry.text);
    const hex = hexDump(bytes.subarray(0, 48)).replaceAll("\n", " ");
    return bytes.length > 48 ? `${hex} …` : hex;
  }
  const text = entry.text.length > 400 ? `${entry.text.slice(0, 400)}…` : entry.text;
  return text.replace(/\s*[\r\n]+\s*/g, " ⏎ ");
}

function entryLine(entry: LogEntry): string {
  const what = entry.kind === "event"
    ? `${entry.label}${entry.id ? ` #${entry.id}` : ""}`
    : entry.kind;
  return `${new Date(entry.time).toISOString()}\t${what}\t${entry.text}`;
}

function clock(time: number): string {
  const d = new Date(time);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${
    String(d.getMilliseconds()).padStart(3, "0")
  }`;
}

function copyText(text: string): void {
  navigator.clipboard?.writeText(text).catch(() => {});
}
