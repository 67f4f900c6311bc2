/**
 * The browser entry point of `dial ui`: find the session, then show the app (or why not).
 * @module
 */
import { render } from "preact";
import { startSession } from "./api.ts";
import { loadWorkspaceState } from "./workspace_state.ts";
import { listFiles } from "./workspace/files.ts";

const root = document.getElementById("app")!;
const problem = await startSession();
if (problem) {
  render(
    <main class="no-session">
      <h1>dial</h1>
      <p role="alert" class="error">
        {problem.message}
        {problem.hint && <span class="hint">: {problem.hint}</span>}
      </p>
    </main>,
    root,
  );
} else {
  // The file list is asked for at once, beside the drafts: the sidebar shows it in the first
  // render instead of asking after it.
  void listFiles();
  // The workspace's drafts first: the tabs read them as they load.
  await loadWorkspaceState();
  // Loaded after the session: the tabs read drafts and may call the server at once.
  const { App } = await import("./app.tsx");
  render(<App />, root);
}
