/**
 * The workspace's cookie jar, viewable and clearable from the page: the cookies the HTTP tab's
 * responses set, sent back to matching requests by the CLI's jar rules (domain, path, secure,
 * expiry). The jar lives in the server's memory for the run: cookie values are credentials, so
 * none is written into the workspace.
 * @module
 */
import type { ApiContext } from "./http_api.ts";
import { readJson } from "./decode.ts";

/**
 * `POST /api/cookies`: `{}` → `{cookies: [...]}`.
 *
 * @param request the call
 * @param context the jar
 * @returns the cookies held now
 */
export async function handleCookies(request: Request, context: ApiContext): Promise<Response> {
  await readJson(request);
  return Response.json({ cookies: context.cookies?.cookies ?? [] });
}

/**
 * `POST /api/cookies/clear`: `{}` → `{ok: true}`, the jar emptied.
 *
 * @param request the call
 * @param context the jar
 * @returns done
 */
export async function handleCookiesClear(
  request: Request,
  context: ApiContext,
): Promise<Response> {
  await readJson(request);
  for (const cookie of [...(context.cookies?.cookies ?? [])]) {
    context.cookies?.add({ ...cookie, expires: 1 });
  }
  return Response.json({ ok: true });
}
