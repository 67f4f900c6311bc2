/**
 * The one skeleton under every request tab (HTTP, GraphQL, WebSocket, SSE, and any kind added
 * later): what each holds the same way (URL, headers, the auth it sends and the note when it
 * went without, the failure shown, the request or session in flight with its abort, the tab's
 * history) and the parts of the page each shows the same way (the request line, the URL field,
 * the headers table, the notices). A tab adds only what is its own (a body, a query, a
 * composer, a log).
 * @module
 */
import { type Signal, signal } from "@preact/signals";
import type { ComponentChildren, JSX } from "preact";
import type { AuthJson } from "../protocol.ts";
import { AuthSkipped, requestAuth } from "./auth_scope.tsx";
import { Form, RowTable, TextField } from "./fields.tsx";
import { type HistoryEntry, remember, restoreRows, tabHistory } from "./history.tsx";
import {
  fileRequest,
  type RequestExtras,
  requestExtras,
  type RequestKind,
} from "./request_extras.ts";
import {
  isRows,
  isString,
  persisted,
  type Row,
  urlWithoutSecrets,
  withoutSecrets,
} from "./storage.ts";
import { lookupFor } from "./variable_marks.ts";

/**
 * The tabs whose request of a file the server evaluates as `dial run` does before the tab runs
 * it (the HTTP tab's Send runs it whole, `/api/http/file`).
 */
const EVALUATED: readonly RequestKind[] = ["graphql", "ws", "sse", "grpc"];

/** What a tab says went wrong: a message, and a hint when there is one. */
export interface Failure {
  message: string;
  hint?: string | undefined;
}

/** The common part of every request a tab sends: where, with which headers and auth. */
export type TabTarget = RequestExtras & { url: string; headers: Row[]; auth: AuthJson };

/** A history entry being made: it is remembered when the request ends or fails. */
export interface PendingEntry {
  /**
   * @param answer the response's status, size and time; `statusLabel` how the tab shows a status
   *   that is not HTTP's (gRPC's `OK (0)`)
   */
  done(answer: { status: number; statusLabel?: string; size: number; timeMs: number }): void;
  /** @param message why no response came */
  failed(message: string): void;
}

/** The state every request tab holds the same way. */
export interface TabCore {
  readonly kind: RequestKind;
  /** The URL (endpoint), remembered without credentials. */
  readonly url: Signal<string>;
  /** The headers, remembered without credential-named values. */
  readonly headers: Signal<Row[]>;
  /** The origin the last request went to without the auth panel's credentials. */
  readonly authSkipped: Signal<string | undefined>;
  /** What went wrong last, shown until the next try. */
  readonly failure: Signal<Failure | undefined>;
  /** Whether a request or session is in flight. */
  readonly busy: Signal<boolean>;
  /** The tab's history, newest first. */
  readonly history: Signal<HistoryEntry[]>;
  /** @returns the environment, source file, URL, headers and auth of the request now */
  target(): TabTarget;
  /** @returns the controller of a new request; the one in flight is aborted (one at a time) */
  begin(): AbortController;
  /**
   * @param mine the controller {@link begin} gave
   * @returns whether it was still the tab's request (the tab is idle again then)
   */
  end(mine: AbortController): boolean;
  /** Stops the request or session in flight. */
  cancel(): void;
  /**
   * @param title the entry's title from the URL as stored (credentials left out)
   * @param snapshot what the tab needs besides URL and headers to restore it (never secrets)
   * @returns the entry, to be remembered when the request ends
   */
  historyEntry(title: (url: string) => string, snapshot?: Record<string, unknown>): PendingEntry;
  /**
   * Puts a history entry's URL and headers back (credential values the entry left out are kept
   * from the tab when the names match).
   *
   * @param entry the entry
   */
  restore(entry: HistoryEntry): void;
}

/**
 * @param kind the tab's kind (also the history's key)
 * @param keys the storage keys of its URL and headers
 * @returns the tab's state
 */
export function tabCore(kind: RequestKind, keys: { url: string; headers: string }): TabCore {
  const url = persisted(keys.url, "", isString, urlWithoutSecrets);
  const headers = persisted(keys.headers, [], isRows, withoutSecrets);
  const authSkipped = signal<string | undefined>(undefined);
  const busy = signal(false);
  const history = tabHistory(kind);
  let inFlight: AbortController | undefined;
  return {
    kind,
    url,
    headers,
    authSkipped,
    failure: signal<Failure | undefined>(undefined),
    busy,
    history,
    target() {
      const fromFile = EVALUATED.includes(kind) ? fileRequest(kind) : undefined;
      const extras = { ...requestExtras(kind), ...(fromFile ? { fromFile } : {}) };
      const { value: to } = url;
      // A request from a file carries its own Authorization header, not the panel's.
      const auth = requestAuth(extras.file, to, headers.value, authSkipped);
      return { ...extras, url: to, headers: headers.value, auth };
    },
    begin() {
      inFlight?.abort();
      const mine = inFlight = new AbortController();
      busy.value = true;
      return mine;
    },
    end(mine) {
      if (inFlight !== mine) return false;
      inFlight = undefined;
      busy.value = false;
      return true;
    },
    cancel() {
      inFlight?.abort();
    },
    historyEntry(title, snapshot = {}) {
      const time = Date.now();
      const stored = urlWithoutSecrets(url.peek());
      // Stored under the drafts' rules: credential-named values blanked.
      const sent = {
        time,
        title: title(stored),
        snapshot: { url: stored, headers: withoutSecrets(headers.peek()), ...snapshot },
      };
      return {
        done: ({ status, statusLabel, size, timeMs }) =>
          remember(history, {
            ...sent,
            status,
            ...(statusLabel !== undefined ? { statusLabel } : {}),
            size,
            timeMs,
          }),
        failed: (error) =>
          remember(history, { ...sent, status: 0, size: 0, timeMs: Date.now() - time, error }),
      };
    },
    restore(entry) {
      const s = entry.snapshot;
      // Entries of the GraphQL tab from before the skeleton named the URL `endpoint`.
      const to = s.url ?? s.endpoint;
      if (typeof to === "string") url.value = to;
      if (isRows(s.headers)) headers.value = restoreRows(s.headers, headers.peek());
    },
  };
}

/**
 * @param props what to do on submit (Enter in a field, or the submit button) and the line
 * @returns the tab's request line: URL, options and the main button on one row
 */
export function RequestLine(
  props: { onSubmit: () => void; children: ComponentChildren },
): JSX.Element {
  return <Form class="request-line" onSubmit={props.onSubmit}>{props.children}</Form>;
}

/**
 * @param props the tab, the field's label and placeholder, and the HTTP tab's extras
 * @returns the tab's URL field, marking `{{variables}}` of the tab's own request
 */
export function UrlField(props: {
  core: TabCore;
  label: string;
  placeholder: string;
  id?: string;
  onInput?: (text: string) => void;
  onPaste?: (text: string) => boolean;
}): JSX.Element {
  const { core, ...rest } = props;
  return (
    <TextField
      {...rest}
      type="url"
      value={core.url}
      // The HTTP tab's request is the default lookup; the others look in their own files.
      variables={core.kind === "http" ? true : lookupFor(core.kind)}
      class="grow"
    />
  );
}

/**
 * @param props the tab, the section's summary, the table's label, whether it starts open
 * @returns the tab's headers as a folding table
 */
export function HeadersSection(
  props: { core: TabCore; summary: string; label: string; open?: boolean },
): JSX.Element {
  const { core } = props;
  return (
    <details open={props.open ?? core.headers.value.length > 0}>
      <summary>{props.summary}</summary>
      <RowTable
        label={props.label}
        rows={core.headers}
        variables={core.kind === "http" ? true : lookupFor(core.kind)}
      />
    </details>
  );
}

/**
 * @param props the tab
 * @returns the notices of the tab's last try: auth not sent, and what went wrong
 */
export function TabNotices(props: { core: TabCore }): JSX.Element {
  const failure = props.core.failure.value;
  return (
    <>
      <AuthSkipped skipped={props.core.authSkipped} />
      {failure && (
        <p role="alert" class="error">
          {failure.message}
          {failure.hint && <span class="hint">: {failure.hint}</span>}
        </p>
      )}
    </>
  );
}
