/**
 * Contract checks of a run (`--openapi SPEC`, a file's `# @openapi`, an environment's
 * `openapi` entry): each description read (a path or, from the command line only, an http(s)
 * URL; JSON or YAML; its `$ref`s followed inside its folder as `dial import` follows them)
 * before anything is sent, once per run, and the checker every exchange is handed to. Loaded
 * only when a description applies: the validator stays out of every other run.
 * @module
 */
import { readContract } from "../openapi/openapi_contract.ts";
import { insideFolder } from "../import/openapi_refs.ts";
import { type CheckedExchange, ContractChecker, type Coverage } from "../openapi/contract_check.ts";
import type { TestOutcome } from "../files/script_api.ts";
import type { TransportOptions } from "../http/plan.ts";
import { requestUrl } from "../http/build_request.ts";
import type { BodySource, PreparedRequest } from "../http/request_spec.ts";
import { shown, type Sink } from "../output/terminal.ts";
import { reveal, Secret } from "../secret.ts";
import type { CliContext } from "./context.ts";
import { importReader, isUrlSource } from "./import_fetch.ts";
import type { DescriptionChoice } from "../openapi/description_choice.ts";

/** How long reading a description may take. */
const READ_TIMEOUT_MS = 30_000;

/** The descriptions of one run, each read and prepared once. */
export class OpenapiChecks {
  readonly #checkers = new Map<string, Promise<ContractChecker>>();

  /**
   * @param options the run's transport (for a URL given to `--openapi`), and `--openapi-base`
   * @param context the run
   */
  constructor(
    readonly options: { transport: TransportOptions; base?: string },
    readonly context: CliContext,
  ) {}

  /**
   * Reads a description (once per run).
   *
   * @param choice the description and who named it
   * @returns its checker
   * @throws {UsageError} for an unreadable, unparseable or non-OpenAPI description, or a `$ref`
   *   out of its folder
   */
  checker(choice: DescriptionChoice): Promise<ContractChecker> {
    let checker = this.#checkers.get(choice.spec);
    if (!checker) {
      checker = this.#read(choice.spec);
      this.#checkers.set(choice.spec, checker);
    }
    return checker;
  }

  async #read(spec: string): Promise<ContractChecker> {
    const reader = importReader(this.context, {
      transport: this.options.transport,
      timeoutMs: READ_TIMEOUT_MS,
    });
    const { text, url } = await reader.source(spec);
    const contract = await readContract(text, {
      name: isUrlSource(spec) ? spec : `"${spec}"`,
      ...(url ? { url } : {}),
      load: reader.load,
      allowFile: insideFolder,
      ...(this.options.base !== undefined ? { base: this.options.base } : {}),
    });
    return new ContractChecker(contract);
  }

  /**
   * How much of the descriptions the run exercised; with several descriptions the counts are
   * summed and each operation never called is named with its description.
   *
   * @returns the coverage, or none when no description was read
   */
  async coverage(): Promise<Coverage | undefined> {
    const checkers = await Promise.all(this.#checkers.values());
    if (checkers.length === 0) return undefined;
    if (checkers.length === 1) return checkers[0]!.coverage();
    const all: Coverage = { exercised: 0, total: 0, missing: [] };
    for (const checker of checkers) {
      const one = checker.coverage();
      all.exercised += one.exercised;
      all.total += one.total;
      all.missing.push(...one.missing.map((name) => `${checker.contract.source}: ${name}`));
    }
    return all;
  }
}

/**
 * An exchange's violations as failed tests of its request.
 *
 * @param checker the description's checker
 * @param exchange the exchange
 * @returns one failed test per violation
 */
export function violationTests(
  checker: ContractChecker,
  exchange: CheckedExchange,
): TestOutcome[] {
  return checker.check(exchange).map((v) => ({
    name: v.name,
    passed: false,
    message: v.message,
    durationMs: 0,
  }));
}

/** The most response bytes a single request's check reads along (as `dial run` keeps). */
const BODY_LIMIT = 16 * 1024 * 1024;

/**
 * `dial METHOD URL --openapi SPEC`: the description read before the request is sent, the
 * response's body kept as it is printed, then the exchange checked and its violations told on
 * stderr.
 */
export class RequestContract {
  #chunks: Uint8Array[] = [];
  #size = 0;
  #whole = false;

  /** @param checker the description's checker */
  constructor(readonly checker: ContractChecker) {}

  /**
   * Reads the description.
   *
   * @param spec `--openapi`'s path or URL
   * @param options the transport and `--openapi-base`
   * @param context the run
   * @returns the contract, ready to watch a response
   * @throws {UsageError} for a bad description (nothing has been sent)
   */
  static async read(
    spec: string,
    options: { transport: TransportOptions; base?: string },
    context: CliContext,
  ): Promise<RequestContract> {
    const checks = new OpenapiChecks(options, context);
    return new RequestContract(await checks.checker({ spec, namedBy: "--openapi" }));
  }

  /**
   * @param response the response about to be printed
   * @returns the same response, its body kept (up to 16 MiB) as the printer reads it
   */
  watch(response: Response): Response {
    if (!response.body) {
      this.#whole = true;
      return response;
    }
    const keep = new TransformStream<Uint8Array, Uint8Array>({
      transform: (chunk, controller) => {
        this.#size += chunk.byteLength;
        if (this.#size <= BODY_LIMIT) this.#chunks.push(chunk.slice());
        controller.enqueue(chunk);
      },
      flush: () => void (this.#whole = this.#size <= BODY_LIMIT),
    });
    return new Response(response.body.pipeThrough(keep), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }

  /**
   * Checks the exchange once its response was printed, and tells each violation on stderr.
   *
   * @param request the request as sent (the last one, after redirects)
   * @param response the response (its head; the body was kept by {@link watch})
   * @param err stderr
   * @param resume `-C`: the file a partial response (206) was appended to, whose whole content
   *   is then the body checked, as the operation's 200
   * @returns how many violations there were
   */
  async report(
    request: PreparedRequest,
    response: Response,
    err: Sink,
    resume?: { path: string; offset: number },
  ): Promise<number> {
    // -C on a file already whole: the server's 416 answers dial's Range, nothing was received.
    if (resume && response.status === 416) return 0;
    const appended = resume !== undefined && resume.offset > 0 && response.status === 206;
    const secrets: string[] = [];
    const requestHeaders: [string, string][] = request.headers.map(({ name, value }) => {
      const text = reveal(value);
      if (value instanceof Secret && text) secrets.push(text);
      return [name, text];
    });
    for (const key of request.queryKeys) secrets.push(reveal(key.value));
    const type = request.body && "contentType" in request.body
      ? request.body.contentType
      : undefined;
    if (type && !requestHeaders.some(([name]) => name.toLowerCase() === "content-type")) {
      requestHeaders.push(["content-type", type]);
    }
    const bytes = new Uint8Array(this.#size <= BODY_LIMIT ? this.#size : 0);
    let at = 0;
    for (const chunk of this.#whole ? this.#chunks : []) {
      bytes.set(chunk, at);
      at += chunk.byteLength;
    }
    const violations = this.checker.check({
      method: request.method,
      url: requestUrl(request).href,
      requestHeaders,
      requestBody: await bodyText(request.body),
      status: appended ? 200 : response.status,
      headers: [...response.headers],
      body: appended
        ? await bodyText({ kind: "file", path: resume.path })
        : this.#whole
        ? new TextDecoder().decode(bytes)
        : undefined,
    });
    for (const { name, message } of violations) {
      let text = `${name}: ${message}`;
      for (const secret of secrets) text = text.replaceAll(secret, "(redacted)");
      await err.write(`✗ ${shown(err, text)}\n`);
    }
    return violations.length;
  }
}

/** A request body as text, when it can be known again (not stdin, a pipe or a form). */
async function bodyText(body: BodySource | undefined): Promise<string | undefined> {
  if (!body) return "";
  switch (body.kind) {
    case "text":
      return body.text;
    case "bytes":
      return new TextDecoder().decode(body.bytes);
    case "file": {
      const info = await Deno.stat(body.path).catch(() => undefined);
      if (!info || info.size > BODY_LIMIT) return undefined;
      return await Deno.readTextFile(body.path).catch(() => undefined);
    }
    default:
      return undefined;
  }
}
