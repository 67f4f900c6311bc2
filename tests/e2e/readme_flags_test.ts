import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";

const README = await Deno.readTextFile(new URL("../../README.md", import.meta.url));

/** The README sections whose flag tables document a command, and the command. */
const SECTIONS: Array<{ heading: string; command: string[]; complete: boolean }> = [
  { heading: "## HTTP requests", command: [], complete: true },
  { heading: "## OAuth 2.0", command: [], complete: false },
  { heading: "### `dial ws`", command: ["ws"], complete: true },
  { heading: "### `dial sse`", command: ["sse"], complete: true },
  { heading: "## TLS, client certificates and proxies", command: [], complete: false },
];

/** Flags documented once for every command (in the HTTP requests, OAuth 2.0 and TLS tables). */
const SHARED =
  /^(-H|-u|-B|-K|--header|--auth|--bearer|--api-key-query|--digest|--aws-sigv4|--aws-session-token|--no-netrc|--netrc-file|--oauth2.*|--cacert|--cert|--key|--insecure|--proxy|--noproxy|--connect-timeout|--resolve|--connect-to|--unix-socket)$/;

interface HelpFlag {
  short?: string;
  long: string;
}

/** The flags `dial … --help` lists, without -h/--help and -V/--version. */
async function helpFlags(command: string[]): Promise<HelpFlag[]> {
  const result = await dial([...command, "--help"]);
  assert.equal(result.code, 0, result.stderr);
  const flags: HelpFlag[] = [];
  for (const line of result.stdout.split("\n")) {
    const match = line.match(/^ {2}(?:(-\w), )? *(--[\w-]+)/);
    if (!match || match[2] === "--help" || match[2] === "--version") continue;
    flags.push({ ...(match[1] ? { short: match[1] } : {}), long: match[2]! });
  }
  assert.ok(flags.length > 3, `no flags read from:\n${result.stdout}`);
  return flags;
}

/** Flag spellings in the first column of the flag tables under a heading. */
function readmeFlags(heading: string): string[] {
  const start = README.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `README has no "${heading}"`);
  const level = heading.split(" ")[0]!;
  const rest = README.slice(start + heading.length + 2);
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

for (const { heading, command, complete } of SECTIONS) {
  Deno.test(`readme: the flag table under "${heading}" matches ${["dial", ...command].join(" ")} --help`, async () => {
    const help = await helpFlags(command);
    const spelled = new Set(help.flatMap((f) => [f.long, ...(f.short ? [f.short] : [])]));
    const documented = readmeFlags(heading);
    const unknown = documented.filter((name) => !spelled.has(name));
    assert.deepEqual(unknown, [], `in the README but not in --help: ${unknown.join(", ")}`);
    if (!complete) return;
    const others = command.length === 0
      ? [...readmeFlags("## OAuth 2.0"), ...readmeFlags("## TLS, client certificates and proxies")]
      : [...readmeFlags("## HTTP requests"), ...readmeFlags("## OAuth 2.0")];
    const missing = help.filter((f) =>
      ![f.long, f.short].some((n) => n && documented.includes(n)) &&
      !(command.length === 0 ? others.includes(f.long) : SHARED.test(f.long))
    ).map((f) => f.long);
    assert.deepEqual(missing, [], `in --help but not in the README: ${missing.join(", ")}`);
  });
}
