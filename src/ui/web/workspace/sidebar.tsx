/**
 * The workspace sidebar: the request files of the `dial ui` folder, each unfolding to its
 * requests (parsed by the request files' own parser); a click opens a request in a tab. Files
 * changed on disk are read again (`files.ts`); "Save as" adds the active tab's request to a
 * file, new or existing.
 * @module
 */
import { signal } from "@preact/signals";
import type { JSX } from "preact";
import { useEffect } from "preact/hooks";
import { appendRequest } from "../../../files/write_http_file.ts";
import { postJson, toApiError } from "../api.ts";
import { currentDraft } from "../http/http_tab.tsx";
import {
  listFiles,
  openedFiles,
  readFile,
  watchFiles,
  watching,
  workspaceError,
  workspaceFiles,
  workspaceRoot,
  writeFile,
} from "./files.ts";
import { writeDraft } from "./request_edit.ts";
import { EnvironmentPicker } from "./environments.tsx";
import { runFile } from "./runner.tsx";
import { CookieJarView } from "./cookies.tsx";
import { ConnectionView } from "./connection.tsx";
import { openRequest, renameSource, tabNote } from "./request_tabs.tsx";
import { adoptSource, draftOfKind, noteKind } from "./kind_requests.ts";
import { dropTarget, ImportControls, isDropping } from "./import_drop.tsx";
import { selectedTab } from "../main_tab.ts";

const unfolded = signal<ReadonlySet<string>>(new Set());
const saveAsOpen = signal(false);
const saveAsFile = signal("requests.http");
const saveAsName = signal("");

async function toggle(path: string): Promise<void> {
  const next = new Set(unfolded.peek());
  if (next.has(path)) next.delete(path);
  else {
    next.add(path);
    if (!openedFiles.peek().has(path)) await readFile(path).catch(() => {});
  }
  unfolded.value = next;
}

/** "Save as": appends the shown tab's request to a file (created when new). */
async function saveAs(): Promise<void> {
  const path = saveAsFile.peek().trim();
  const name = saveAsName.peek().trim();
  const shown = selectedTab.peek();
  const kind = shown === "graphql" || shown === "ws" || shown === "sse" ? shown : undefined;
  const say = (text: string) => kind ? noteKind(kind, text) : tabNote.value = text;
  try {
    const text = writeDraft(kind ? draftOfKind(kind) : currentDraft.peek(), name || undefined);
    const exists = workspaceFiles.peek().includes(path);
    const file = exists ? await readFile(path) : undefined;
    const written = await writeFile(
      path,
      file ? appendRequest(file.text, text) : text,
      file?.mtime,
    );
    saveAsOpen.value = false;
    unfolded.value = new Set(unfolded.peek()).add(path);
    if (!("error" in written.parsed)) {
      const added = written.parsed.requests.at(-1);
      if (added && kind) adoptSource(kind, written, added);
      else if (added) openRequest(written, added);
    }
    say(`Saved to ${path}`);
  } catch (error) {
    say(`Not saved: ${toApiError(error).message}`);
  }
}

/** Renames a file (its open tabs follow). */
async function rename(path: string): Promise<void> {
  const to = globalThis.prompt(`Rename ${path} to`, path)?.trim();
  if (!to || to === path) return;
  try {
    await postJson("/api/workspace/rename", { path, to });
    renameSource(path, to);
    await listFiles();
    tabNote.value = `Renamed ${path} to ${to}`;
  } catch (error) {
    tabNote.value = `Not renamed: ${toApiError(error).message}`;
  }
}

/** Deletes a file, after asking. */
async function remove(path: string): Promise<void> {
  if (!globalThis.confirm(`Delete ${path}?`)) return;
  try {
    await postJson("/api/workspace/delete", { path });
    await listFiles();
    tabNote.value = `Deleted ${path}`;
  } catch (error) {
    tabNote.value = `Not deleted: ${toApiError(error).message}`;
  }
}

/** @returns the sidebar */
export function Sidebar(): JSX.Element {
  useEffect(() => {
    void listFiles();
    void watchFiles();
  }, []);
  return (
    <nav
      class={isDropping.value ? "sidebar dropping" : "sidebar"}
      aria-label="Workspace"
      hidden={!workspaceRoot.value}
      data-watching={watching.value}
      {...dropTarget}
    >
      <h2 title={workspaceRoot.value}>Workspace</h2>
      <EnvironmentPicker />
      {workspaceError.value && workspaceRoot.value && <p class="error">{workspaceError.value}</p>}
      {workspaceFiles.value.length === 0 && !workspaceError.value && (
        <p class="muted">No .http files in this folder yet: use Save as.</p>
      )}
      <ul role="tree" aria-label="Request files">
        {workspaceFiles.value.map((path) => {
          const open = unfolded.value.has(path);
          const file = openedFiles.value.get(path);
          return (
            <li key={path} role="treeitem" aria-expanded={open}>
              <span class="file-row">
                <button type="button" class="file" onClick={() => void toggle(path)}>
                  <span aria-hidden="true">{open ? "▾ " : "▸ "}</span>
                  {path}
                </button>
                <button
                  type="button"
                  class="icon"
                  aria-label={`Run ${path}`}
                  title="Run its requests in order, with their tests"
                  onClick={() => void runFile(path)}
                >
                  ▶
                </button>
                <button
                  type="button"
                  class="icon"
                  aria-label={`Rename ${path}`}
                  title="Rename the file"
                  onClick={() => void rename(path)}
                >
                  ✎
                </button>
                <button
                  type="button"
                  class="icon"
                  aria-label={`Delete ${path}`}
                  title="Delete the file"
                  onClick={() => void remove(path)}
                >
                  ✕
                </button>
              </span>
              {open && file && "error" in file.parsed && <p class="error">{file.parsed.error}</p>}
              {open && file && !("error" in file.parsed) && (
                <ul role="group">
                  {file.parsed.requests.map((request) => (
                    <li key={request.index} role="treeitem">
                      <button
                        type="button"
                        class="request"
                        onClick={() => openRequest(file, request)}
                      >
                        <span class="method">{request.method}</span> {request.name ?? request.url}
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
      <button type="button" onClick={() => saveAsOpen.value = !saveAsOpen.value}>
        Save as…
      </button>
      <ImportControls />
      <CookieJarView />
      <ConnectionView />
      {saveAsOpen.value && (
        <form
          class="save-as"
          autocomplete="off"
          onSubmit={(e) => {
            e.preventDefault();
            void saveAs();
          }}
        >
          <label>
            File
            <input
              value={saveAsFile.value}
              list="workspace-files"
              onInput={(e) => saveAsFile.value = e.currentTarget.value}
            />
          </label>
          <datalist id="workspace-files">
            {workspaceFiles.value.map((p) => <option key={p} value={p} />)}
          </datalist>
          <label>
            Request name
            <input
              value={saveAsName.value}
              onInput={(e) => saveAsName.value = e.currentTarget.value}
            />
          </label>
          <button type="submit" class="primary">Save</button>
        </form>
      )}
    </nav>
  );
}
