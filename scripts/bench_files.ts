/**
 * The request-file part of `deno task bench`: 1,000 chained requests from one `.http` file
 * (each request's URL carries the value the previous response handler captured) run by
 * `dial test`, by a bare Deno `fetch` loop doing the same chain (the floor), by httpyac on the
 * same file, and by newman on the equivalent Postman collection, against one loopback server;
 * and the time to parse a 10,000-request file.
 * @module
 */

/** What bench.ts hands over. */
export interface FilesBenchContext {
  /** The dial command (the built CLI). */
  dial: string[];
  /** Runs a shell command under /usr/bin/time: wall ms and peak RSS. */
  timeShell: (
    command: string,
    options?: { env?: Record<string, string>; timeoutMs?: number },
  ) => Promise<{ ms: number; rssMb?: number; timedOut?: boolean }>;
  /** Quotes arguments for a shell. */
  shell: (args: string[]) => string;
  /** Prints Markdown. */
  out: (text: string) => void;
  /** The environment of the children. */
  env: Record<string, string>;
  /** Fewer runs. */
  quick: boolean;
}

const REQUESTS = 1000;
const DENO = Deno.execPath();
const ROOT = new URL("../", import.meta.url).pathname;

/**
 * Runs the request-file benchmarks and prints their tables.
 *
 * @param context the commands and printers of bench.ts
 */
export async function benchFiles(context: FilesBenchContext): Promise<void> {
  const { out } = context;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const step = Number(new URL(request.url).pathname.split("/").pop());
    return Response.json({ next: step + 1, token: `t-${step}` });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const dir = await Deno.makeTempDir({ prefix: "dial-bench-files-" });
  try {
    await Deno.writeTextFile(`${dir}/chain.http`, chainFile(origin));
    await Deno.writeTextFile(
      `${dir}/chain.postman.json`,
      JSON.stringify(postmanCollection(origin)),
    );
    await Deno.writeTextFile(`${dir}/fetch_loop.ts`, FETCH_LOOP);
    await Deno.writeTextFile(`${dir}/one.http`, chainFile(origin, 1));
    out(`\n### 6. Request files: ${REQUESTS} chained requests (one capture per request)\n\n`);
    out("| runner | wall | peak RSS | vs dial |\n| --- | --- | --- | --- |\n");
    const runs = context.quick ? 1 : 3;
    const measure = async (command: string) => {
      const times: { ms: number; rssMb?: number }[] = [];
      for (let i = 0; i < runs; i++) {
        const result = await context.timeShell(command, { env: context.env, timeoutMs: 600_000 });
        if (result.timedOut) return undefined;
        times.push(result);
      }
      times.sort((a, b) => a.ms - b.ms);
      return times[Math.floor(times.length / 2)]!;
    };
    const dial = await measure(
      `cd ${context.shell([dir])} && ${
        context.shell([...context.dial, "test", "chain.http", "--reporter", "json"])
      }`,
    );
    const floor = await measure(
      context.shell([DENO, "run", "-A", "--quiet", "--no-config", `${dir}/fetch_loop.ts`, origin]),
    );
    const npm = (pkg: string, ...args: string[]) =>
      `cd ${context.shell([dir])} && ${
        context.shell([
          DENO,
          "run",
          "-A",
          "--quiet",
          "--no-config",
          "--no-lock",
          `npm:${pkg}`,
          ...args,
        ])
      }`;
    const peers: [string, string][] = [
      [
        "httpyac 6.16.7 (same file)",
        npm("httpyac@6.16.7", "send", "chain.http", "--all", "-o", "none"),
      ],
      [
        "newman 6.2.2 (Postman collection)",
        npm("newman@6.2.2", "run", "chain.postman.json", "--reporters", "json"),
      ],
    ];
    const row = (name: string, r: { ms: number; rssMb?: number } | undefined) =>
      r
        ? `| ${name} | ${fmt(r.ms)} | ${r.rssMb?.toFixed(0) ?? "?"} MB | ${
          dial ? `${(r.ms / dial.ms).toFixed(1)}× slower` : ""
        } |\n`
        : `| ${name} | did not finish | | |\n`;
    out(row("dial test", dial).replace(/\d+\.\d× slower/, "1.0×"));
    if (floor) {
      out(
        `| bare Deno fetch loop (floor) | ${fmt(floor.ms)} | ${
          floor.rssMb?.toFixed(0) ?? "?"
        } MB | ${dial ? `dial is ${(dial.ms / floor.ms).toFixed(1)}× the floor` : ""} |\n`,
      );
    }
    // The same 1,000 requests and handlers as iterations of a one-request file (`--repeat`): each
    // iteration is a run of the file, with the file's script sandbox kept from one to the next.
    const repeated = await measure(
      `cd ${context.shell([dir])} && ${
        context.shell([
          ...context.dial,
          ...["test", "one.http", "--repeat", String(REQUESTS), "--reporter", "json"],
        ])
      }`,
    );
    if (repeated) {
      out(
        `| dial test --repeat ${REQUESTS} of one request | ${fmt(repeated.ms)} | ${
          repeated.rssMb?.toFixed(0) ?? "?"
        } MB | ${dial ? `${(repeated.ms / dial.ms).toFixed(1)}× the chain` : ""} |\n`,
      );
    }
    for (const [name, command] of peers) {
      try {
        out(row(name, await measure(command)));
      } catch (error) {
        out(`| ${name} | failed: ${(error as Error).message.split("\n")[0]} | | |\n`);
      }
    }
    out(await parseTiming(dir, context.quick ? 3 : 9));
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
}

function fmt(ms: number): string {
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`;
}

/** The floor: the same chain as a bare `fetch` loop, the value read from each JSON answer. */
const FETCH_LOOP = `let next = 0;
for (let i = 0; i < ${REQUESTS}; i++) {
  const response = await fetch(\`\${Deno.args[0]}/steps/\${next}\`);
  next = (await response.json()).next;
  if (response.status !== 200) throw new Error("step " + i);
}
`;

/** A file whose every request carries the value the previous handler captured. */
function chainFile(origin: string, requests = REQUESTS): string {
  let text = `@origin = ${origin}\n\n`;
  for (let i = 0; i < requests; i++) {
    const step = i === 0 ? "0" : "{{next}}";
    text += `### step ${i}\nGET {{origin}}/steps/${step}\n\n` +
      `> {%\n  client.global.set("next", response.body.next);\n` +
      `  client.test("step ${i}", function () { client.assert(response.status === 200); });\n%}\n\n`;
  }
  return text;
}

/** The same chain as a Postman collection (v2.1) for newman. */
function postmanCollection(origin: string) {
  return {
    info: {
      name: "chain",
      schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
    },
    item: Array.from({ length: REQUESTS }, (_, i) => ({
      name: `step ${i}`,
      request: { method: "GET", url: `${origin}/steps/${i === 0 ? "0" : "{{next}}"}` },
      event: [{
        listen: "test",
        script: {
          exec: [
            'pm.globals.set("next", pm.response.json().next);',
            `pm.test("step ${i}", function () { pm.response.to.have.status(200); });`,
          ],
        },
      }],
    })),
  };
}

/** Parses a 10,000-request file in fresh processes (a cold parser, as the CLI runs it). */
async function parseTiming(dir: string, runs: number): Promise<string> {
  const one = "### r\nPOST http://127.0.0.1/items?i={{i}}\nContent-Type: application/json\n\n" +
    '{"a": 1}\n\n> {% client.global.set("i", response.body.i); %}\n\n';
  await Deno.writeTextFile(`${dir}/big.http`, one.repeat(10_000));
  const code = `
    import process from "node:process";
    import { parseHttpFile } from ${JSON.stringify(`${ROOT}src/files/parse_http_file.ts`)};
    const text = await Deno.readTextFile(${JSON.stringify(`${dir}/big.http`)});
    const start = performance.now();
    const cpu = process.cpuUsage();
    const file = parseHttpFile(text, "big.http");
    const ms = performance.now() - start;
    const used = process.cpuUsage(cpu);
    if (file.requests.length !== 10000) throw new Error("wrong count");
    await Deno.stdout.write(new TextEncoder().encode(ms + " " + (used.user + used.system) / 1000));
  `;
  const times: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < runs; i++) {
    const output = await new Deno.Command(DENO, {
      args: ["eval", "--no-check", code],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!output.success) {
      return `\nParse timing failed: ${new TextDecoder().decode(output.stderr)}\n`;
    }
    const [wall, cpu] = new TextDecoder().decode(output.stdout).split(" ").map(Number);
    times.push(wall!);
    cpus.push(cpu!);
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return `\nParsing a 10,000-request file (1.0 MB) in a fresh process: median ${
    median(times).toFixed(0)
  } ms wall, ${median(cpus).toFixed(0)} ms CPU (all threads, GC included), of ${runs} runs ` +
    `(target: under 200 ms).\n`;
}
