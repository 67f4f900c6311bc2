/**
 * The WebSocket tab. Its sessions are issue #7; until then the tab says so plainly.
 * @module
 */
import type { JSX } from "preact";

/** @returns the WebSocket panel */
export function WebSocketTab(): JSX.Element {
  return (
    <section class="placeholder" aria-label="WebSocket">
      <h2>WebSocket</h2>
      <p>
        WebSocket sessions in the app are not available yet. From the command line:{" "}
        <code>dial ws wss://example.com/socket</code>
      </p>
    </section>
  );
}
