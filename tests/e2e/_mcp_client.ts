/**
 * The MCP SDK's own client (`Client` + `StdioClientTransport`) driving `dial mcp` (main.ts as a
 * child process), every message it receives recorded as the agent would see it.
 * @module
 */
import { Client } from "@modelcontextprotocol/sdk/client";
// The package's "./*" export maps types to `*.d.ts`: the runtime path needs `.js`, the types none.
import * as stdio from "@modelcontextprotocol/sdk/client/stdio.js";
import type * as StdioTypes from "@modelcontextprotocol/sdk/client/stdio";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types";

const { StdioClientTransport } = stdio as typeof StdioTypes;
type StdioClientTransport = StdioTypes.StdioClientTransport;
import { dialEnv } from "../_helpers.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/** A transport that records every message the client receives, serialized. */
class Recording implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  constructor(readonly inner: StdioClientTransport, readonly received: string[]) {}

  start(): Promise<void> {
    this.inner.onmessage = (message) => {
      this.received.push(JSON.stringify(message));
      this.onmessage?.(message);
    };
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    return this.inner.start();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.inner.send(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** A connected client. */
export interface McpSession extends AsyncDisposable {
  /** The SDK's client, initialized. */
  client: Client;
  /** Every message received, serialized, in order. */
  received: string[];
  /** What `dial mcp` wrote to stderr so far. */
  stderr: () => string;
}

/**
 * Starts `dial mcp …args` and connects the SDK's client to it.
 *
 * @param args the arguments after `dial mcp`
 * @param options the working directory and extra environment variables
 * @returns the session; disposing it closes the client (stdin) and waits for the process
 */
export async function mcpSession(
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "-A", "--quiet", MAIN, "mcp", ...args],
    env: dialEnv(options.env),
    ...(options.cwd ? { cwd: options.cwd } : {}),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk));
  const received: string[] = [];
  const client = new Client({ name: "dial-tests", version: "1.0.0" });
  await client.connect(new Recording(transport, received));
  return {
    client,
    received,
    stderr: () => stderr,
    [Symbol.asyncDispose]: () => client.close(),
  };
}

/**
 * @param result a `tools/call` result
 * @returns its text content, joined
 */
export function resultText(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? "").join("\n");
}
