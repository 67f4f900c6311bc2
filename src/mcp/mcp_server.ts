/**
 * The MCP server: requests read line by line from the client, answered as the protocol's
 * schema says (`initialize`, `ping`, `tools/list`, `tools/call`, `resources/list`,
 * `resources/read`), tool calls run side by side and cancelled by `notifications/cancelled` or
 * the end of the input. Every message passes the redactor on its way out, and one that would
 * still carry a secret is replaced by an error.
 * @module
 * @see https://modelcontextprotocol.io/specification/2025-11-25
 */
import { type CallContext, callTool, type CallToolResult } from "./call_tool.ts";
import {
  errorMessage,
  type Incoming,
  lines,
  parseLine,
  type RequestId,
  resultMessage,
  RpcError,
  type RpcRequest,
} from "./json_rpc.ts";
import type { McpTool, WorkspaceFile } from "./mcp_tools.ts";

/** The protocol revisions this server speaks, newest first. */
export const PROTOCOL_VERSIONS: readonly string[] = [
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
];

/** How long calls under way may go on once the input has ended, before they are cancelled. */
const GRACE_MS = 500;

/** What the server offers. */
export interface McpWorkspace {
  /** The tools. */
  tools: readonly McpTool[];
  /** The request files. */
  files: readonly WorkspaceFile[];
}

/** Options of {@link serveMcp}. */
export interface McpServerOptions {
  /** The client's messages (the process's stdin). */
  input: ReadableStream<Uint8Array>;
  /** Writes one line to the client (the process's stdout); nothing else writes there. */
  write: (line: string) => Promise<void>;
  /**
   * The tools (filtered for `--read-only` already) and the request files, as resources: loaded
   * while `initialize` is answered. When loading fails, the server stops with its error.
   */
  workspace: Promise<McpWorkspace>;
  /** What every call shares. */
  call: CallContext;
  /** The server's name and version. */
  version: string;
  /** Ends the server (Ctrl-C). */
  signal?: AbortSignal;
}

/**
 * Serves one client until its input ends.
 *
 * @param options input, output, tools and the call context
 * @returns when the input has ended (calls still running are cancelled)
 * @throws the workspace's error when it cannot be loaded
 */
export async function serveMcp(options: McpServerOptions): Promise<void> {
  const server = new Server(options);
  await server.serve();
}

class Server {
  readonly running = new Map<RequestId, AbortController>();
  readonly pending = new Set<Promise<void>>();
  writing: Promise<void> = Promise.resolve();
  readonly stop = new AbortController();
  failure?: { error: unknown };

  constructor(readonly options: McpServerOptions) {}

  async serve(): Promise<void> {
    this.options.workspace.catch((error) => {
      this.failure = { error };
      this.stop.abort();
    });
    const signals = [this.stop.signal, this.options.signal].filter((s) => s !== undefined);
    try {
      for await (const line of lines(this.options.input, AbortSignal.any(signals))) {
        if (!line.trim()) continue;
        this.receive(parseLine(line));
      }
    } catch (error) {
      if (!this.stop.signal.aborted && !this.options.signal?.aborted) throw error;
    } finally {
      // The client is gone or done: calls under way get a moment to answer, then stop.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const grace = new Promise((resolve) => (timer = setTimeout(resolve, GRACE_MS)));
      await Promise.race([Promise.allSettled([...this.pending, this.options.workspace]), grace]);
      clearTimeout(timer);
      for (const controller of this.running.values()) controller.abort();
    }
    await this.writing;
    if (this.failure) throw this.failure.error;
  }

  receive(incoming: Incoming): void {
    switch (incoming.kind) {
      case "invalid":
        this.send(errorMessage(incoming.id, incoming.code, incoming.message));
        return;
      case "response":
        return;
      case "notification": {
        const { method, params } = incoming.notification;
        if (method === "notifications/cancelled") {
          const id = params.requestId;
          if (typeof id === "string" || typeof id === "number") this.running.get(id)?.abort();
        }
        return;
      }
      case "request": {
        const answered = this.answer(incoming.request);
        this.pending.add(answered);
        void answered.finally(() => this.pending.delete(answered));
      }
    }
  }

  async answer(request: RpcRequest): Promise<void> {
    const { id, method, params } = request;
    try {
      switch (method) {
        case "initialize":
          return this.send(resultMessage(id, this.initialize(params)));
        case "ping":
          return this.send(resultMessage(id, {}));
        case "tools/list":
          return this.send(resultMessage(id, {
            tools: (await this.options.workspace).tools.map(describeTool),
          }));
        case "tools/call": {
          if (typeof params.name !== "string") {
            return this.send(
              errorMessage(id, RpcError.InvalidParams, `Invalid params: "name" must be a string`),
            );
          }
          const controller = new AbortController();
          this.running.set(id, controller);
          try {
            const result = await this.call(params.name, params.arguments, controller.signal);
            // A cancelled request gets no answer (the protocol's cancellation rule).
            if (!controller.signal.aborted) this.send(resultMessage(id, result));
            return;
          } finally {
            this.running.delete(id);
          }
        }
        case "resources/list":
          return this.send(resultMessage(id, {
            resources: (await this.options.workspace).files.map((file) => ({
              uri: fileUri(file.path),
              name: file.relative,
              title: file.relative,
              description: `Request file: ${file.file.requests.length} request(s)`,
              mimeType: "text/plain",
            })),
          }));
        case "resources/templates/list":
          return this.send(resultMessage(id, { resourceTemplates: [] }));
        case "resources/read": {
          const { files } = await this.options.workspace;
          const file = files.find((file) => fileUri(file.path) === params.uri);
          if (!file) {
            return this.send(
              errorMessage(id, RpcError.ResourceNotFound, `Resource not found: ${params.uri}`),
            );
          }
          return this.send(resultMessage(id, {
            contents: [{ uri: fileUri(file.path), mimeType: "text/plain", text: file.file.source }],
          }));
        }
        default:
          return this.send(
            errorMessage(id, RpcError.MethodNotFound, `Method not found: ${method}`),
          );
      }
    } catch (error) {
      this.send(
        errorMessage(id, RpcError.InternalError, `Internal error: ${(error as Error).message}`),
      );
    }
  }

  initialize(params: Record<string, unknown>): Record<string, unknown> {
    const asked = params.protocolVersion;
    const protocolVersion = typeof asked === "string" && PROTOCOL_VERSIONS.includes(asked)
      ? asked
      : PROTOCOL_VERSIONS[0];
    return {
      protocolVersion,
      capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
      serverInfo: { name: "dial", title: "dial request files", version: this.options.version },
      instructions: "Each tool sends one named request of the workspace's .http files with the " +
        "team's environment and credentials, and returns the response (status line, headers, " +
        "body). Credentials are applied by dial and redacted from everything you receive." +
        (this.options.call.readOnly ? " Read-only: only GET, HEAD and OPTIONS requests." : ""),
    };
  }

  async call(name: string, args: unknown, signal: AbortSignal): Promise<CallToolResult> {
    const tool = (await this.options.workspace).tools.find((tool) => tool.name === name);
    if (!tool) {
      return {
        content: [{ type: "text", text: `error: Unknown tool "${name}"` }],
        isError: true,
      };
    }
    return await callTool(tool, args, this.options.call, signal);
  }

  /** Redacts and writes one message, in order with the others. */
  send(message: Record<string, unknown>): void {
    const redactor = this.options.call.redactor;
    let line = JSON.stringify(redactor.redactDeep(message));
    if (redactor.leaks(line)) {
      // A secret survived string-wise redaction (an escape split it): nothing of it leaves.
      const id = (message.id ?? null) as RequestId | null;
      line = JSON.stringify(
        "result" in message && isToolResult(message.result)
          ? resultMessage(id!, {
            content: [{ type: "text", text: "error: the response was withheld: it held a secret" }],
            isError: true,
          })
          : errorMessage(id, RpcError.InternalError, "Internal error: withheld, it held a secret"),
      );
    }
    this.writing = this.writing.then(() => this.options.write(line + "\n")).catch(() => {});
  }
}

function isToolResult(value: unknown): boolean {
  return value !== null && typeof value === "object" && "content" in value;
}

function describeTool(tool: McpTool): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const name of tool.inputs) {
    properties[name] = { type: "string", description: `the value of {{${name}}}` };
  }
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: {
      type: "object",
      properties,
      required: tool.inputs,
      additionalProperties: false,
    },
    annotations: tool.safe
      ? { title: tool.title, readOnlyHint: true, destructiveHint: false, openWorldHint: true }
      : { title: tool.title, readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  };
}

function fileUri(path: string): string {
  const absolute = path.startsWith("/") ? path : `${Deno.cwd()}/${path.replace(/^\.\//, "")}`;
  return new URL(`file://${absolute.split("/").map(encodeURIComponent).join("/")}`).href;
}
