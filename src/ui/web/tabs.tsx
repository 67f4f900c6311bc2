/**
 * The tab bar (ARIA tablist with arrow-key navigation) and its panels.
 * @module
 */
import type { Signal } from "@preact/signals";
import type { ComponentChildren, JSX } from "preact";
import { useRef } from "preact/hooks";

/** One tab. */
export interface TabDef {
  /** Stable id, used in element ids. */
  id: string;
  /** Visible label. */
  label: string;
  /** Renders the panel. */
  render: () => ComponentChildren;
}

/**
 * @param props the tabs and the selected id
 * @returns the tab bar
 */
export function TabList(props: { tabs: TabDef[]; selected: Signal<string> }): JSX.Element {
  const { tabs, selected } = props;
  const select = (index: number) => {
    const tab = tabs[(index + tabs.length) % tabs.length]!;
    selected.value = tab.id;
    document.getElementById(`tab-${tab.id}`)?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const current = tabs.findIndex((t) => t.id === selected.value);
    const moves: Record<string, number> = {
      ArrowRight: current + 1,
      ArrowLeft: current - 1,
      Home: 0,
      End: tabs.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    select(target);
  };
  return (
    <div role="tablist" aria-label="Request kind" class="tablist" onKeyDown={onKeyDown}>
      {tabs.map((tab) => {
        const active = tab.id === selected.value;
        return (
          <button
            key={tab.id}
            type="button"
            role="tab"
            id={`tab-${tab.id}`}
            aria-selected={active}
            aria-controls={`panel-${tab.id}`}
            tabIndex={active ? 0 : -1}
            onClick={() => selected.value = tab.id}
          >
            {tab.label}
          </button>
        );
      })}
    </div>
  );
}

/**
 * @param props the tabs and the selected id
 * @returns every panel; a panel's content is made the first time its tab is selected (the app's
 * first render makes only the one in front), then stays mounted while hidden, keeping its state
 */
export function TabPanels(props: { tabs: TabDef[]; selected: Signal<string> }): JSX.Element {
  const shown = useRef(new Set<string>()).current;
  shown.add(props.selected.value);
  return (
    <>
      {props.tabs.map((tab) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`panel-${tab.id}`}
          aria-labelledby={`tab-${tab.id}`}
          hidden={tab.id !== props.selected.value}
          class="panel"
        >
          {shown.has(tab.id) && tab.render()}
        </div>
      ))}
    </>
  );
}
