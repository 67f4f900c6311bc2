/**
 * The response filter of the HTTP tab: an RFC 9535 JSONPath over the JSON response, its result
 * shown as `dial --filter` prints it (one selected value per line, compact JSON), with the
 * library `--filter` and `??` assertions use; "Add as assertion" adds the `??` line that
 * passes on this response to the request (the tab then has an unsaved edit, Ctrl/Cmd+S writes
 * it into the file). An empty box shows the whole response again.
 * @module
 */
import { type Signal, useComputed, useSignal } from "@preact/signals";
import type { JSX } from "preact";
import type { ViewedBody } from "./response_viewer.tsx";
import { assertionFor, type Filtered, filterJson } from "./filter_assertion.ts";

/**
 * @param props the response's body, the viewer shown when the box is empty, and what adds a
 *   `??` line to the request (none: no "Add as assertion")
 * @returns the filter box above the viewer, or above the filter's result
 */
export function ResponseFilter(
  props: {
    body: Signal<ViewedBody | undefined>;
    viewer: JSX.Element;
    onAssert?: (line: string) => void;
  },
): JSX.Element {
  const expression = useSignal("");
  const added = useSignal<string | undefined>(undefined);
  const filtered = useComputed((): Filtered | undefined => {
    const path = expression.value.trim();
    if (path === "") return undefined;
    const body = props.body.value;
    if (body?.parts && body.text === undefined) {
      return { error: "The response body is still arriving" };
    }
    if (body?.text === undefined) return { error: "The response body is not text" };
    if (body.truncated) {
      return { error: "Only the start of this body is shown: it is too large to filter here" };
    }
    return filterJson(body.text, path);
  });
  const result = filtered.value;
  const values = result && "values" in result ? result.values : undefined;
  const add = props.onAssert;
  return (
    <div class="response-filter">
      <div class="field filter-line">
        <label for="response-filter">Filter (JSONPath)</label>
        <input
          id="response-filter"
          type="search"
          spellcheck={false}
          placeholder="$.items[0].id"
          value={expression.value}
          onInput={(e) => {
            expression.value = e.currentTarget.value;
            added.value = undefined;
          }}
        />
        {add && values && values.length > 0 && assertionFor(expression.value.trim(), values) && (
          <button
            type="button"
            onClick={() => {
              const line = assertionFor(expression.peek().trim(), values)!;
              add(line);
              added.value = `Added "?? ${line}" to the request: Ctrl/Cmd+S saves it in its file`;
            }}
          >
            Add as assertion
          </button>
        )}
      </div>
      {added.value && <p class="note" role="status">{added.value}</p>}
      {result === undefined
        ? props.viewer
        : "error" in result
        ? <p class="error" role="alert">{result.error}</p>
        : result.values.length === 0
        ? <p class="note" role="status">No match</p>
        : (
          <pre class="filter-result" aria-label="Filter result">
            {result.values.map((v) => JSON.stringify(v)).join("\n")}
          </pre>
        )}
    </div>
  );
}
