/**
 * What the request command prints instead of sending: `--export FORMAT`, `--offline` (the
 * request head and body as they would go) and `--curl` (the equivalent curl command). One
 * function per mode, each reading the plan; loaded only when one of them is given.
 * @module
 */
import { ExitCode } from "../errors/mod.ts";
import { authorize } from "../http/credentials.ts";
import type { BodySource } from "../http/request_spec.ts";
import { framingOf, withCookies } from "../http/send.ts";
import { load } from "../load.ts";
import { formatRequestHead } from "../output/http.ts";
import { warn } from "../output/report.ts";
import type { CliContext } from "./context.ts";
import { curlHabitArgs } from "./curl_flags.ts";
import { lazy } from "./lazy.ts";
import type { RequestPlan } from "./request_plan.ts";
import { curlTransportArgs } from "./transport_flags.ts";

/**
 * `--export FORMAT`: the request written as curl, `.http`, Postman, HAR or code.
 *
 * @param plan the plan
 * @param context the run's output and environment
 * @returns the exit code
 */
export async function printExport(plan: RequestPlan, context: CliContext): Promise<number> {
  const { exportFromFlags } = await lazy.requestExport();
  const text = await exportFromFlags(plan.spec, plan.flags, context);
  await context.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
  return ExitCode.OK;
}

/**
 * `--offline`: the request head as it would be sent (cookies added, SigV4 signed; Digest waits
 * for a challenge and so adds nothing) and a description of the body.
 *
 * @param plan the plan
 * @param context the run's output
 * @returns the exit code
 */
export async function printOffline(plan: RequestPlan, context: CliContext): Promise<number> {
  const out = context.stdout;
  const { request } = await authorize(plan.spec, { offline: true });
  let prepared = plan.cookies.jar ? withCookies(request, plan.cookies.jar) : request;
  // What a signer knows before any answer (SigV4 signs; Digest waits for a challenge).
  if (prepared.signer) prepared = await prepared.signer.sign(prepared);
  await out.write(formatRequestHead(prepared, await framingOf(prepared), out));
  if (plan.spec.body) await out.write(describeBody(plan.spec.body) + "\n");
  return ExitCode.OK;
}

/**
 * `--curl`: the curl command that sends the same request. Secrets are environment lookups, as
 * `--export curl` writes them, named on stderr, unless `--with-secrets`.
 *
 * @param plan the plan
 * @param context the run's output and Ctrl-C signal
 * @returns the exit code
 */
export async function printCurl(plan: RequestPlan, context: CliContext): Promise<number> {
  const { flags, cookies } = plan;
  const { request } = await authorize(plan.spec, {
    signal: context.signal,
    fetch: (await load.client()).transportFetch(plan.transport),
  });
  const { toCurl } = await load.curl();
  const { envLookup, envName } = await load.exportRequest();
  const { shellWord } = await load.codeWriters();
  const lookups = new Set<string>();
  const show = (_secret: unknown, name: string) => {
    lookups.add(`$${envName(name)}`);
    return envLookup(name);
  };
  const curl = toCurl(request, {
    ...(flags.withSecrets ? {} : { show, quote: shellWord }),
    follow: flags.follow,
    maxRedirects: flags.maxRedirects,
    cookieFiles: cookies.files,
    ...(flags.timeout !== undefined ? { timeout: flags.timeout / 1000 } : {}),
    extra: [...curlTransportArgs(flags), ...curlHabitArgs(flags)],
  });
  await context.stdout.write(curl + "\n");
  if (lookups.size) {
    const names = [...lookups].join(", ");
    await warn(
      context.stderr,
      `The command reads ${names} from the environment (--with-secrets prints the values)`,
    );
  }
  return ExitCode.OK;
}

/** The body as `--offline` shows it: text as it is, anything streamed or binary described. */
function describeBody(body: BodySource): string {
  switch (body.kind) {
    case "text":
      return body.text;
    case "file":
      return `(body streamed from file "${body.path}")`;
    case "stdin":
      return "(body streamed from stdin)";
    case "stream":
      return "(body streamed from a pipe, chunked)";
    case "bytes":
      return `(${body.bytes.byteLength} bytes)`;
    case "form":
      return body.fields
        .map((f) =>
          "path" in f
            ? `${f.name}: (file "${f.path}" as "${f.filename}", ${f.contentType})`
            : `${f.name}: ${f.value}`
        )
        .join("\n");
  }
}
