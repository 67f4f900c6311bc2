/**
 * Quick-open (Ctrl/Cmd+P or Ctrl/Cmd+K): a search over every request of the workspace by
 * name, method, URL and file; arrow keys move, Enter opens the request in a tab, Escape
 * closes. An ARIA combobox over a listbox.
 * @module
 */
import { signal } from "@preact/signals";
import type { JSX } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { toApiError } from "../api.ts";
import { findRequest, readFile } from "./files.ts";
import { openRequest, tabNote } from "./request_tabs.tsx";
import { findRequests, type IndexedRequest, loadIndex, requestIndex } from "./request_index.ts";
import { Dialog } from "../dialog.tsx";

/** The most results shown. */
const SHOWN = 50;

const open = signal(false);
const query = signal("");
const current = signal(0);

/** Opens quick-open (and refreshes the index behind it). */
export function showQuickOpen(): void {
  query.value = "";
  current.value = 0;
  open.value = true;
  void loadIndex();
}

/**
 * Opens a request of the index in a tab.
 *
 * @param found the request
 * @param options whether it opens as a preview tab
 */
export async function openIndexed(
  found: IndexedRequest,
  options: { preview?: boolean } = {},
): Promise<void> {
  try {
    const file = await readFile(found.path);
    const request = findRequest(file, {
      path: found.path,
      index: found.index,
      ...(found.name !== undefined ? { name: found.name } : {}),
    });
    if (!request) throw new Error(`The request is no longer in ${found.path}`);
    openRequest(file, request, options);
  } catch (error) {
    tabNote.value = toApiError(error).message;
  }
}

/**
 * @param request a request of the index
 * @returns how a result names it
 */
export function requestLabel(request: IndexedRequest): string {
  return `${request.method} ${request.name ?? request.url}`;
}

/** @returns the quick-open dialog, when open */
export function QuickOpen(): JSX.Element | null {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (open.value) input.current?.focus();
  }, [open.value]);
  if (!open.value) return null;
  const results = findRequests(query.value, requestIndex.value, SHOWN);
  const at = Math.min(current.value, Math.max(0, results.length - 1));
  const close = () => open.value = false;
  const choose = (request: IndexedRequest | undefined) => {
    if (!request) return;
    close();
    void openIndexed(request);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      current.value = results.length === 0 ? 0 : (at + step + results.length) % results.length;
    } else if (event.key === "Enter") {
      event.preventDefault();
      choose(results[at]);
    } else if (event.key === "Escape") {
      event.preventDefault();
      close();
    }
  };
  return (
    <Dialog label="Open a request" class="quick-open" onClose={close}>
      <input
        ref={input}
        role="combobox"
        aria-label="Find a request by name, URL or file"
        aria-expanded="true"
        aria-controls="quick-open-results"
        aria-activedescendant={results.length > 0 ? `quick-open-${at}` : undefined}
        placeholder="Request name, URL or file"
        spellcheck={false}
        autocomplete="off"
        value={query.value}
        onInput={(e) => {
          query.value = e.currentTarget.value;
          current.value = 0;
        }}
        onKeyDown={onKeyDown}
      />
      <ul id="quick-open-results" role="listbox" aria-label="Requests">
        {results.map((request, i) => (
          <li
            key={`${request.path}#${request.index}`}
            id={`quick-open-${i}`}
            role="option"
            aria-selected={i === at}
            class={i === at ? "current" : ""}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => choose(request)}
          >
            <span class="method">{request.method}</span> {request.name ?? request.url}
            <span class="muted">
              {" "}
              {request.path}
              {request.name !== undefined ? ` · ${request.url}` : ""}
            </span>
          </li>
        ))}
      </ul>
      <p class="muted" role="status">
        {results.length === 0
          ? "No request matches"
          : `${results.length}${results.length === SHOWN ? "+" : ""} shown`}
      </p>
    </Dialog>
  );
}
