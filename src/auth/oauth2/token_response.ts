/**
 * Token endpoint responses read as providers write them, before oauth4webapi validates them:
 * an `error` member in a 200 (GitHub) is the provider's error, a response without `token_type`
 * is a Bearer token (with a warning), and a DPoP-bound token is refused unless the request
 * carried a DPoP proof (`--oauth2-dpop`).
 * @module
 */
import { AuthError } from "../../errors/mod.ts";
import { redactUrl } from "../../redact_url.ts";
import { providerError } from "./provider_error.ts";

/** Where the reader reports what it did on its own. */
export interface TokenResponseOptions {
  /** The token endpoint, for messages. */
  tokenUrl: URL;
  /** Told about a token response dial had to repair (a missing `token_type`). */
  warn?: (text: string) => void;
  /** The request carried a DPoP proof (`--oauth2-dpop`): a DPoP-bound token is expected. */
  dpop?: boolean;
}

/**
 * Reads a token endpoint response and returns one oauth4webapi can validate, or throws the
 * provider's error. Only 200 responses with a JSON object body are looked into; anything else
 * is returned unread.
 *
 * @param response the token endpoint's response
 * @param options the token URL and the warning callback
 * @returns the response, repaired when `token_type` was missing
 * @throws {ProviderError} for an `error` member in a 200 response
 * @throws {AuthError} for a token that is not a Bearer token
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1
 */
export async function readTokenResponse(
  response: Response,
  options: TokenResponseOptions,
): Promise<Response> {
  if (response.status !== 200) return response;
  const text = await response.text();
  const rebuilt = (body: string) =>
    new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return rebuilt(text);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) return rebuilt(text);
  const body: Record<string, unknown> = { ...json };
  const where = `OAuth 2.0 token request to ${redactUrl(options.tokenUrl)} failed`;
  if (typeof body.error === "string" && body.access_token === undefined) {
    const description = typeof body.error_description === "string"
      ? body.error_description
      : undefined;
    throw providerError(where, body.error, description, 200, undefined);
  }
  if (typeof body.access_token !== "string") return rebuilt(text);
  if (body.token_type === undefined || body.token_type === "") {
    options.warn?.(
      `The token endpoint ${
        redactUrl(options.tokenUrl)
      } sent no token_type: using the token as a Bearer token`,
    );
    return rebuilt(JSON.stringify({ ...body, token_type: "Bearer" }));
  }
  const type = typeof body.token_type === "string" ? body.token_type : String(body.token_type);
  if (type.toLowerCase() === "dpop" && options.dpop) return rebuilt(text);
  if (type.toLowerCase() === "dpop") {
    throw new AuthError(
      `${where}: the provider issued a DPoP-bound token (token_type "DPoP"), which must be sent with a DPoP proof`,
      { remedy: { check: "dpop" } },
    );
  }
  if (type.toLowerCase() !== "bearer") {
    throw new AuthError(
      `${where}: the provider issued a token of type "${type}"; dial sends Bearer tokens only`,
    );
  }
  return rebuilt(text);
}
