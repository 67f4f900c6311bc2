/**
 * The line over the GraphQL, WebSocket and SSE tabs that names the file and request the tab
 * holds, with a Save button (Ctrl/Cmd+S does the same) and what the last save said.
 * @module
 */
import type { JSX } from "preact";
import {
  detachKind,
  kindNotes,
  kindSources,
  noteKind,
  saveKind,
  type StreamKind,
  unsavedKinds,
} from "./kind_requests.ts";

/**
 * Saves the tab's request into its file and says how it went.
 *
 * @param kind the tab
 */
export async function saveKindNow(kind: StreamKind): Promise<void> {
  noteKind(kind, "Saving…");
  noteKind(kind, await saveKind(kind));
}

/**
 * @param props the tab
 * @returns the line (nothing for a tab that holds no file's request and has nothing to say)
 */
export function SourceBar(props: { kind: StreamKind }): JSX.Element | null {
  const place = kindSources.value[props.kind];
  const note = kindNotes.value[props.kind];
  if (!place && !note) return null;
  return (
    <p class="source-bar">
      {place && (
        <>
          <span class="muted">
            {place.path} #{place.index}
            {place.name ? ` (${place.name})` : ""}
            {unsavedKinds.value.has(props.kind) ? " •" : ""}
          </span>{" "}
          <button
            type="button"
            aria-label={`Save to ${place.path}`}
            title="Write this request back into its file (Ctrl/Cmd+S)"
            onClick={() => void saveKindNow(props.kind)}
          >
            Save
          </button>
          <button
            type="button"
            class="icon"
            aria-label={`Detach from ${place.path}`}
            title="Keep the fields here, and stop saving them into the file"
            onClick={() => detachKind(props.kind)}
          >
            ×
          </button>
        </>
      )}
      {note && <span class="note" role="status">{note}</span>}
    </p>
  );
}
