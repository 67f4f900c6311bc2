/**
 * Panel sizes the user drags: the sidebar's width and the HTTP tab's request/response split.
 * Each is a {@link Splitter}, a WAI-ARIA window splitter (`role="separator"`, focusable, its
 * value in `aria-valuenow`): dragged with the pointer, or moved with the arrow keys (Shift for
 * bigger steps), Home and End. The sizes are drafts like any other ({@link persisted}), so they
 * survive a restart through the workspace's `.dial/ui-state.json`; they hold nothing secret.
 * @module
 */
import type { Signal } from "@preact/signals";
import type { JSX } from "preact";
import { persisted } from "./storage.ts";
import { SIDEBAR_WIDTH } from "../protocol.ts";

export { SIDEBAR_WIDTH };

function inRange(min: number, max: number) {
  return (value: unknown): value is number =>
    typeof value === "number" && Number.isFinite(value) && value >= min && value <= max;
}

/** The request column's share of the HTTP tab when side by side, in percent. */
export const REQUEST_SHARE = { min: 20, max: 80, initial: 45 } as const;

/** The sidebar's width (px). */
export const sidebarWidth = persisted(
  "layout.sidebar",
  SIDEBAR_WIDTH.initial,
  inRange(SIDEBAR_WIDTH.min, SIDEBAR_WIDTH.max),
);
/** The request column's share of the HTTP tab (percent), when request and response sit side by side. */
export const requestShare = persisted(
  "layout.http",
  REQUEST_SHARE.initial,
  inRange(REQUEST_SHARE.min, REQUEST_SHARE.max),
);

/** What a splitter moves. */
export interface SplitterProps {
  /** Its accessible name, e.g. "Resize the sidebar". */
  label: string;
  /** The size it sets. */
  value: Signal<number>;
  min: number;
  max: number;
  /** One arrow key's step (Shift: five of them). */
  step: number;
  /**
   * The size a pointer at `x` (client pixels) asks for, given the container the splitter
   * sizes; the splitter's parent element by default.
   */
  fromPointer: (x: number, container: DOMRect) => number;
  /** The unit read out with the value, e.g. "px" or "%". */
  unit: string;
}

const clamp = (value: number, min: number, max: number) =>
  Math.round(Math.min(max, Math.max(min, value)));

/**
 * A vertical bar between two panels that resizes them (left/right).
 *
 * @param props what it moves
 * @returns the separator
 */
export function Splitter(props: SplitterProps): JSX.Element {
  const { value, min, max, step } = props;
  const set = (next: number) => value.value = clamp(next, min, max);
  const onKeyDown = (event: KeyboardEvent) => {
    const by = event.shiftKey ? step * 5 : step;
    const next = event.key === "ArrowLeft"
      ? value.peek() - by
      : event.key === "ArrowRight"
      ? value.peek() + by
      : event.key === "Home"
      ? min
      : event.key === "End"
      ? max
      : undefined;
    if (next === undefined) return;
    event.preventDefault();
    set(next);
  };
  const onPointerDown = (event: PointerEvent) => {
    if (event.button !== 0) return;
    const bar = event.currentTarget as HTMLElement;
    const container = bar.parentElement!.getBoundingClientRect();
    bar.setPointerCapture(event.pointerId);
    bar.classList.add("dragging");
    const move = (e: PointerEvent) => set(props.fromPointer(e.clientX, container));
    const up = () => {
      bar.classList.remove("dragging");
      bar.removeEventListener("pointermove", move);
      bar.removeEventListener("pointerup", up);
      bar.removeEventListener("pointercancel", up);
    };
    bar.addEventListener("pointermove", move);
    bar.addEventListener("pointerup", up);
    bar.addEventListener("pointercancel", up);
    event.preventDefault();
  };
  return (
    <div
      class="splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label={props.label}
      aria-valuenow={value.value}
      aria-valuemin={min}
      aria-valuemax={max}
      aria-valuetext={`${value.value} ${props.unit}`}
      tabIndex={0}
      title="Drag, or use the arrow keys, to resize"
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
    />
  );
}

/** @returns the splitter at the sidebar's right edge */
export function SidebarSplitter(): JSX.Element {
  return (
    <Splitter
      label="Resize the sidebar"
      value={sidebarWidth}
      min={SIDEBAR_WIDTH.min}
      max={SIDEBAR_WIDTH.max}
      step={16}
      unit="px"
      // From the sidebar's left edge (the splitter's holder has no box of its own).
      fromPointer={(x, container) =>
        x - (document.querySelector("nav.sidebar")?.getBoundingClientRect().left ?? container.left)}
    />
  );
}

/** @returns the splitter between the HTTP request and its response (side by side only) */
export function RequestSplitter(): JSX.Element {
  return (
    <Splitter
      label="Resize the request and response"
      value={requestShare}
      min={REQUEST_SHARE.min}
      max={REQUEST_SHARE.max}
      step={2}
      unit="%"
      fromPointer={(x, container) => ((x - container.left) / container.width) * 100}
    />
  );
}
