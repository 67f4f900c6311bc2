/**
 * The browser entry point of `dial ui`: take over the session the page's bootstrap started
 * (`boot.ts`), then show the app (or why not). The page may hold the server's picture of the
 * app's first frame (`src/ui/page.ts`): the app replaces it in the task that renders, so no
 * frame shows a mix of the two.
 * @module
 */
import { type ComponentChild, render } from "preact";
import { LAUNCH_PARAM } from "../session_protocol.ts";
import { useSession } from "./api.ts";
import { bootedSession } from "./session_start.ts";
import { loadWorkspaceState } from "./workspace_state.ts";
import { listFiles } from "./workspace/files.ts";

const root = document.getElementById("app")!;

/** Renders into the page in place of the server's shell, keeping the sidebar's scroll. */
function show(app: ComponentChild): void {
  const scrolled = root.querySelector(".sidebar")?.scrollTop ?? 0;
  root.replaceChildren();
  render(app, root);
  const sidebar = root.querySelector(".sidebar");
  if (sidebar && scrolled > 0) sidebar.scrollTop = scrolled;
}

// A launch link opened in a tab already on its address (dial ui started again on the same
// --port) changes only the fragment, which loads nothing: load the page again to trade it.
addEventListener("hashchange", () => {
  if (new URLSearchParams(location.hash.slice(1)).has(LAUNCH_PARAM)) location.reload();
});

const started = await bootedSession();
if ("problem" in started) {
  const { problem } = started;
  show(
    <main class="no-session">
      <h1>dial</h1>
      <p role="alert" class="error">
        {problem.message}
        {problem.hint && <span class="hint">: {problem.hint}</span>}
      </p>
    </main>,
  );
} else {
  useSession(started.session);
  // The workspace's drafts first (the tabs read them as they load), and its file list beside
  // them: the first render shows the sidebar whole, not a page that shifts when the list comes.
  await Promise.all([loadWorkspaceState(), listFiles()]);
  // Loaded after the session: the tabs read drafts and may call the server at once.
  const { App } = await import("./app.tsx");
  show(<App />);
}
