/**
 * Every request of the workspace, by file (`POST /api/workspace/index`), and how a query
 * matches them: for quick-open (Ctrl/Cmd+P, Ctrl/Cmd+K) and the sidebar's filter. Matching is
 * plain and fast (1,000 requests in well under a millisecond): every word of the query must
 * appear in the request's name, method, URL or file; a match in the name ranks first.
 * @module
 */
import { signal } from "@preact/signals";
import { isRecord, postJson } from "../api.ts";

/** One request of the index. */
export interface IndexedRequest {
  path: string;
  index: number;
  name?: string;
  method: string;
  url: string;
  /** Lower-cased text matched against. */
  haystack: string;
}

/** The index, once loaded. */
export const requestIndex = signal<IndexedRequest[]>([]);

let loading: Promise<void> | undefined;

/**
 * Loads the index again (the server parses only the files that changed).
 *
 * @returns when loaded (a failure leaves the last one)
 */
export function loadIndex(): Promise<void> {
  return loading ??= (async () => {
    try {
      const answer = await postJson("/api/workspace/index", {});
      if (!isRecord(answer) || !Array.isArray(answer.files)) return;
      const list: IndexedRequest[] = [];
      for (const file of answer.files) {
        if (!isRecord(file) || typeof file.path !== "string" || !Array.isArray(file.requests)) {
          continue;
        }
        for (const r of file.requests) {
          if (!isRecord(r) || typeof r.index !== "number") continue;
          const name = typeof r.name === "string" ? r.name : undefined;
          const method = String(r.method ?? "");
          const url = String(r.url ?? "");
          list.push({
            path: file.path,
            index: r.index,
            ...(name !== undefined ? { name } : {}),
            method,
            url,
            haystack: `${name ?? ""}\n${method} ${url}\n${file.path}`.toLowerCase(),
          });
        }
      }
      requestIndex.value = list;
    } catch {
      // no workspace: nothing to find
    } finally {
      loading = undefined;
    }
  })();
}

/**
 * @param query what was typed
 * @param all the index
 * @param limit the most results
 * @returns the matching requests, best first (all, in order, for an empty query)
 */
export function findRequests(
  query: string,
  all: readonly IndexedRequest[],
  limit = Infinity,
): IndexedRequest[] {
  const words = query.toLowerCase().split(/\s+/).filter((w) => w !== "");
  if (words.length === 0) return all.slice(0, limit);
  const scored: Array<[number, number, IndexedRequest]> = [];
  for (const [i, request] of all.entries()) {
    if (!words.every((w) => request.haystack.includes(w))) continue;
    const name = (request.name ?? "").toLowerCase();
    const first = words[0]!;
    const score = name.startsWith(first)
      ? 0
      : name.includes(first)
      ? 1
      : request.url.toLowerCase().includes(first)
      ? 2
      : 3;
    scored.push([score, i, request]);
  }
  scored.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return scored.slice(0, limit).map(([, , request]) => request);
}
