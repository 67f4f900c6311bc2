/**
 * A modal dialog over the page (the keyboard shortcuts, quick open): a click outside it closes
 * it, a click inside does not.
 * @module
 */
import type { ComponentChildren, JSX } from "preact";

/**
 * @param props its accessible name, its extra class, how it closes, and its content
 * @returns the overlay and the dialog on it
 */
export function Dialog(props: {
  label: string;
  class?: string;
  onClose: () => void;
  children: ComponentChildren;
}): JSX.Element {
  return (
    <div class="overlay" onClick={props.onClose}>
      <div
        role="dialog"
        aria-modal="true"
        aria-label={props.label}
        class={props.class ? `dialog ${props.class}` : "dialog"}
        onClick={(e) => e.stopPropagation()}
      >
        {props.children}
      </div>
    </div>
  );
}
