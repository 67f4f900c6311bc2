/**
 * The strip of open request tabs, for the HTTP tab and for the GraphQL, WebSocket, SSE and gRPC
 * tabs alike: an ARIA tab list in one row that scrolls sideways instead of wrapping, one Tab stop
 * (the shown tab), arrow keys, Home and End to move (and show), Delete or a middle click to
 * close, a close button for the shown tab and a new-tab button.
 * @module
 */
import type { JSX } from "preact";
import { useEffect, useRef } from "preact/hooks";

/** One tab as the strip shows it. */
export interface ListedTab {
  id: string;
  title: string;
  /** Whether it has unsaved edits (a `•` after its title). */
  edited: boolean;
  /** A preview tab (its title in italics). */
  preview?: boolean;
  /** The hover text. */
  tooltip?: string;
}

/** The strip's tabs and what its controls do. */
export interface TabListProps {
  /** The list's accessible name ("Open requests"). */
  label: string;
  /** What a new tab is, for the + button ("New request tab"). */
  newLabel: string;
  tabs: readonly ListedTab[];
  /** The shown tab's id. */
  active: string;
  /** A tab list; a toolbar where the page must keep one tab list (the HTTP tab's scratch tabs). */
  role?: "tablist" | "toolbar";
  /** Prefix of the tab buttons' element ids. */
  idPrefix: string;
  select(id: string): void;
  close(id: string): void;
  /** A double click: keeps a preview tab. */
  keep?(id: string): void;
  newTab(): void;
  /** What the last save or reload said, after the buttons. */
  note?: string | undefined;
}

/**
 * @param props the tabs and what the controls do
 * @returns the strip
 */
export function TabList(props: TabListProps): JSX.Element {
  const list = useRef<HTMLDivElement>(null);
  const role = props.role ?? "tablist";
  useEffect(() => {
    list.current?.querySelector<HTMLElement>(`#${CSS.escape(props.idPrefix + props.active)}`)
      ?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [props.active, props.tabs.length]);
  const focusShown = () =>
    requestAnimationFrame(() =>
      list.current?.querySelector<HTMLElement>('[aria-selected="true"], [aria-pressed="true"]')
        ?.focus()
    );
  const onKey = (event: KeyboardEvent) => {
    const { tabs } = props;
    const at = tabs.findIndex((t) => t.id === props.active);
    const go = (index: number) => {
      event.preventDefault();
      props.select(tabs[(index + tabs.length) % tabs.length]!.id);
      focusShown();
    };
    if (event.key === "ArrowRight") go(at + 1);
    else if (event.key === "ArrowLeft") go(at - 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(tabs.length - 1);
    else if (event.key === "Delete") {
      event.preventDefault();
      props.close(props.active);
      focusShown();
    }
  };
  const shown = props.tabs.find((t) => t.id === props.active);
  return (
    <div class="request-tabs">
      <div
        ref={list}
        class="request-tab-list"
        role={role}
        aria-label={props.label}
        onKeyDown={onKey}
      >
        {props.tabs.map((tab) => {
          const selected = tab.id === props.active;
          return (
            <button
              key={tab.id}
              id={`${props.idPrefix}${tab.id}`}
              type="button"
              {...(role === "tablist"
                ? { role: "tab", "aria-selected": selected }
                : { "aria-pressed": selected })}
              tabIndex={selected ? 0 : -1}
              class={`request-tab request-tab-name${selected ? " selected" : ""}${
                tab.preview ? " preview" : ""
              }`}
              {...(tab.tooltip !== undefined ? { title: tab.tooltip } : {})}
              onClick={() => props.select(tab.id)}
              onDblClick={() => props.keep?.(tab.id)}
              onAuxClick={(e) => {
                if (e.button === 1) props.close(tab.id);
              }}
            >
              <span class="request-tab-title">{tab.title}</span>
              {tab.edited ? " •" : ""}
              <span
                class="request-tab-close"
                aria-hidden="true"
                title={`Close ${tab.title} (Delete, Alt+W)`}
                onClick={(e) => {
                  e.stopPropagation();
                  props.close(tab.id);
                }}
              >
                ×
              </span>
            </button>
          );
        })}
      </div>
      <button
        type="button"
        class="icon"
        aria-label={`Close ${shown?.title ?? "the tab"}`}
        title="Close the shown tab (Alt+W)"
        onClick={() => props.close(props.active)}
      >
        ×
      </button>
      <button type="button" class="icon" aria-label={props.newLabel} onClick={props.newTab}>
        +
      </button>
      {props.note && <span class="note" role="status">{props.note}</span>}
    </div>
  );
}
