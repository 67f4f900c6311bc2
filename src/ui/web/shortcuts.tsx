/**
 * Keyboard shortcuts of the whole app and the overlay that lists them (F1, or ? outside a text
 * field). Browsers keep Ctrl+T, Ctrl+W, Ctrl+Tab and Ctrl+L for themselves, so tab and focus
 * shortcuts use Alt.
 * @module
 */
import { signal } from "@preact/signals";
import type { JSX } from "preact";
import { useEffect } from "preact/hooks";
import { Dialog } from "./dialog.tsx";

/** One shortcut: the keys as shown, what it does, and the handler (none: handled elsewhere). */
export interface Shortcut {
  keys: string;
  action: string;
  /** Whether a keydown is this shortcut. */
  matches?: (event: KeyboardEvent) => boolean;
  run?: () => void;
}

const helpOpen = signal(false);

const mod = (event: KeyboardEvent) => event.ctrlKey || event.metaKey;

/**
 * An Alt shortcut, matched by the key's place on the keyboard (`event.code`): on macOS Alt
 * changes the character (`event.key`), not the key.
 *
 * @param key the key as shown
 * @param code the key's `KeyboardEvent.code`
 * @param action what it does, as shown
 * @param run the handler
 * @returns the shortcut
 */
function alt(key: string, code: string, action: string, run: () => void): Shortcut {
  return { keys: `Alt+${key}`, action, matches: (e) => e.altKey && e.code === code, run };
}

function typing(target: EventTarget | null): boolean {
  return target instanceof HTMLElement &&
    (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
}

/**
 * @param actions what the app's shortcuts do
 * @returns the list, in the order the overlay shows it
 */
export function shortcuts(actions: {
  save: () => void;
  newTab: () => void;
  closeTab: () => void;
  nextTab: () => void;
  previousTab: () => void;
  focusUrl: () => void;
  quickOpen: () => void;
  send: () => void;
}): Shortcut[] {
  return [
    {
      keys: "Ctrl/Cmd+Enter",
      action: "Send the request (from anywhere), run the query or send the message",
      // An editor that handles it (the GraphQL query, a message) has prevented the default.
      matches: (e) => mod(e) && e.key === "Enter" && !e.defaultPrevented,
      run: actions.send,
    },
    {
      keys: "Ctrl/Cmd+P or Ctrl/Cmd+K",
      action: "Find a request by name, URL or file, and open it",
      matches: (e) => mod(e) && !e.altKey && !e.shiftKey && /^[pk]$/i.test(e.key),
      run: actions.quickOpen,
    },
    {
      keys: "Ctrl/Cmd+S",
      action: "Save the request into its .http file",
      matches: (e) => mod(e) && !e.altKey && e.key.toLowerCase() === "s",
      run: actions.save,
    },
    alt("N", "KeyN", "New request tab", actions.newTab),
    alt("W", "KeyW", "Close the shown request tab", actions.closeTab),
    alt("]", "BracketRight", "Next request tab", actions.nextTab),
    alt("[", "BracketLeft", "Previous request tab", actions.previousTab),
    alt("L", "KeyL", "Focus the URL", actions.focusUrl),
    { keys: "Arrow keys", action: "Move in the sidebar's tree and the request tabs" },
    { keys: "Space / Enter", action: "In the tree: preview a request / open it to keep" },
    { keys: "F2 / Delete / Shift+Enter", action: "In the tree: rename, delete, run a file" },
    { keys: "Ctrl/Cmd+F", action: "Search in an editor or a response" },
    { keys: "F1 or ?", action: "Show these shortcuts" },
  ];
}

/**
 * Listens for the shortcuts and renders the overlay when asked.
 *
 * @param props the shortcuts
 * @returns the overlay (or nothing)
 */
export function Shortcuts(props: { list: Shortcut[] }): JSX.Element | null {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && helpOpen.peek()) {
        helpOpen.value = false;
        return;
      }
      if (event.key === "F1" || (event.key === "?" && !typing(event.target))) {
        event.preventDefault();
        helpOpen.value = !helpOpen.peek();
        return;
      }
      const found = props.list.find((s) => s.matches?.(event));
      if (found?.run) {
        event.preventDefault();
        found.run();
      }
    };
    globalThis.addEventListener("keydown", onKey);
    return () => globalThis.removeEventListener("keydown", onKey);
  }, []);
  if (!helpOpen.value) return null;
  return (
    <Dialog label="Keyboard shortcuts" onClose={() => helpOpen.value = false}>
      <h2>Keyboard shortcuts</h2>
      <table>
        <tbody>
          {props.list.map((s) => (
            <tr key={s.keys}>
              <th scope="row">
                <kbd>{s.keys}</kbd>
              </th>
              <td>{s.action}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" onClick={() => helpOpen.value = false}>Close</button>
    </Dialog>
  );
}

/** Opens the overlay (the help button). */
export function showShortcuts(): void {
  helpOpen.value = true;
}
