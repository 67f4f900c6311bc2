/**
 * `dial … --export FORMAT`: the request the flags describe, written as curl, `.http`, Postman,
 * HAR or code instead of being sent. It is the model `--save` writes (`requestModel`), read back
 * by the request-file parser and written by `dial export`'s writers (`exportText`): one model,
 * one writer per format. Secrets (`-u`'s password, `-B`, `-K`, credential headers) are
 * environment lookups unless `--with-secrets`; an OAuth 2.0 token is always one. curl output
 * carries the transport flags (`--cacert`, `-k`, `--proxy` …) as `--curl` does; the other
 * formats name them on stderr as not carried.
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import type { ExportTarget } from "../export/code_writers.ts";
import { parseHttpFile } from "../files/parse_http_file.ts";
import type { VariableValue } from "../files/substitute.ts";
import { writeHttpRequest } from "../files/write_http_file.ts";
import type { RequestSpec } from "../http/request_spec.ts";
import { warn } from "../output/report.ts";
import { Secret } from "../secret.ts";
import type { CliContext } from "./context.ts";
import { curlHabitArgs } from "./curl_flags.ts";
import { exportText } from "./export_run.ts";
import type { RequestFlagValues } from "./request.ts";
import { requestModel } from "./save_http.ts";
import { curlTransportArgs } from "./transport_flags.ts";

/**
 * Writes the request in the format of `--export`.
 *
 * @param spec the request as built from the flags
 * @param flags the flag values (`export`, `withSecrets`)
 * @param context the run's output and environment
 * @returns the text to print
 * @throws {UsageError} for credentials computed per request (Digest, SigV4) or a stdin body
 */
export async function exportFromFlags(
  spec: RequestSpec,
  flags: RequestFlagValues,
  context: CliContext,
): Promise<string> {
  const target = flags.export as ExportTarget;
  const kind = spec.auth.authorization?.kind;
  if (kind === "digest" || kind === "aws-sigv4") {
    throw new UsageError(
      `--export cannot write ${
        kind === "digest" ? "Digest" : "AWS SigV4"
      } credentials: they are computed for each request`,
      { hint: "--curl prints a curl command that computes them" },
    );
  }
  // Body files are written relative to the current directory, where the code will run.
  const path = `${Deno.cwd()}/request.http`;
  const { model, values, auth } = requestModel(spec, flags, path);
  const file = parseHttpFile(writeHttpRequest(model), path);
  const environment = new Map<string, VariableValue>();
  for (const [name, value] of Object.entries(values)) {
    environment.set(name, flags.withSecrets ? value : new Secret(value));
  }
  const textual = target === "http" || target === "postman";
  // curl takes the transport flags as dial does (as --curl writes them); other formats cannot.
  const curlArgs = [...curlTransportArgs(flags), ...curlHabitArgs(flags)];
  const notCarried = target === "curl" ? [] : curlArgs.filter((word) => word.startsWith("-"));
  if (flags.cookieJar !== undefined) notCarried.push("-c");
  if (flags.session !== undefined || flags.sessionReadOnly !== undefined) {
    notCarried.push("--session");
  }
  if (notCarried.length) {
    await warn(context.stderr, `Not carried by --export: ${notCarried.join(" ")}`);
  }
  if (textual && Object.keys(auth).length) {
    await warn(
      context.stderr,
      `Not carried by --export: the OAuth 2.0 configuration ${
        Object.keys(auth).map((id) => `"${id}"`).join(", ")
      } (--save writes it to http-client.private.env.json)`,
    );
  }
  if (textual && !flags.withSecrets && Object.keys(values).length) {
    await warn(
      context.stderr,
      `The export refers to ${Object.keys(values).map((v) => `{{${v}}}`).join(", ")}: set ${
        Object.keys(values).length === 1 ? "it" : "them"
      } in an environment`,
    );
  }
  return await exportText(target, file, file.requests, {
    path,
    withSecrets: flags.withSecrets,
    scope: { environment, env: (name: string) => context.env(name) },
    ...(textual && flags.withSecrets ? { variables: values } : {}),
    ...(target === "curl" ? { curlArgs } : {}),
    context,
  });
}
