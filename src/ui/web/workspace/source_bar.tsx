/**
 * The line over the GraphQL, WebSocket, SSE and gRPC tabs that names the file and request the
 * tab holds, with a Save button (Ctrl/Cmd+S does the same), what the last save said, and a
 * save's conflict with the file (both versions and the choices).
 * @module
 */
import type { JSX } from "preact";
import {
  detachKind,
  kindConflict,
  kindNotes,
  kindSources,
  noteKind,
  saveKind,
  type StreamKind,
  takeTheirsKind,
  unsavedKinds,
} from "./kind_requests.ts";
import { type ConflictChoice, ConflictView } from "./request_tabs.tsx";

/**
 * Saves the tab's request into its file and says how it went.
 *
 * @param kind the tab
 * @param choice the person's choice after a conflict
 */
export async function saveKindNow(kind: StreamKind, choice?: ConflictChoice): Promise<void> {
  noteKind(kind, "Saving…");
  noteKind(kind, await saveKind(kind, choice));
}

/**
 * @param props the tab
 * @returns both versions of its request after a save found it changed on disk, and the choices
 */
function KindConflictView(props: { kind: StreamKind }): JSX.Element | null {
  const conflict = kindConflict.value;
  if (conflict?.kind !== props.kind) return null;
  const { kind } = props;
  return (
    <ConflictView
      path={conflict.path}
      theirs={conflict.theirs}
      mine={conflict.mine}
      overwrite={() => void saveKindNow(kind, "overwrite")}
      keepBoth={() => void saveKindNow(kind, "keep-both")}
      takeTheirs={async () => noteKind(kind, await takeTheirsKind(kind))}
      cancel={() => kindConflict.value = undefined}
    />
  );
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
    <>
      <SourceLine kind={props.kind} />
      <KindConflictView kind={props.kind} />
    </>
  );
}

function SourceLine(props: { kind: StreamKind }): JSX.Element {
  const place = kindSources.value[props.kind];
  const note = kindNotes.value[props.kind];
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
