/**
 * The request command's plan: its words and flags checked and turned into what it will do
 * ({@link requestPlan}), with nothing sent and nothing printed. Every usage error is found here;
 * `request_run.ts` acts on the plan and prints.
 * @module
 */
import { load } from "../load.ts";
import { UsageError } from "../errors/mod.ts";
import type { CookieJar } from "../http/cookies.ts";
import type { TransportOptions } from "../http/plan.ts";
import type { RequestSpec } from "../http/request_spec.ts";
import type { WriteOutFormat } from "../output/write_out.ts";
import type { CliContext } from "./context.ts";
import { lazy } from "./lazy.ts";
import type { RequestFlagValues } from "./request.ts";
import { buildSpec, type BuiltRequest } from "./request_build.ts";
import type { FlagUse } from "./declare.ts";
import type { Resume } from "./request_save.ts";
import { splitWords } from "./request_target.ts";
import type { SessionRun } from "./session_run.ts";
import { parseTransportFlags } from "./transport_flags.ts";

/** What the command does with the request: send it, or print it in one of three forms. */
export type RequestMode = "send" | "export" | "curl" | "offline";

/** What `dial [METHOD] <url> [flags]` does, decided before anything is sent or printed. */
export interface RequestPlan {
  /** Send, or print instead (`--export`, `--curl`, `--offline`). */
  mode: RequestMode;
  /** The flags as the run reads them: `-o -` dropped, `--fail-with-body` implying `-f`, a
   * session's headers and auth added. */
  flags: RequestFlagValues;
  /** The request's parts from the command line (a session saves its own headers from them). */
  built: BuiltRequest;
  /** The request to send (a `-C` resume's `Range` header added). */
  spec: RequestSpec;
  /** The cookies: the jar of `-b`/`-c` and a session (none without them), the files for
   * `--curl`, and where `-c` writes the jar. */
  cookies: {
    jar: CookieJar | undefined;
    files: { read?: string; write?: string };
    saveTo?: string | undefined;
  };
  /** How to connect: trust, proxy, address overrides, the run's keep-alive pool. */
  transport: TransportOptions;
  /** `--filter`: its module (the JSONPath package loads only when given) and expression. */
  filter?: { module: typeof import("../output/json_filter.ts"); path: string };
  /** `-w`: the checked format (its unknown variables are warned about, printed empty). */
  writeOut?: WriteOutFormat;
  /** `--session`/`--session-read-only`. */
  session?: SessionRun;
  /** `-C`/`--download`: the saving module and the partial file to resume. */
  save?: { module: typeof import("./request_save.ts"); resume?: Resume | undefined };
}

/**
 * Checks the flags and builds the request: nothing is sent and nothing printed; references
 * (`@env:`, `@file`, `@-`, `@exec:`) are read; a mistake is a UsageError.
 *
 * @param words the positional words given: [METHOD] <url> [items…] (at least one)
 * @param given the flag values as parsed
 * @param context stdin, the environment and the run's connection pool
 * @param order every flag as given, in order (curl joins its data flags so)
 * @returns the plan
 * @throws {UsageError} on anything that cannot be done as asked
 */
export async function requestPlan(
  words: readonly string[],
  given: RequestFlagValues,
  context: CliContext,
  order: readonly FlagUse[],
): Promise<RequestPlan> {
  let flags = runFlags(given);
  const mode = requestMode(flags);
  const filter = flags.filter === undefined
    ? undefined
    : { module: await lazy.jsonFilter(), path: flags.filter };
  filter?.module.checkJsonPath(filter.path);
  const split = splitWords(words);
  // --session loads its module only when given.
  const sessionName = flags.session ?? flags.sessionReadOnly;
  const session = sessionName === undefined
    ? undefined
    : await (await lazy.sessionRun()).useSession(sessionName, split, flags, context);
  if (session) flags = session.flags;
  const built = await buildSpec(split, flags, context, order);
  const writeOut = flags.writeOut === undefined
    ? undefined
    : await (await load.writeOut()).parseWriteOut(flags.writeOut);
  const save = await savePlan(flags, built);
  const transport = await parseTransportFlags(flags, context, flags.verbose);
  // -w '%{time_namelookup}': the name is resolved apart from connecting, to time it.
  if (writeOut?.needsLookupTime) transport.measureLookup = true;
  const spec: RequestSpec = {
    method: built.method,
    url: built.url,
    headers: [...built.headers, ...(save?.module.resumeHeaders(save.resume, built.headers) ?? [])],
    auth: built.auth.auth,
    ...(built.body ? { body: built.body } : {}),
  };
  const cookies = session ? { ...built.cookies, jar: session.jar(built) } : built.cookies;
  return {
    mode,
    flags,
    built,
    spec,
    cookies,
    transport,
    ...(filter ? { filter } : {}),
    ...(writeOut ? { writeOut } : {}),
    ...(session ? { session } : {}),
    ...(save ? { save } : {}),
  };
}

/** curl's habits read as dial's own flags: `-o -` is stdout, `--fail-with-body` implies `-f`. */
function runFlags(flags: RequestFlagValues): RequestFlagValues {
  if (flags.output === "-") flags = { ...flags, output: undefined };
  if (flags.failWithBody) flags = { ...flags, checkStatus: true };
  return flags;
}

/** The mode the flags ask for; flags that need another flag are usage errors. */
function requestMode(flags: RequestFlagValues): RequestMode {
  const printing = [
    flags.export !== undefined && "--export",
    flags.curl && "--curl",
    flags.offline && "--offline",
  ]
    .filter((f) => f !== false);
  if (printing.length > 1) {
    throw new UsageError(
      `Give one of ${printing.join(", ")}: each prints the request instead of sending it`,
    );
  }
  if (flags.withSecrets && flags.export === undefined && !flags.curl) {
    throw new UsageError("--with-secrets needs --curl or --export FORMAT", {
      hint: "dial … --curl --with-secrets",
    });
  }
  if (flags.name !== undefined && flags.save === undefined) {
    throw new UsageError("--name needs --save FILE.http", {
      hint: "dial … --save api.http --name me",
    });
  }
  return flags.export !== undefined
    ? "export"
    : flags.curl
    ? "curl"
    : flags.offline
    ? "offline"
    : "send";
}

/** `-C` and `--download` load their module only when given; `-C` finds its partial file. */
async function savePlan(
  flags: RequestFlagValues,
  built: BuiltRequest,
): Promise<RequestPlan["save"]> {
  const saving = flags.continue || (flags.download && flags.output === undefined);
  if (!saving) return undefined;
  const module = await lazy.requestSave();
  return { module, resume: await module.resumeTarget(flags, built.url, built.headers) };
}
