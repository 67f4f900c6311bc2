/**
 * Per-tab request history: the last 100 requests (what was sent, status, time, size), kept
 * in localStorage under the same rules as drafts: the tabs blank credential-named values with
 * the drafts' helpers (`storage.ts`) before {@link remember}, and the auth panel is never
 * stored. Failures are kept too (with why); a search box filters by URL, status and error. A
 * click restores a request into the tab.
 * @module
 */
import { type Signal, useSignal } from "@preact/signals";
import type { JSX } from "preact";
import { formatSize } from "./api.ts";
import { isSecretName, persisted, type Row } from "./storage.ts";

/** The most entries kept per tab. */
export const HISTORY_LIMIT = 100;

/** One request of the history. */
export interface HistoryEntry {
  /** When it was sent, epoch ms. */
  time: number;
  /** Method and URL, or operation and endpoint. */
  title: string;
  status: number;
  /** How the tab shows a status that is not HTTP's: gRPC's `OK (0)`. */
  statusLabel?: string;
  size: number;
  timeMs: number;
  /** Why it failed, when no response came. */
  error?: string;
  /** What the tab needs to restore the request (never credentials). */
  snapshot: Record<string, unknown>;
}

function isEntries(value: unknown): value is HistoryEntry[] {
  return Array.isArray(value) &&
    value.every((e) =>
      typeof e === "object" && e !== null && typeof e.time === "number" &&
      typeof e.title === "string" && typeof e.status === "number" && typeof e.size === "number" &&
      typeof e.timeMs === "number" && typeof e.snapshot === "object" && e.snapshot !== null &&
      (e.statusLabel === undefined || typeof e.statusLabel === "string")
    );
}

/**
 * @param tab the tab's id
 * @returns the tab's remembered history, newest first
 */
export function tabHistory(tab: string): Signal<HistoryEntry[]> {
  return persisted<HistoryEntry[]>(`history.${tab}`, [], isEntries);
}

/**
 * @param history a tab's history
 * @param entry the request just made
 */
export function remember(history: Signal<HistoryEntry[]>, entry: HistoryEntry): void {
  history.value = [entry, ...history.peek()].slice(0, HISTORY_LIMIT);
}

/**
 * Rows of a restored entry (headers, query parameters, form fields): credential values were
 * blanked when it was stored, so the values the tab holds now for the same names are kept.
 *
 * @param saved the entry's rows
 * @param current the tab's rows now
 * @returns the rows to restore
 */
export function restoreRows(saved: Row[], current: readonly Row[]): Row[] {
  return saved.map((row) => {
    if (row.value !== "" || !isSecretName(row.name)) return row;
    const now = current.find((c) => c.name.toLowerCase() === row.name.toLowerCase());
    return now ? { ...row, value: now.value } : row;
  });
}

/** The status of an answered entry as its tab shows it: `200`, `OK (0)`. */
function statusOf(entry: HistoryEntry): string {
  return entry.statusLabel ?? (entry.status ? String(entry.status) : "—");
}

/**
 * @param props the history and how to restore an entry
 * @returns the collapsible history list
 */
export function HistoryList(
  props: { history: Signal<HistoryEntry[]>; onRestore: (entry: HistoryEntry) => void },
): JSX.Element {
  const query = useSignal("");
  /** Whether the list is open: a closed one draws no entries (a response adds one to it). */
  const open = useSignal(false);
  const all = props.history.value;
  const words = query.value.toLowerCase().split(/\s+/).filter((w) => w !== "");
  const entries = words.length === 0 ? all : all.filter((e) => {
    const text = `${e.title} ${e.error ? `failed ${e.error}` : statusOf(e)}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
  return (
    <details class="history" onToggle={(e) => open.value = e.currentTarget.open}>
      <summary>History ({all.length})</summary>
      {open.value && all.length > 0 && (
        <input
          type="search"
          class="history-search"
          aria-label="Search history"
          autocomplete="off"
          placeholder="Search: URL, status, error"
          value={query.value}
          onInput={(e) => query.value = e.currentTarget.value}
        />
      )}
      <ul aria-label="History">
        {open.value && entries.map((e) => (
          <li key={e.time}>
            <button type="button" onClick={() => props.onRestore(e)}>
              <time>{new Date(e.time).toLocaleTimeString()}</time> {e.title}{" "}
              <span class="muted">
                {e.error
                  ? <span class="error-text">failed: {e.error}</span>
                  : `${statusOf(e)} · ${formatSize(e.size)} · ${Math.round(e.timeMs)} ms`}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {open.value && entries.length > 0 && (
        <button
          type="button"
          onClick={() => props.history.value = []}
        >
          Clear history
        </button>
      )}
    </details>
  );
}
