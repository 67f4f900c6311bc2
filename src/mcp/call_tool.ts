/**
 * One tool call: the request run as `dial run FILE NAME` runs it (the same `runHttpFile`, its
 * requests chained and handlers run), the arguments as plain-text variables, and the response
 * as text for the agent: status line, headers (credential headers redacted), body up to
 * {@link BODY_LIMIT} bytes. Every secret dial meets along the way is learned by the redactor,
 * which the server applies to everything it writes.
 * @module
 */
import { DialError, UsageError } from "../errors/mod.ts";
import { isCredentialName } from "../credential_name.ts";
import type { RunHttpFileOptions } from "../files/run_http_file.ts";
import { runHttpFile } from "../files/run_http_file.ts";
import type { VariableValue } from "../files/substitute.ts";
import type { PreparedRequest } from "../http/request_spec.ts";
import type { SendOptions } from "../http/send.ts";
import { formatResponseHead } from "../output/http.ts";
import { reveal, Secret } from "../secret.ts";
import type { McpTool } from "./mcp_tools.ts";
import { REDACTED, type Redactor } from "./redactor.ts";

/** The most body bytes a result shows (100 KiB); the rest is not read. */
export const BODY_LIMIT = 100 * 1024;

/** The methods `--read-only` lets out. */
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/** A tool call's result, as MCP's `CallToolResult`. */
export interface CallToolResult {
  /** One text block. */
  content: { type: "text"; text: string }[];
  /** Whether the call failed before a response (or a script failed). */
  isError: boolean;
}

/** What every call of a server shares. */
export interface CallContext {
  /** Transport, OAuth 2.0 hooks, process environment, timeout: as `dial run` has them. */
  run: Pick<RunHttpFileOptions, "send" | "oauth2" | "timeoutMs">;
  /** The process environment (`{{$env.NAME}}`); every value read is learned as a secret. */
  env: (name: string) => string | undefined;
  /** `--var` values. */
  overrides: ReadonlyMap<string, VariableValue>;
  /** Learns and removes secrets. */
  redactor: Redactor;
  /** `--read-only`: nothing but GET, HEAD and OPTIONS is sent. */
  readOnly: boolean;
  /** Where `client.log` lines go besides the result (the server's stderr). */
  log?: (text: string) => void | Promise<void>;
}

/**
 * Checks a call's arguments: an object of strings, each one a variable of the tool, every
 * variable given.
 *
 * @param tool the tool
 * @param args the call's `arguments`
 * @returns the variables
 * @throws {UsageError} naming what is wrong; nothing has been sent
 */
export function toolArguments(tool: McpTool, args: unknown): Map<string, string> {
  if (args === undefined || args === null) args = {};
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    throw new UsageError(`Cannot call tool "${tool.name}": "arguments" must be an object`);
  }
  const values = new Map<string, string>();
  for (const [name, value] of Object.entries(args)) {
    if (!tool.inputs.includes(name)) {
      throw new UsageError(
        `Cannot call tool "${tool.name}": it takes no argument "${name}" (${
          tool.inputs.length ? `its arguments: ${tool.inputs.join(", ")}` : "it takes none"
        }); variables of the environment cannot be set`,
      );
    }
    if (typeof value !== "string") {
      throw new UsageError(`Cannot call tool "${tool.name}": argument "${name}" must be a string`);
    }
    values.set(name, value);
  }
  const missing = tool.inputs.filter((name) => !values.has(name));
  if (missing.length) {
    throw new UsageError(
      `Cannot call tool "${tool.name}": missing argument${missing.length > 1 ? "s" : ""} ${
        missing.map((n) => `"${n}"`).join(", ")
      }`,
    );
  }
  return values;
}

/**
 * Runs a tool's request.
 *
 * @param tool the tool
 * @param args the call's arguments (checked first: nothing is sent when they are wrong)
 * @param context the server's transport, variables, redactor and mode
 * @param signal aborted when the client cancels the call or goes away
 * @returns the result, not yet redacted (the server redacts all it writes)
 */
export async function callTool(
  tool: McpTool,
  args: unknown,
  context: CallContext,
  signal: AbortSignal,
): Promise<CallToolResult> {
  const { redactor } = context;
  const environment = tool.source.environment;
  const learnEnvironment = () => redactor.addSecrets(environment?.variables.values() ?? []);
  learnEnvironment();
  const lines: string[] = [];
  let shown = "";
  try {
    const values = toolArguments(tool, args);
    // The file's OpenAPI description, read before anything is sent, as `dial run` reads it.
    const checkExchange = await tool.source.contract?.();
    const overrides = new Map<string, VariableValue>(context.overrides);
    for (const [name, value] of values) overrides.set(name, value);
    const base = context.run.send ?? {};
    const env = context.env;
    const send: SendOptions = {
      ...base,
      signal: base.signal ? AbortSignal.any([base.signal, signal]) : signal,
      onRequest: async (request, framing) => {
        learnRequest(request, redactor);
        if (context.readOnly && !SAFE.has(request.method.toUpperCase())) {
          throw new UsageError(
            `Cannot send ${request.method} ${request.url.origin}: the MCP server is read-only`,
          );
        }
        await base.onRequest?.(request, framing);
      },
    };
    await runHttpFile(tool.source.file, {
      ...context.run,
      names: [tool.request.name],
      ...(environment ? { environment } : {}),
      ...(tool.source.confinement ? { confinement: tool.source.confinement } : {}),
      overrides,
      send,
      ...(checkExchange ? { checkExchange } : {}),
      // A value read from the process environment ({{$env.NAME}}) is treated as a secret.
      env: (name) => {
        const value = env(name);
        if (value !== undefined) redactor.add(value);
        return value;
      },
      onSecret: (value) => redactor.add(value),
      onLog: async (text) => {
        lines.push(`log: ${text}`);
        await context.log?.(text);
      },
      onMessage: (text) => void (lines.length < 1000 && lines.push(text)),
      onExchange: async ({ exchange, dependency, streamed }) => {
        const { response } = exchange;
        if (dependency) return void await response.body?.cancel().catch(() => {});
        shown = headOf(response) + (streamed ? "" : await bodyOf(response));
      },
      onResult: (result) => {
        for (const test of result.tests) {
          const why = test.passed ? "" : `: ${test.message ?? "failed"}`;
          lines.push(`${test.passed ? "✓" : "✗"} ${result.label}: ${test.name}${why}`);
        }
      },
    });
    learnEnvironment();
    const failed = lines.some((line) => line.startsWith("✗ "));
    const text = [shown.trimEnd(), ...(lines.length ? ["", ...lines] : [])].join("\n");
    return { content: [{ type: "text", text }], isError: failed };
  } catch (error) {
    learnEnvironment();
    const message = error instanceof DialError || error instanceof Error
      ? error.message
      : String(error);
    const text = [`error: ${message}`, ...(shown ? ["", shown.trimEnd()] : []), ...lines].join(
      "\n",
    );
    return { content: [{ type: "text", text }], isError: true };
  }
}

/** Learns the credentials of a request as sent: secret and credential-named headers, API keys. */
function learnRequest(request: PreparedRequest, redactor: Redactor): void {
  for (const { name, value } of request.headers) {
    if (!(value instanceof Secret) && !isCredentialName(name)) continue;
    const text = reveal(value);
    redactor.add(text);
    // `Bearer TOKEN`, `Basic BASE64`: the credential alone is echoed too.
    const scheme = /^[A-Za-z][\w.+-]*\s+(\S.*)$/.exec(text);
    if (scheme) redactor.add(scheme[1]!);
    if (name.toLowerCase() === "cookie") {
      for (const pair of text.split(";")) {
        const eq = pair.indexOf("=");
        if (eq > 0) redactor.add(pair.slice(eq + 1).trim());
      }
    }
  }
  for (const key of request.queryKeys) redactor.add(reveal(key.value));
}

/** The status line and headers as dial prints them, credential headers' values redacted. */
function headOf(response: Response): string {
  const [status, ...headers] = formatResponseHead(response, plain).trimEnd().split("\n");
  const lines = [status!];
  for (const line of headers) {
    const name = line.slice(0, line.indexOf(":"));
    lines.push(isCredentialName(name) ? `${name}: ${REDACTED}` : line);
  }
  return lines.join("\n") + "\n\n";
}

const plain = { color: false, isTerminal: false };

/** The body as text, up to the limit; binary bodies are described, not shown. */
async function bodyOf(response: Response): Promise<string> {
  if (!response.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  const reader = response.body.getReader();
  try {
    while (size <= BODY_LIMIT) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
    cut = size > BODY_LIMIT;
  } finally {
    if (cut) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  const shown = cut ? bytes.subarray(0, BODY_LIMIT) : bytes;
  const type = response.headers.get("content-type") ?? "";
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(shown, { stream: cut });
  } catch {
    return `[${cut ? "more than " : ""}${size} bytes of binary content${
      type ? ` (${type})` : ""
    }, not shown]\n`;
  }
  if (!cut) return text;
  return `${text}\n\n[body cut at ${BODY_LIMIT} bytes: the rest was not read]\n`;
}
