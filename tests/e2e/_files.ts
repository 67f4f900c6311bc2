/**
 * Helpers of the request-file tests: a temporary project directory, a login API, and httpyac
 * (npm), the peer they run the same files with.
 * @module
 */
import { dialEnv, serve } from "../_helpers.ts";
import { type ProgramResult, runProgram } from "../_process.ts";
import type { TestCase, TestReport } from "../../src/files/reporters.ts";

/**
 * Runs `httpyac send …args` (npm:httpyac@6.16.7) with the environment dial's test runs get.
 *
 * @param args the arguments after `send`: the file, `--all`, `--var`, `-o`, …
 * @param options the working directory, variables to add to the environment
 * @returns its exit code and output
 */
export async function httpyac(
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<ProgramResult> {
  return await runProgram(Deno.execPath(), [
    ...["run", "-A", "--quiet", "--no-config", "--no-lock", "npm:httpyac@6.16.7", "send"],
    ...args,
  ], { ...(options.cwd ? { cwd: options.cwd } : {}), clearEnv: true, env: dialEnv(options.env) });
}

/**
 * @param json the text of dial's JSON report (`dial test --reporter json`)
 * @returns its cases, in the order they ran
 */
export function reportCases(json: string): TestCase[] {
  return (JSON.parse(json) as TestReport).cases;
}

/** One httpyac test's result: its request's name and whether it passed. */
export interface HttpyacOutcome {
  request: string;
  passed: boolean;
}

/**
 * Runs `httpyac send FILE --all --json --var base=…` and reads each test's result.
 *
 * @param file the request file
 * @param base the value of its `{{base}}` variable
 * @returns each test's outcome, in the order httpyac ran them
 */
export async function httpyacOutcomes(file: string, base: string): Promise<HttpyacOutcome[]> {
  const output = await httpyac([file, "--all", "-o", "none", "--json", "--var", `base=${base}`]);
  const report = JSON.parse(output.stdout) as {
    requests: { name: string; testResults: { status: string }[] }[];
  };
  return report.requests.flatMap((r) =>
    r.testResults.map((t) => ({ request: r.name, passed: t.status === "SUCCESS" }))
  );
}

/** The folders `project` made in this test process: removed when it ends. */
const projects = new Set<string>();

function removeProjects(): void {
  for (const dir of projects) {
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch {
      // already gone (a test removed it)
    }
  }
  projects.clear();
}

/**
 * Writes files into a new temporary directory, removed when the test process ends (its tests may
 * share or keep a project until then).
 *
 * @param files paths (may hold directories) and their text
 * @returns the directory
 */
export async function project(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "dial-files-" });
  if (projects.size === 0) globalThis.addEventListener("unload", removeProjects);
  projects.add(dir);
  for (const [name, text] of Object.entries(files)) {
    await Deno.mkdir(`${dir}/${name}`.replace(/\/[^/]*$/, ""), { recursive: true });
    await Deno.writeTextFile(`${dir}/${name}`, text);
  }
  return dir;
}

/**
 * @param auths Security.Auth configurations by name (JetBrains' keys: "Type", "Grant Type", …)
 * @param environment the environment that holds them
 * @returns the text of an `http-client.env.json` with them
 */
export function securityAuthEnv(auths: Record<string, unknown>, environment = "dev"): string {
  return JSON.stringify({ [environment]: { Security: { Auth: auths } } });
}

/**
 * @param tokenUrl the token endpoint
 * @param clientId the client's id
 * @param secret the client secret as the file writes it (`{{secret}}`, `@exec:…`, a literal)
 * @returns a Security.Auth OAuth 2.0 configuration of the Client Credentials grant
 */
export function clientCredentialsAuth(
  tokenUrl: string,
  clientId: string,
  secret: string,
): Record<string, string> {
  return {
    "Type": "OAuth2",
    "Grant Type": "Client Credentials",
    "Token URL": tokenUrl,
    "Client ID": clientId,
    "Client Secret": secret,
  };
}

/** @returns a server: POST /login answers a token, /redirect redirects to /me, others echo */
export function loginServer() {
  return serve(async (request) => {
    const url = new URL(request.url);
    if (url.pathname === "/login") {
      const { user } = await request.json();
      return Response.json({ token: `tok-${user}` }, { headers: { "X-Session": "s-1" } });
    }
    if (url.pathname === "/redirect") return Response.redirect(new URL("/me", url), 302);
    return Response.json({
      path: url.pathname,
      query: url.search,
      authorization: request.headers.get("authorization"),
      session: request.headers.get("x-session"),
    });
  });
}

/**
 * The JetBrains spec's multipart example (section 3.2.3.1): a text part and a part from the file
 * `./input.txt`.
 *
 * @param origin where it is sent
 * @returns the request's text, ending with a newline
 */
export function jetbrainsMultipart(origin: string): string {
  return `POST ${origin}/api/upload
Content-Type: multipart/form-data; boundary=abcd

--abcd
Content-Disposition: form-data; name="text"

Text
--abcd
Content-Disposition: form-data; name="file_to_send"; filename="input.txt"

< ./input.txt
--abcd--
`;
}

/** Two requests chained by a handler's global and a REST Client request variable. */
export const CHAIN = `@base = {{origin}}

### login
# @name login
POST {{base}}/login
Content-Type: application/json

{"user": "{{user}}"}

> {%
  client.global.set("token", response.body.token);
%}

### me
# @name me
GET {{base}}/me?from={{login.response.body.$.token}}
Authorization: Bearer {{token}}
X-Session: {{login.response.headers.X-Session}}
`;
