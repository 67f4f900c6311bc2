/**
 * The SSE tab. Its streams are issue #7; until then the tab says so plainly.
 * @module
 */
import type { JSX } from "preact";

/** @returns the SSE panel */
export function SseTab(): JSX.Element {
  return (
    <section class="placeholder" aria-label="SSE">
      <h2>Server-sent events</h2>
      <p>
        SSE streams in the app are not available yet. From the command line:{" "}
        <code>dial sse https://example.com/events</code>
      </p>
    </section>
  );
}
