/**
 * A CodeMirror 6 editor bound to a signal, used for request bodies, the GraphQL query,
 * variables and the (read-only) response viewers.
 * @module
 */
import type { Signal } from "@preact/signals";
import { useEffect, useLayoutEffect, useRef } from "preact/hooks";
import type { JSX } from "preact";
import { basicSetup, EditorView } from "codemirror";
import { Compartment, EditorState, type Extension } from "@codemirror/state";
import { keymap, placeholder } from "@codemirror/view";
import { editorTheme } from "./editor_theme.ts";

/** Props of {@link CodeEditor}. */
export interface CodeEditorProps {
  /** The text; edits write back unless read-only. */
  value: Signal<string>;
  /** The accessible name of the editing area. */
  label: string;
  /** Language, linting and completion. */
  extensions?: Extension;
  /** Read-only viewers. */
  readOnly?: boolean;
  /** Extra keys, e.g. Mod-Enter to run. */
  keys?: Array<{ key: string; run: () => boolean }>;
  /** CSS class of the wrapper. */
  class?: string;
  /** Shown while the editor is empty. */
  placeholder?: string;
  /** Receives the view once created (tests, benches, reconfiguration). */
  onView?: (view: EditorView) => void;
}

/**
 * @param props value, label, extensions, read-only, keys
 * @returns the editor's host element
 */
export function CodeEditor(props: CodeEditorProps): JSX.Element {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const dynamic = useRef(new Compartment());
  // Made before the first paint (not after it, as an effect): no empty box is painted, and a
  // viewer's body starts formatting in the task it arrives in.
  useLayoutEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: props.value.peek(),
        extensions: [
          keymap.of((props.keys ?? []).map(({ key, run }) => ({ key, run, preventDefault: true }))),
          basicSetup,
          editorTheme,
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({ "aria-label": props.label }),
          // Read-only viewers stay focusable (Tab reaches them, Ctrl/Cmd+F searches them).
          EditorState.readOnly.of(props.readOnly ?? false),
          dynamic.current.of(props.extensions ?? []),
          props.placeholder ? placeholder(props.placeholder) : [],
          EditorView.updateListener.of((update) => {
            if (update.docChanged && !props.readOnly) {
              props.value.value = update.state.doc.toString();
            }
          }),
        ],
      }),
    });
    view.current = editor;
    props.onView?.(editor);
    const stop = props.value.subscribe((text) => {
      if (text !== editor.state.doc.toString()) {
        editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text } });
      }
    });
    return () => {
      stop();
      editor.destroy();
    };
  }, []);
  useEffect(() => {
    view.current?.dispatch({ effects: dynamic.current.reconfigure(props.extensions ?? []) });
  }, [props.extensions]);
  return <div class={`editor ${props.class ?? ""}`} ref={host} />;
}
