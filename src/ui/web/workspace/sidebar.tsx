/**
 * The workspace sidebar: the environment, the filter and the tree of the `dial ui` folder's
 * request files (`file_tree.tsx`), import, cookies and connection settings. Files changed on
 * disk are read again (`files.ts`); "Save as" adds the active tab's request to a file, new or
 * existing.
 * @module
 */
import { Form } from "../fields.tsx";
import { signal } from "@preact/signals";
import type { JSX } from "preact";
import { useEffect } from "preact/hooks";
import { appendRequest } from "../../../files/write_http_file.ts";
import { toApiError } from "../api.ts";
import { currentDraft } from "../http/http_tab.tsx";
import {
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
import { CookieJarView } from "./cookies.tsx";
import { ConnectionView } from "./connection.tsx";
import { openRequest, tabNote } from "./request_tabs.tsx";
import { adoptSource, kindRequestText, noteKind } from "./kind_requests.ts";
import { dropTarget, ImportControls, isDropping } from "./import_drop.tsx";
import { selectedTab } from "../main_tab.ts";
import { loadIndex } from "./request_index.ts";
import { refillShownKindTabs } from "./kind_tabs.tsx";
import { FileTree, treeFilter, unfold } from "./file_tree.tsx";

const saveAsOpen = signal(false);
const saveAsFile = signal("requests.http");
const saveAsName = signal("");

/** "Save as": appends the shown tab's request to a file (created when new). */
async function saveAs(): Promise<void> {
  const path = saveAsFile.peek().trim();
  const name = saveAsName.peek().trim();
  const shown = selectedTab.peek();
  const kind = shown === "graphql" || shown === "ws" || shown === "sse" || shown === "grpc"
    ? shown
    : undefined;
  const say = (text: string) => kind ? noteKind(kind, text) : tabNote.value = text;
  try {
    const text = kind
      ? kindRequestText(kind, path, name || undefined)
      : writeDraft(currentDraft.peek(), name || undefined);
    const exists = workspaceFiles.peek().includes(path);
    const file = exists ? await readFile(path) : undefined;
    const written = await writeFile(
      path,
      file ? appendRequest(file.text, text) : text,
      file?.mtime,
    );
    saveAsOpen.value = false;
    unfold(path);
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

/** @returns the sidebar */
export function Sidebar(): JSX.Element {
  useEffect(() => {
    // The file list is asked for by the page's entry point, at once after the session.
    void watchFiles();
    refillShownKindTabs();
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
      <input
        type="search"
        class="tree-filter"
        aria-label="Filter requests"
        placeholder="Filter requests (Ctrl+P: open)"
        value={treeFilter.value}
        onInput={(e) => {
          treeFilter.value = e.currentTarget.value;
          if (treeFilter.peek() !== "") void loadIndex();
        }}
      />
      <FileTree />
      <button type="button" onClick={() => saveAsOpen.value = !saveAsOpen.value}>
        Save as…
      </button>
      <ImportControls />
      <CookieJarView />
      <ConnectionView />
      {saveAsOpen.value && <SaveAsForm />}
    </nav>
  );
}

/** @returns Save as: the file (a new or an existing one) and the request's name */
function SaveAsForm(): JSX.Element {
  return (
    <Form class="save-as" onSubmit={() => void saveAs()}>
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
    </Form>
  );
}
