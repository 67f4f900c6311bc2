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

/** What the hover says: a value and its source, or undefined. */
export type VariableLookup = (name: string) => { value?: string; from: string } | undefined;

let lookup: VariableLookup = () => undefined;

/** @param fill how a variable's value and source are found */
export function setVariableLookup(fill: VariableLookup): void {
  lookup = fill;
}

const matcher = new MatchDecorator({
  regexp: /\{\{\s*([^{}]*?)\s*\}\}/g,
  decoration: (match) => {
    const name = match[1] ?? "";
    // Dynamic and request variables ({{$uuid}}, {{login.response…}}) are resolved when sent.
    if (name.startsWith("$") || name.includes(".")) {
      return Decoration.mark({ class: "cm-variable" });
    }
    const found = lookup(name);
    return Decoration.mark({
      class: found ? "cm-variable" : "cm-variable cm-variable-undefined",
      attributes: {
        title: found
          ? `${name} = ${found.value ?? "(private)"} (${found.from})`
          : `${name} is undefined`,
      },
    });
  },
});

/** The editor extension. */
export const variableMarks = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = matcher.createDeco(view);
    }
    update(update: ViewUpdate) {
      this.decorations = matcher.updateDeco(update, this.decorations);
    }
  },
  { decorations: (plugin) => plugin.decorations },
);
