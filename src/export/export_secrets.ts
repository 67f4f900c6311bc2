/**
 * Literal credentials in a request file, taken out before an export writes it (the same rule
 * as the import's, `src/import/import_secrets.ts`): a credential-named header's value (an
 * `Authorization` keeps its scheme), a credential-named query value and a URL's password become
 * `{{variables}}`, whose values the export then treats as the secrets they are: environment
 * lookups in code, `{{name}}` in `.http` and Postman output, unless `--with-secrets`.
 * @module
 */
import type { HttpRequest } from "../files/http_file_types.ts";
import { headerWithoutSecret, urlWithoutSecrets } from "../import/import_secrets.ts";

/** Requests with their literal credentials replaced, and those credentials by variable. */
export interface WithoutSecrets {
  /** The requests, credentials as `{{name}}`. */
  requests: HttpRequest[];
  /** Each credential's value by the variable now holding it. */
  secrets: Map<string, string>;
}

/**
 * @param requests parsed requests
 * @param taken names the file or environments already use (kept apart)
 * @returns the requests without literal credentials
 */
export function withoutLiteralSecrets(
  requests: readonly HttpRequest[],
  taken: ReadonlySet<string> = new Set(),
): WithoutSecrets {
  const secrets = new Map<string, string>();
  const take = (secret: string, name: string) => {
    let unique = name;
    for (
      let n = 2;
      taken.has(unique) || (secrets.has(unique) && secrets.get(unique) !== secret);
      n++
    ) {
      unique = `${name}_${n}`;
    }
    secrets.set(unique, secret);
    return `{{${unique}}}`;
  };
  return {
    requests: requests.map((r) => ({
      ...r,
      url: urlWithoutSecrets(r.url, take),
      headers: r.headers.map((h) => ({ ...h, value: headerWithoutSecret(h.name, h.value, take) })),
    })),
    secrets,
  };
}
