/**
 * The `dial mcp` part of `deno task bench`: how long a client waits for the answer to
 * `initialize` after starting `dial mcp` on a folder of request files, against the start-up of
 * `dial GET` (the goal: at most 1.25×), runs interleaved.
 * @module
 */

/** What bench.ts hands over. */
export interface McpBenchContext {
  /** The dial command (the built CLI). */
  dial: string[];
  /** A URL of the local server answering a small body. */
  url: string;
  /** Prints Markdown. */
  out: (text: string) => void;
  /** The environment of the children. */
  env: Record<string, string>;
  /** Fewer runs. */
  quick: boolean;
}

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "bench", version: "1" },
  },
}) + "\n";

/**
 * Runs the benchmark and prints its table.
 *
 * @param context the command, the URL and the printer of bench.ts
 */
export async function benchMcp(context: McpBenchContext): Promise<void> {
  const { dial, url, out, env } = context;
  const dir = await Deno.makeTempDir({ prefix: "dial-bench-mcp-" });
  try {
    for (let i = 0; i < 20; i++) {
      await Deno.writeTextFile(
        `${dir}/api_${i}.http`,
        `# @name list\nGET ${url}?page={{page}}\n\n###\n# @name create\nPOST ${url}\n\n{"n": ${i}}\n`,
      );
    }
    const runs = context.quick ? 5 : 21;
    const get: number[] = [];
    const mcp: number[] = [];
    for (let i = 0; i < runs; i++) {
      get.push(await timeGet(dial, url, env));
      mcp.push(await timeInitialize(dial, dir, env));
    }
    const [g, m] = [median(get), median(mcp)];
    out(
      `\n### dial mcp start-up\n\n| measurement (median of ${runs}, interleaved) | ms |\n| --- | --- |\n` +
        `| \`dial GET\` (to exit) | ${g.toFixed(1)} |\n` +
        `| \`dial mcp\` on 20 files (spawn to the \`initialize\` answer) | ${m.toFixed(1)} |\n` +
        `| ratio (goal ≤ 1.25×) | ${(m / g).toFixed(2)}× |\n`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function timeGet(dial: string[], url: string, env: Record<string, string>) {
  const started = performance.now();
  await new Deno.Command(dial[0]!, {
    args: [...dial.slice(1), "GET", url],
    stdout: "null",
    stderr: "null",
    env,
  }).output();
  return performance.now() - started;
}

async function timeInitialize(dial: string[], dir: string, env: Record<string, string>) {
  const started = performance.now();
  const child = new Deno.Command(dial[0]!, {
    args: [...dial.slice(1), "mcp", dir],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
    env,
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(INITIALIZE));
  const reader = child.stdout.getReader();
  await reader.read();
  const ms = performance.now() - started;
  await writer.close();
  await reader.cancel();
  await child.status;
  return ms;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
