/**
 * JSON colours for a body too large to parse whole (the viewer's large responses): the tokens
 * of the lines in view only, found by one pattern per line as the view scrolls, in the colours
 * of the JSON grammar (keys, strings, numbers, literals). CodeMirror's JSON parser would walk
 * the whole document in the background in slices of up to 100 ms; this never looks past the
 * screen.
 * @module
 */
import {
  Decoration,
  type DecorationSet,
  type EditorView,
  MatchDecorator,
  ViewPlugin,
  type ViewUpdate,
} from "@codemirror/view";

const KEY = Decoration.mark({ class: "cm-json-key" });
const STRING = Decoration.mark({ class: "cm-json-string" });
const NUMBER = Decoration.mark({ class: "cm-json-number" });
const LITERAL = Decoration.mark({ class: "cm-json-literal" });

const matcher = new MatchDecorator({
  // A string (a key when a colon follows), a number, or true, false, null.
  regexp:
    /"(?:[^"\\]|\\.)*"(?=\s*:)|("(?:[^"\\]|\\.)*")|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|(true|false|null)\b/g,
  decoration: (match) => match[1] ? STRING : match[2] ? NUMBER : match[3] ? LITERAL : KEY,
});

/** The editor extension: JSON colours of the lines in view. */
export const visibleJsonMarks = ViewPlugin.fromClass(
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
