/**
 * Which OpenAPI description a request file's exchanges are checked against: the file's
 * `# @openapi PATH`, else its environment's `openapi` entry (the CLI's command line comes
 * first). A description a file names is data under the trust rule: a
 * local path, inside the run's folders after symbolic links (`--allow-path` widens them), never
 * a URL (a URL is read only when the command line gives it). Cheap: nothing is read or loaded
 * here but the path's real location. The CLI, `dial mcp` and the UI choose alike.
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import type { Environment } from "../files/environment.ts";
import type { HttpFile } from "../files/http_file_types.ts";
import type { Confinement } from "../files/trust_rule.ts";

/** A description to check against. */
export interface DescriptionChoice {
  /** A path (real, when a file named it) or, from the command line only, a URL. */
  spec: string;
  /** Where it was named, for messages: the flag, `api.http:3`, `http-client.env.json`. */
  namedBy: string;
}

/**
 * The description a file names (its `# @openapi`, else its environment's `openapi` entry); a
 * face's own choice (the CLI's `--openapi`) comes before it.
 *
 * @param file the request file
 * @param environment its environment, if any
 * @param confinement the folders the file may read
 * @returns the description, or none
 * @throws {UsageError} for two different `# @openapi` lines, an empty one, a URL named by a
 *   file, or a path outside the run's folders: before anything is sent
 */
export async function fileDescription(
  file: HttpFile,
  environment: Environment | undefined,
  confinement: Confinement,
): Promise<DescriptionChoice | undefined> {
  const named = file.requests.flatMap((request) =>
    request.directives.filter((d) => d.name === "openapi")
  );
  const first = named[0];
  if (first) {
    const other = named.find((d) => d.value !== first.value);
    if (other) {
      throw new UsageError(
        `Cannot run ${file.path}: it names two OpenAPI descriptions ("${first.value}" at line ${first.span.line}, "${other.value}" at line ${other.span.line}); a file has one`,
      );
    }
    const where = `${file.path}:${first.span.line}`;
    return await localDescription(first.value, folderOf(file.path), where, confinement);
  }
  const entry = environment?.openapi;
  if (entry) {
    const where = `${entry.file} ("openapi" of environment "${environment?.name ?? ""}")`;
    return await localDescription(entry.written, entry.dir, where, confinement);
  }
  return undefined;
}

/** A description a file names: a local path inside the run's folders. */
async function localDescription(
  written: string,
  dir: string,
  where: string,
  confinement: Confinement,
): Promise<DescriptionChoice> {
  if (written === "") {
    throw new UsageError(`Cannot read the OpenAPI description named by ${where}: no path given`);
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(written) && !/^[a-z]:[\\/]/i.test(written)) {
    throw new UsageError(
      `Refused the OpenAPI description named by ${where}: "${written}" is not a local path (a file names a path; a URL is read only when the person gives it)`,
      { details: { path: written }, remedy: { use: "openapi_url" } },
    );
  }
  const path = written.startsWith("/") ? written : `${dir}/${written}`;
  const real = await confinement.reading(path, {
    what: `the OpenAPI description named by ${where}`,
    written,
  });
  return { spec: real, namedBy: where };
}

/** The folder of a path, as `dial run` has it (`.` for a bare name, `/` at the root). */
function folderOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "." : path.slice(0, slash) || "/";
}
