/**
 * A text input that marks its `{{variables}}` inline, as the body editor does: each one
 * highlighted, an undefined one marked as an error before sending, and its value and source
 * (which environment, the private file, the file's `@variables`) on hover. The marks are drawn
 * on a copy of the text behind the input (an input cannot style parts of its text); the input
 * stays an ordinary input for typing, labels and tests.
 * @module
 */
import type { JSX } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";
import { type VariableLookup, variableMark, variablesVersion } from "./variable_marks.ts";

const TEMPLATE = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The text in pieces: plain runs and `{{variables}}`. */
function pieces(text: string): { text: string; name?: string }[] {
  const parts: { text: string; name?: string }[] = [];
  let at = 0;
  for (const match of text.matchAll(TEMPLATE)) {
    if (match.index > at) parts.push({ text: text.slice(at, match.index) });
    parts.push({ text: match[0], name: match[1]! });
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at) });
  return parts;
}

/** The input's box and font, copied onto the marks' layer so the two line up. */
const COPIED = [
  "font",
  "letterSpacing",
  "paddingTop",
  "paddingRight",
  "paddingBottom",
  "paddingLeft",
  "borderTopWidth",
  "borderRightWidth",
  "borderBottomWidth",
  "borderLeftWidth",
  "textIndent",
] as const;

/**
 * @param props the input's attributes; `value` is its text
 * @returns the input with its variables marked
 */
export function VariableInput(
  allProps: Omit<JSX.InputHTMLAttributes<HTMLInputElement>, "value"> & {
    value: string;
    /** Where values come from (default: the HTTP tab's request). */
    lookup?: VariableLookup;
  },
): JSX.Element {
  const { lookup, ...props } = allProps;
  const input = useRef<HTMLInputElement>(null);
  const layer = useRef<HTMLSpanElement>(null);
  void variablesVersion.value; // another environment: mark again
  const parts = pieces(props.value);
  const marks = parts.flatMap((p) => p.name === undefined ? [] : [variableMark(p.name, lookup)]);
  const marked = marks.length > 0;
  const invalid = marks.some((m) => m.undefined);
  // Without a pointer on one mark, the title lists them all.
  const title = marks.map((m) => m.title).join("; ");
  const align = () => {
    const from = input.current;
    const to = layer.current;
    // Without marks the layer is not shown: nothing to line up, and no layout asked for.
    if (!from || !to || !marked) return;
    const style = getComputedStyle(from);
    for (const key of COPIED) to.style[key] = style[key];
    to.style.lineHeight = `${
      from.clientHeight - parseFloat(style.paddingTop) -
      parseFloat(style.paddingBottom)
    }px`;
    to.scrollLeft = from.scrollLeft;
  };
  const latest = useRef(align);
  latest.current = align;
  const mounted = useRef(false);
  // A later render (the text changed): line up again before it is painted.
  useLayoutEffect(() => {
    if (mounted.current) align();
  });
  // The first: after the frame's layout, when a ResizeObserver is called (and again whenever the
  // input's size changes), not here: reading the input's style in a layout effect forces a
  // layout of the page before its first frame.
  useLayoutEffect(() => {
    mounted.current = true;
    const observer = new ResizeObserver(() => latest.current());
    if (input.current) observer.observe(input.current);
    return () => observer.disconnect();
  }, []);
  // The hover: the input is on top, so find the mark under the pointer and title the input.
  const hover = (event: MouseEvent) => {
    const from = input.current;
    if (!from || !layer.current) return;
    const under = [...layer.current.querySelectorAll<HTMLElement>("mark")].find((mark) => {
      const r = mark.getBoundingClientRect();
      return event.clientX >= r.left && event.clientX <= r.right;
    });
    from.title = under?.dataset.title ?? title;
  };
  return (
    <span class={`var-input${marked ? " marked" : ""}`}>
      <span class="var-layer" aria-hidden="true" ref={layer}>
        {parts.map((part, i) => {
          if (part.name === undefined) return <span key={i}>{part.text}</span>;
          const mark = variableMark(part.name, lookup);
          return (
            <mark
              key={i}
              class={mark.undefined ? "variable-mark undefined" : "variable-mark"}
              data-title={mark.title}
            >
              {part.text}
            </mark>
          );
        })}
      </span>
      <input
        {...props}
        ref={input}
        title={title || props.title}
        aria-invalid={invalid || undefined}
        onScroll={align}
        onKeyUp={align}
        onMouseMove={hover}
      />
    </span>
  );
}
