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
  // The workspace's drafts first (the tabs read them as they load), and its file list beside
  // them: the first render shows the sidebar whole, not a page that shifts when the list comes.
  await Promise.all([loadWorkspaceState(), listFiles()]);
  // Loaded after the session: the tabs read drafts and may call the server at once.
  const { App } = await import("./app.tsx");
  render(<App />, root);
}
