/**
 * Import into the workspace: files dropped on the sidebar, or chosen with Import…, go to the
 * server's importer (`POST /api/workspace/import`, `dial import`'s reader and writer). When the
 * import would change existing files the page asks first, naming them; the report (requests,
 * files written, where the secrets went, what was not carried) stays in the sidebar until
 * dismissed, and the new files appear in the list.
 * @module
 */
import { signal } from "@preact/signals";
import type { JSX } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { ApiError, isRecord, postJson, toApiError } from "../api.ts";
import { listFiles } from "./files.ts";

interface Report {
  format: string;
  requests: number;
  files: string[];
  losses: Array<{ where: string; what: string }>;
  secrets: boolean;
  moved?: string[];
}

const report = signal<Report | undefined>(undefined);
const problem = signal<string | undefined>(undefined);
const dropping = signal(false);

function isReport(value: unknown): value is Report {
  return isRecord(value) && typeof value.format === "string" &&
    typeof value.requests === "number" && Array.isArray(value.files) &&
    Array.isArray(value.losses) && typeof value.secrets === "boolean";
}

/**
 * Imports files into the workspace, asking before anything existing is changed.
 *
 * @param files the dropped or chosen files
 */
export async function importFiles(files: readonly File[]): Promise<void> {
  report.value = undefined;
  problem.value = undefined;
  if (files.length === 0) return;
  try {
    const sources = await Promise.all(
      files.map(async (f) => ({ name: f.name, text: await f.text() })),
    );
    let answer: unknown;
    try {
      answer = await postJson("/api/workspace/import", { sources });
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 409) throw error;
      if (!globalThis.confirm(`${error.message}. Replace?`)) {
        problem.value = `Not imported: ${error.message}`;
        return;
      }
      answer = await postJson("/api/workspace/import", { sources, overwrite: true });
    }
    if (!isReport(answer)) throw new ApiError("Unexpected answer from the dial server", 0);
    report.value = answer;
    await listFiles();
  } catch (error) {
    problem.value = `Not imported: ${toApiError(error).message}`;
  }
}

/** The sidebar's drop target: drag files over it, drop them to import. */
export const dropTarget = {
  onDragOver(event: DragEvent): void {
    if (!event.dataTransfer?.types.includes("Files")) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    dropping.value = true;
  },
  onDragLeave(): void {
    dropping.value = false;
  },
  onDrop(event: DragEvent): void {
    dropping.value = false;
    const files = [...(event.dataTransfer?.files ?? [])];
    if (files.length === 0) return;
    event.preventDefault();
    void importFiles(files);
  },
};

/** Whether files are being dragged over the sidebar. */
export const isDropping = dropping;

/** @returns the Import button, and the last import's report or problem */
export function ImportControls(): JSX.Element {
  return (
    <div class="import">
      <label class="button" title="Postman, Insomnia, OpenAPI, HAR, curl or .http files">
        Import…
        <input
          type="file"
          multiple
          class="sr-only"
          aria-label="Import files"
          accept=".json,.yaml,.yml,.har,.http,.rest,.txt,.sh,.curl"
          onChange={(e) => {
            const input = e.currentTarget;
            void importFiles([...(input.files ?? [])]).finally(() => input.value = "");
          }}
        />
      </label>
      <span class="muted">or drop files here</span>
      {problem.value && <p role="alert" class="error">{problem.value}</p>}
      {report.value && <ImportReport report={report.value} />}
    </div>
  );
}

function ImportReport(props: { report: Report }): JSX.Element {
  const { report: r } = props;
  const section = useRef<HTMLElement>(null);
  // Below a long tree the report would be out of sight: it comes into view when it appears.
  useEffect(() => section.current?.scrollIntoView({ block: "nearest" }), [r]);
  return (
    <section class="import-report" aria-label="Import report" ref={section}>
      <p role="status">
        Imported {r.requests} request{r.requests === 1 ? "" : "s"} from {r.format} into{" "}
        {r.files.join(", ")}
      </p>
      {r.secrets && (
        <p>Secrets are in http-client.private.env.json (0600): keep it out of version control.</p>
      )}
      {(r.moved?.length ?? 0) > 0 && (
        <>
          <p>Moved to http-client.private.env.json ({r.moved!.length}):</p>
          <ul aria-label="Moved secrets">
            {r.moved!.map((line, i) => <li key={i}>{line}</li>)}
          </ul>
        </>
      )}
      {r.losses.length > 0 && (
        <>
          <p>Not carried ({r.losses.length}):</p>
          <ul aria-label="Not carried">
            {r.losses.map((l, i) => <li key={i}>{l.where}: {l.what}</li>)}
          </ul>
        </>
      )}
      <button type="button" onClick={() => report.value = undefined}>Dismiss</button>
    </section>
  );
}
