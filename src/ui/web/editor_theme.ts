/**
 * One look for every CodeMirror editor of the app (request bodies, the GraphQL query and
 * variables, response viewers): syntax colours for every token kind the GraphQL and JSON
 * grammars tag, and the editor's own chrome (gutters, selection, cursor, tooltips, the search
 * panel) drawn from the page's colour variables, so the dark scheme themes editors too.
 *
 * There is exactly one highlight style: CodeMirror's default style is only a fallback, used when
 * no other style is active, so a second partial style would switch every other colour off (which
 * is how GraphQL keywords, type names, comments and literals once lost theirs).
 * @module
 */
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { EditorView } from "@codemirror/view";
import type { Extension } from "@codemirror/state";
import { tags } from "@lezer/highlight";

const STYLE = HighlightStyle.define([
  {
    tag: [tags.keyword, tags.definitionKeyword, tags.operatorKeyword, tags.controlKeyword],
    color: "var(--hl-keyword)",
  },
  // cm6-graphql tags type, fragment and operation names as atoms.
  { tag: [tags.atom, tags.typeName, tags.className], color: "var(--hl-type)" },
  {
    tag: [tags.comment, tags.lineComment, tags.blockComment],
    color: "var(--hl-comment)",
    fontStyle: "italic",
  },
  { tag: [tags.string, tags.special(tags.string)], color: "var(--hl-string)" },
  { tag: [tags.number, tags.integer, tags.float], color: "var(--hl-number)" },
  { tag: [tags.bool, tags.null, tags.special(tags.name)], color: "var(--hl-literal)" },
  { tag: tags.variableName, color: "var(--hl-variable)" },
  { tag: tags.propertyName, color: "var(--hl-field)" },
  { tag: tags.attributeName, color: "var(--hl-argument)" },
  { tag: tags.modifier, color: "var(--hl-directive)" },
  { tag: tags.invalid, color: "var(--bad)" },
]);

const CHROME = EditorView.theme({
  "&": { color: "var(--fg)", backgroundColor: "var(--panel)" },
  ".cm-content": { caretColor: "var(--fg)" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--fg)" },
  ".cm-gutters": {
    backgroundColor: "var(--bg)",
    color: "var(--muted)",
    borderRight: "1px solid var(--line)",
  },
  ".cm-activeLine": { backgroundColor: "var(--active-line)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--active-line)", color: "var(--fg)" },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection":
    { backgroundColor: "var(--selection)" },
  ".cm-placeholder": { color: "var(--muted)" },
  // A large JSON body's tokens in view (json_marks.ts), in the grammar's colours.
  ".cm-json-key": { color: "var(--hl-field)" },
  ".cm-json-string": { color: "var(--hl-string)" },
  ".cm-json-number": { color: "var(--hl-number)" },
  ".cm-json-literal": { color: "var(--hl-literal)" },
  ".cm-matchingBracket, &.cm-focused .cm-matchingBracket": {
    backgroundColor: "var(--selection)",
    color: "inherit",
  },
  ".cm-searchMatch": { backgroundColor: "var(--mark)", outline: "none" },
  ".cm-searchMatch.cm-searchMatch-selected": { backgroundColor: "var(--mark-strong)" },
  ".cm-tooltip": {
    backgroundColor: "var(--panel)",
    color: "var(--fg)",
    border: "1px solid var(--line)",
  },
  ".cm-tooltip-autocomplete > ul > li[aria-selected]": {
    backgroundColor: "var(--accent)",
    color: "var(--on-accent)",
  },
  ".cm-panels": { backgroundColor: "var(--panel)", color: "var(--fg)" },
  ".cm-panels.cm-panels-bottom": { borderTop: "1px solid var(--line)" },
  ".cm-panels.cm-panels-top": { borderBottom: "1px solid var(--line)" },
  ".cm-textfield": {
    backgroundColor: "var(--bg)",
    color: "var(--fg)",
    border: "1px solid var(--line)",
  },
  ".cm-button": {
    backgroundImage: "none",
    backgroundColor: "var(--panel)",
    color: "var(--fg)",
    border: "1px solid var(--line)",
  },
  ".cm-foldPlaceholder": {
    backgroundColor: "var(--bg)",
    color: "var(--muted)",
    border: "1px solid var(--line)",
  },
});

/** The app's editor look: the one highlight style and the themed chrome. */
export const editorTheme: Extension = [CHROME, syntaxHighlighting(STYLE)];
