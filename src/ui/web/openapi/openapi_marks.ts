/**
 * The response viewer's marks of a Send's OpenAPI violations: each value a violation points at
 * (`/0/name`) highlighted in the body, its message as the mark's title, and "Show" moving the
 * viewer to it. The marks follow the text the viewer shows (pretty or raw).
 * @module
 */
import type { Extension } from "@codemirror/state";
import {
  Decoration,
  type DecorationSet,
  EditorView,
  ViewPlugin,
  type ViewUpdate,
} from "@codemirror/view";
import type { ViolationJson } from "../../openapi_protocol.ts";
import { pointerRange } from "./json_pointer.ts";

/** Bodies longer than this are not marked (the scan, at each piece appended, would hold up the page). */
const MAX_MARKED_CHARS = 1024 * 1024;

/** The viewer the marks are in, for {@link showPointer}. */
let marked: EditorView | undefined;

const made = new WeakMap<readonly ViolationJson[], Extension>();

/**
 * @param violations a Send's violations (those of the response body are marked)
 * @returns the viewer's extension (the same one for the same list)
 */
export function violationMarks(violations: readonly ViolationJson[]): Extension {
  let extension = made.get(violations);
  if (extension) return extension;
  const values = violations.filter((v) => v.body === "response" && v.pointer !== undefined);
  const decorations = (view: EditorView): DecorationSet => {
    if (values.length === 0 || view.state.doc.length > MAX_MARKED_CHARS) return Decoration.none;
    const text = view.state.doc.toString();
    const ranges = values.flatMap((v) => {
      const range = pointerRange(text, v.pointer!);
      if (!range || range.to <= range.from) return [];
      return [
        Decoration.mark({
          class: range.exact ? "cm-openapi-violation" : "cm-openapi-violation missing",
          attributes: { title: v.message, "data-pointer": v.pointer! },
        }).range(range.from, range.to),
      ];
    });
    return Decoration.set(ranges, true);
  };
  extension = ViewPlugin.fromClass(
    class {
      decorations: DecorationSet;
      constructor(readonly view: EditorView) {
        marked = view;
        this.decorations = decorations(view);
      }
      update(update: ViewUpdate) {
        if (update.docChanged) this.decorations = decorations(update.view);
      }
      destroy() {
        if (marked === this.view) marked = undefined;
      }
    },
    { decorations: (plugin) => plugin.decorations },
  );
  made.set(violations, extension);
  return extension;
}

/**
 * Moves the marked viewer to a value and selects it.
 *
 * @param pointer the value's JSON pointer
 */
export function showPointer(pointer: string): void {
  const view = marked;
  if (!view) return;
  const range = pointerRange(view.state.doc.toString(), pointer);
  if (!range) return;
  view.dispatch({
    selection: { anchor: range.from, head: range.to },
    effects: EditorView.scrollIntoView(range.from, { y: "center" }),
  });
  view.focus();
}
