/**
 * What the workspace adds to every request a tab sends: the chosen environment and the request
 * file the tab's request comes from, so the server fills its `{{variables}}` as `dial run`
 * would. One hook for all four tabs; the workspace module sets it.
 * @module
 */
import { signal } from "@preact/signals";
import type { FileRequestJson, HttpRequestJson } from "../protocol.ts";
import type { HttpDraft } from "./workspace/request_edit.ts";

/** The tab a request is sent from. */
export type RequestKind = "http" | "graphql" | "ws" | "sse" | "grpc";

/**
 * The environment and the source file of a request; for a GraphQL, WebSocket or SSE tab's
 * request of a file, that request with the tab's fields, which the server evaluates as `dial
 * run` does.
 */
export type RequestExtras = Pick<HttpRequestJson, "environment" | "file"> & {
  fromFile?: FileRequestJson;
};

let fill: (kind: RequestKind) => RequestExtras = () => ({});

/**
 * @param extras what the workspace adds to a tab's requests
 */
export function setRequestExtras(extras: (kind: RequestKind) => RequestExtras): void {
  fill = extras;
}

/**
 * @param kind the tab that sends
 * @returns its environment and source file (empty without a workspace)
 */
export function requestExtras(kind: RequestKind): RequestExtras {
  return fill(kind);
}

/** Where a tab's request lives in a workspace file. */
export interface RequestSource {
  path: string;
  /** 1-based position in the file when the tab was opened. */
  index: number;
  name?: string;
}

let sourceOf: (kind: RequestKind) => RequestSource | undefined = () => undefined;

/** The file and request the HTTP tab's request comes from, as it changes (set by the workspace). */
export const httpSource = signal<RequestSource | undefined>(undefined);

/**
 * @param find the file and request a tab's request comes from
 */
export function setRequestSource(find: (kind: RequestKind) => RequestSource | undefined): void {
  sourceOf = find;
}

/**
 * @param kind the tab that sends
 * @returns the file and request its request comes from, if any (then Send runs it as
 *   `dial run` does)
 */
export function requestSource(kind: RequestKind): RequestSource | undefined {
  return sourceOf(kind);
}

let draftOf: (kind: RequestKind) => HttpDraft | undefined = () => undefined;

/**
 * @param find a tab's fields as a request of its file (undefined: they cannot be written in one)
 */
export function setRequestDraft(find: (kind: RequestKind) => HttpDraft | undefined): void {
  draftOf = find;
}

/**
 * @param kind a GraphQL, WebSocket or SSE tab
 * @returns its request of a file, with its fields, for the server to evaluate (none when it is
 *   not from a file, or its fields cannot be written in one, e.g. a binary message)
 */
export function fileRequest(kind: RequestKind): FileRequestJson | undefined {
  const source = sourceOf(kind);
  const draft = source ? draftOf(kind) : undefined;
  if (!source || !draft) return undefined;
  const { environment } = fill(kind);
  return {
    path: source.path,
    index: source.index,
    ...(source.name !== undefined ? { name: source.name } : {}),
    draft,
    ...(environment !== undefined ? { environment } : {}),
  };
}
