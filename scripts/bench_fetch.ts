/**
 * The floor for a Deno program: a bare `fetch` of the URL in argv, body to stdout. Used by
 * `deno task bench` to compare dial's cold start against Deno's own.
 * @module
 */
const response = await fetch(Deno.args[0]!);
await response.body?.pipeTo(Deno.stdout.writable, { preventClose: true });
