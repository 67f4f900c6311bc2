/**
 * `{{variables}}` marked in an editor: each one underlined, with its value and where it comes
 * from on hover, and an undefined one marked as an error, before sending. The lookup is set by
 * the workspace's environments (`workspace/environments.tsx`).
 * @module
 */
import {
  Decoration,
  type EditorView,
  MatchDecorator,
  ViewPlugin,
  type ViewUpdate,
} from "@codemirror/view";
import type { DecorationSet } from "@codemirror/view";
import { signal } from "@preact/signals";

/**
 * What the hover says: a value and its source, or undefined. `shown` stands for a value the
 * page does not have (one set by a script); without either, the value is private.
 */
export type VariableLookup = (
  name: string,
) => { value?: string; from: string; shown?: string } | undefined;

/**
 * @param found a variable the lookup found
 * @returns its value as the page shows it
 */
export function shownValue(found: NonNullable<ReturnType<VariableLookup>>): string {
  return found.value ?? found.shown ?? "(private)";
}

/** Bumped with the lookup: inputs that mark variables render again. */
export const variablesVersion = signal(0);

let lookup: VariableLookup = () => undefined;
/** Bumped when the lookup's answers change (another environment): editors mark again. */
let version = 0;
const CHANGED = "dial-variables-changed";

/** @param fill how a variable's value and source are found */
export function setVariableLookup(fill: VariableLookup): void {
  lookup = fill;
  variablesChanged();
}

/** Tells every editor that values changed (an environment was picked or loaded). */
export function variablesChanged(): void {
  version++;
  variablesVersion.value = version;
  globalThis.dispatchEvent(new Event(CHANGED));
}

/** What a mark of `{{name}}` says. */
export interface VariableMark {
  /** The hover text: value and source, or "is undefined". */
  title: string;
  /** Whether no environment or file defines it (dynamic and request variables count as defined). */
  undefined: boolean;
}

/** How another tab's variables are found (the GraphQL, WebSocket and SSE tabs' own files). */
let kindLookup: (kind: string, name: string) => ReturnType<VariableLookup> = () => undefined;

/** @param fill how a variable of a tab's request is found, by the tab's kind */
export function setKindLookup(fill: (kind: string, name: string) => ReturnType<VariableLookup>) {
  kindLookup = fill;
}

/**
 * @param kind a tab: `graphql`, `ws`, `sse`
 * @returns the lookup of that tab's request (its file's `@variables`, the environment)
 */
export function lookupFor(kind: string): VariableLookup {
  return (name) => kindLookup(kind, name);
}

/**
 * @param name a variable's name, as written between the braces
 * @param look where its value comes from (default: the HTTP tab's request)
 * @returns the hover text and whether it is undefined
 */
export function variableMark(name: string, look: VariableLookup = lookup): VariableMark {
  // Dynamic and request variables ({{$uuid}}, {{login.response…}}) are resolved when sent.
  if (name.startsWith("$") || name.includes(".")) {
    return { title: `${name} is resolved when the request is sent`, undefined: false };
  }
  const found = look(name);
  return found
    ? { title: `${name} = ${shownValue(found)} (${found.from})`, undefined: false }
    : { title: `${name} is undefined`, undefined: true };
}

const matcher = new MatchDecorator({
  regexp: /\{\{\s*([^{}]*?)\s*\}\}/g,
  decoration: (match) => {
    const mark = variableMark(match[1] ?? "");
    return Decoration.mark({
      class: mark.undefined ? "cm-variable cm-variable-undefined" : "cm-variable",
      attributes: { title: mark.title },
    });
  },
});

/** The editor extension. */
export const variableMarks = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    seen = version;
    readonly #refresh: () => void;
    constructor(view: EditorView) {
      this.decorations = matcher.createDeco(view);
      this.#refresh = () => view.dispatch({});
      globalThis.addEventListener(CHANGED, this.#refresh);
    }
    update(update: ViewUpdate) {
      if (this.seen !== version) {
        this.seen = version;
        this.decorations = matcher.createDeco(update.view);
      } else {
        this.decorations = matcher.updateDeco(update, this.decorations);
      }
    }
    destroy() {
      globalThis.removeEventListener(CHANGED, this.#refresh);
    }
  },
  { decorations: (plugin) => plugin.decorations },
);
