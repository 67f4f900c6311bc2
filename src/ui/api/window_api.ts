/**
 * `POST /api/window`: a one-time launch link for another tab or window of the same `dial ui`,
 * asked for by a page that holds the session (each launch link works once, so a copied address
 * cannot open a second tab). The new tab gets its own session; both share the server's state.
 * @module
 */
import { UsageError } from "../../errors/mod.ts";
import type { ApiContext } from "./http_api.ts";
import { readJson } from "./decode.ts";

/**
 * @param request `{}`
 * @param context the server's launch links
 * @returns `{url}`
 */
export async function handleNewWindow(request: Request, context: ApiContext): Promise<Response> {
  await readJson(request);
  if (!context.launchUrl) throw new UsageError("This server cannot open another window");
  return Response.json({ url: context.launchUrl() });
}
