import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { CLI_DOC, fill, regions } from "../../scripts/gen_docs.ts";

/** The docs/ pages whose flag tables document a command. */
const PAGES = {
  cli: await page("cli.md"),
  oauth2: await page("oauth2.md"),
  streams: await page("streams.md"),
  grpc: await page("grpc.md"),
  tls: await page("tls-proxies.md"),
};

function page(name: string): Promise<string> {
  return Deno.readTextFile(new URL(`../../docs/${name}`, import.meta.url));
}

type Section = { page: keyof typeof PAGES; heading: string };
const REQUESTS: Section = { page: "cli", heading: "## HTTP requests" };
const OAUTH2: Section = { page: "oauth2", heading: "# OAuth 2.0" };
const TLS: Section = { page: "tls", heading: "# TLS, client certificates and proxies" };

/** The sections whose flag tables document a command, and the command. */
const SECTIONS: Array<Section & { command: string[]; complete: boolean }> = [
  { ...REQUESTS, command: [], complete: true },
  { ...OAUTH2, command: [], complete: false },
  { page: "streams", heading: "## `dial ws`", command: ["ws"], complete: true },
  { page: "streams", heading: "## `dial sse`", command: ["sse"], complete: true },
  { page: "grpc", heading: "## `dial grpc`", command: ["grpc"], complete: true },
  { ...TLS, command: [], complete: false },
];

/** Flags documented once for every command (in the requests, OAuth 2.0 and TLS tables). */
const SHARED =
  /^(-H|-u|-B|-K|--header|--auth|--bearer|--api-key-query|--digest|--aws-sigv4|--aws-session-token|--no-netrc|--netrc-file|--oauth2.*|--cacert|--cert|--key|--insecure|--proxy|--noproxy|--connect-timeout|--resolve|--connect-to|--unix-socket)$/;

interface HelpFlag {
  shorts: string[];
  long: string;
}

/** The flags `dial … --help` lists, without -h/--help and -V/--version. */
async function helpFlags(command: string[]): Promise<HelpFlag[]> {
  const result = await dial([...command, "--help"]);
  assert.equal(result.code, 0, result.stderr);
  const flags: HelpFlag[] = [];
  for (const line of result.stdout.split("\n")) {
    // `-u, -a, --auth`: a short form, its aliases, the long form.
    const match = line.match(/^ {2}((?:-\w, )*) *(--[\w-]+)/);
    if (!match || match[2] === "--help" || match[2] === "--version") continue;
    flags.push({ shorts: match[1]!.split(", ").filter((s) => s !== ""), long: match[2]! });
  }
  assert.ok(flags.length > 3, `no flags read from:\n${result.stdout}`);
  return flags;
}

/** Flag spellings in the first column of the flag tables under a heading. */
function documentedFlags({ page, heading }: Section): string[] {
  const text = `\n${PAGES[page]}`;
  const start = text.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `docs/${page} has no "${heading}"`);
  const level = heading.split(" ")[0]!;
  const rest = text.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`\\n#{1,${level.length}} `));
  const section = end < 0 ? rest : rest.slice(0, end);
  const names: string[] = [];
  let inFlagTable = false;
  for (const line of section.split("\n")) {
    if (!line.startsWith("|")) {
      inFlagTable = false;
      continue;
    }
    const first = line.split(/(?<!\\)\|/)[1]!.trim();
    if (/^flag\b/.test(first)) inFlagTable = true;
    if (!inFlagTable || /^-+$/.test(first)) continue;
    for (const code of first.matchAll(/`([^`]*)`/g)) {
      names.push(...(code[1]!.match(/(?<![\w-])--?[A-Za-z][\w-]*/g) ?? []));
    }
  }
  assert.ok(names.length > 0, `no flag table under "${heading}"`);
  return names;
}

for (const { command, complete, ...section } of SECTIONS) {
  Deno.test(`docs: the flag table under "${section.heading}" matches ${["dial", ...command].join(" ")} --help`, async () => {
    const help = await helpFlags(command);
    const spelled = new Set(help.flatMap((f) => [f.long, ...f.shorts]));
    const documented = documentedFlags(section);
    const unknown = documented.filter((name) => !spelled.has(name));
    assert.deepEqual(unknown, [], `in the docs but not in --help: ${unknown.join(", ")}`);
    if (!complete) return;
    const others = command.length === 0
      ? [...documentedFlags(OAUTH2), ...documentedFlags(TLS)]
      : [...documentedFlags(REQUESTS), ...documentedFlags(OAUTH2)];
    const missing = help.filter((f) =>
      ![f.long, ...f.shorts].some((n) => documented.includes(n)) &&
      !(command.length === 0 ? others.includes(f.long) : SHARED.test(f.long))
    ).map((f) => f.long);
    assert.deepEqual(missing, [], `in --help but not in the docs: ${missing.join(", ")}`);
  });
}

Deno.test("docs: the generated tables of docs/cli.md (flags, exit codes, error codes) are up to date", async () => {
  const page = await Deno.readTextFile(CLI_DOC);
  const generated = await regions();
  assert.deepEqual(fill(page, generated).stale, [], "docs/cli.md is stale: run `deno task docs`");
  // Every declared flag of every command has its row, and a changed row is found stale.
  const help = await helpFlags([]);
  const reference = page.slice(page.indexOf("<!-- BEGIN GENERATED flags"));
  for (const flag of help) assert.ok(reference.includes(`\`${flag.long}\``), flag.long);
  const at = page.indexOf("`--digest`", page.indexOf("<!-- BEGIN GENERATED flags"));
  assert.ok(at > 0);
  const edited = `${page.slice(0, at)}\`--digest-auth\`${page.slice(at + "`--digest`".length)}`;
  assert.deepEqual(fill(edited, generated).stale, ["flags"]);
});
