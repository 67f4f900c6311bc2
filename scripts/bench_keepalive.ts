/**
 * The transport's CPU per request on one kept-alive connection, in one process: a bare `fetch`
 * loop beside a loop of dial's `send()` (the step every CLI request, request file and UI send
 * goes through), taking turns, each request's body read as text. Run by `deno task bench`
 * (scripts/bench_http.ts) against its server, which runs in the bench's process, so only the
 * client's CPU is counted here. Prints one JSON line: microseconds of CPU per request, medians.
 *
 * ```sh
 * deno run -A scripts/bench_keepalive.ts http://127.0.0.1:8080/ 1000 5
 * ```
 * @module
 */
import process from "node:process";
import { send } from "../src/http/send.ts";
import { ConnectionPool } from "../src/http/pool.ts";

const [url, count = "1000", rounds = "5"] = Deno.args;
const n = Number(count);
const pool = new ConnectionPool();
const options = { transport: { pool } };

const loops = {
  fetch: async () => {
    for (let i = 0; i < n; i++) await (await fetch(url!)).text();
  },
  send: async () => {
    for (let i = 0; i < n; i++) {
      const spec = { method: "GET", url: new URL(url!), headers: [], auth: { queryKeys: [] } };
      await (await send(spec, options)).response.text();
    }
  },
};

const perRequest: Record<string, number[]> = { fetch: [], send: [] };
for (let round = -1; round < Number(rounds); round++) {
  for (const [name, loop] of Object.entries(loops)) {
    const before = process.cpuUsage();
    await loop();
    const used = process.cpuUsage(before);
    // Round -1 warms both (connections, compiled code).
    if (round >= 0) perRequest[name]!.push((used.user + used.system) / n);
  }
}
pool.close();
const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1]!;
const result = {
  fetchUs: median(perRequest.fetch!),
  sendUs: median(perRequest.send!),
  connections: pool.opened,
};
Deno.stdout.writeSync(new TextEncoder().encode(`${JSON.stringify(result)}\n`));
