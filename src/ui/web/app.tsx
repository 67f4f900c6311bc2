/**
 * The app: tab bar, the shared auth panel, one panel per tab. Each tab is its own module.
 * @module
 */
import type { JSX } from "preact";
import { AuthPanel } from "./auth_panel.tsx";
import { InsecureWarning } from "./workspace/connection.tsx";
import { GraphqlTab } from "./graphql/graphql_tab.tsx";
import { HttpTab, sendHttpRequest } from "./http/http_tab.tsx";
import { QuickOpen, showQuickOpen } from "./workspace/quick_open.tsx";
import { SseTab } from "./sse/sse_tab.tsx";
import { signal } from "@preact/signals";
import { isRecord, postJson } from "./api.ts";
import { clearWorkspaceState } from "./workspace_state.ts";
import { clearDrafts } from "./storage.ts";
import { selectedTab } from "./main_tab.ts";
import { type TabDef, TabList, TabPanels } from "./tabs.tsx";
import { WebSocketTab } from "./ws/ws_tab.tsx";
import { callFromAnywhere, GrpcTab } from "./grpc/grpc_tab.tsx";
import { Sidebar } from "./workspace/sidebar.tsx";
import { workspaceRoot } from "./workspace/files.ts";
import {
  activeTab,
  closeTab,
  cycleTab,
  newTab,
  RequestTabs,
  saveActiveTab,
} from "./workspace/request_tabs.tsx";
import { Shortcuts, shortcuts, showShortcuts } from "./shortcuts.tsx";
import { VariablesLine } from "./workspace/environments.tsx";
import { RequestAuthLine } from "./workspace/request_auth.tsx";
import { RunnerView } from "./workspace/runner.tsx";
import { SidebarSplitter, sidebarWidth } from "./splitter.tsx";
import { saveKindNow, SourceBar } from "./workspace/source_bar.tsx";
import { closeKindTab, cycleKindTab, KindTabs, newKindTab } from "./workspace/kind_tabs.tsx";
import type { StreamKind } from "./workspace/kind_requests.ts";

/**
 * A request kind's panel: its open requests, the file they are saved in and its variables,
 * then the kind's own tab.
 */
function kindPanel(kind: StreamKind, Tab: () => JSX.Element): () => JSX.Element {
  return () => (
    <>
      <KindTabs kind={kind} />
      <SourceBar kind={kind} />
      <VariablesLine kind={kind} />
      <Tab />
    </>
  );
}

const TABS: TabDef[] = [
  {
    id: "http",
    label: "HTTP",
    render: () => (
      <>
        <RunnerView />
        <RequestTabs />
        <VariablesLine />
        <RequestAuthLine />
        <HttpTab />
      </>
    ),
  },
  { id: "graphql", label: "GraphQL", render: kindPanel("graphql", GraphqlTab) },
  { id: "ws", label: "WebSocket", render: kindPanel("ws", WebSocketTab) },
  { id: "sse", label: "SSE", render: kindPanel("sse", SseTab) },
  { id: "grpc", label: "gRPC", render: kindPanel("grpc", GrpcTab) },
];

const selected = selectedTab;

const draftsCleared = signal(false);

/** Opens another tab on a fresh one-time launch link (the page's own link is spent). */
async function openAnotherWindow(): Promise<void> {
  const answer = await postJson("/api/window", {}).catch(() => undefined);
  if (isRecord(answer) && typeof answer.url === "string") {
    globalThis.open(answer.url, "_blank", "noopener,noreferrer");
  }
}

/** @returns the GraphQL, WebSocket, SSE or gRPC tab when one is shown */
function shownKind(): StreamKind | undefined {
  const tab = selected.peek();
  return tab === "graphql" || tab === "ws" || tab === "sse" || tab === "grpc" ? tab : undefined;
}

/** Alt+] and Alt+[: the shown kind's request tabs. */
function cycle(step: number): void {
  const kind = shownKind();
  if (kind) cycleKindTab(kind, step);
  else cycleTab(step);
}

const SHORTCUTS = shortcuts({
  save: () => {
    const kind = shownKind();
    if (kind) void saveKindNow(kind);
    else void saveActiveTab();
  },
  newTab: () => {
    const kind = shownKind();
    if (kind) newKindTab(kind);
    else newTab();
  },
  closeTab: () => {
    const kind = shownKind();
    if (kind) closeKindTab(kind);
    else closeTab(activeTab.peek());
  },
  nextTab: () => cycle(1),
  previousTab: () => cycle(-1),
  focusUrl: () => {
    selected.value = "http";
    document.getElementById("http-url")?.focus();
  },
  quickOpen: () => {
    if (workspaceRoot.peek()) showQuickOpen();
  },
  send: () => {
    if (selected.peek() === "http") void sendHttpRequest();
    if (selected.peek() === "grpc") callFromAnywhere();
  },
});

/** @returns the whole app */
export function App(): JSX.Element {
  return (
    <div class="app">
      <header>
        <h1>dial</h1>
        <TabList tabs={TABS} selected={selected} />
        <button type="button" onClick={showShortcuts} title="Keyboard shortcuts (F1)">
          Shortcuts
        </button>
        <button
          type="button"
          class="new-window"
          title="Open the app in another browser tab (it shares the workspace's drafts and history)"
          onClick={() => void openAnotherWindow()}
        >
          New window
        </button>
        <button
          type="button"
          class="clear-drafts"
          title="Forget the URLs, tables and bodies this app remembers in the browser"
          onClick={() => {
            clearDrafts();
            clearWorkspaceState();
            draftsCleared.value = true;
          }}
        >
          Clear saved drafts
        </button>
        {draftsCleared.value && (
          <span role="status" class="drafts-cleared">
            Saved drafts cleared; nothing more is saved until you reload
          </span>
        )}
      </header>
      <InsecureWarning />
      <AuthPanel />
      <div
        class={workspaceRoot.value ? "body with-sidebar" : "body"}
        style={{ "--sidebar-width": `${sidebarWidth.value}px` }}
      >
        <Sidebar />
        {workspaceRoot.value && (
          // A landmark of its own (all content sits in landmarks); it lays out as if absent.
          <aside class="splitter-holder" aria-label="Sidebar size">
            <SidebarSplitter />
          </aside>
        )}
        <main>
          <TabPanels tabs={TABS} selected={selected} />
        </main>
      </div>
      <Shortcuts list={SHORTCUTS} />
      <QuickOpen />
    </div>
  );
}
