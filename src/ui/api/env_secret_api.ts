/**
 * Secrets entered in the UI go into `http-client.private.env.json` beside the request's file
 * (JetBrains' place for them), as a value or as a reference the files format resolves
 * (`@env:NAME`, `@path`): never into the public, committed file, never into `.dial/` or the
 * browser's storage. A private file that git tracks is refused: it would be committed.
 * @module
 */
import { PRIVATE_ENV_FILE } from "../../files/environment.ts";
import { UsageError } from "../../errors/mod.ts";
import type { ApiContext } from "./http_api.ts";
import { workspaceCall } from "./workspace_api.ts";
import { isObject, optionalString, string } from "./decode.ts";
import { checkEnvFiles, folderOf } from "./environment_api.ts";

/** A variable name the files format can substitute: no braces, spaces or a leading `$`. */
const NAME = /^[A-Za-z_][\w.-]*$/;

/**
 * Asks git whether it tracks or ignores a file; no git or no repository says neither.
 *
 * @param dir the file's folder
 * @param name the file's name
 * @returns `tracked`, `ignored`, `open` (in a repository, neither), or `none`
 */
async function gitStanding(
  dir: string,
  name: string,
): Promise<"tracked" | "ignored" | "open" | "none"> {
  const git = async (...args: string[]) => {
    try {
      const { code } = await new Deno.Command("git", {
        args: ["-C", dir, ...args],
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).output();
      return code;
    } catch {
      return -1; // no git
    }
  };
  if (await git("rev-parse", "--is-inside-work-tree") !== 0) return "none";
  if (await git("ls-files", "--error-unmatch", name) === 0) return "tracked";
  return await git("check-ignore", "-q", name) === 0 ? "ignored" : "open";
}

/**
 * `POST /api/workspace/environments/secret`: `{file?, environment, name, value}` or `{…, env}`
 * (an `@env:NAME` reference) or `{…, path}` (an `@path` reference, a file inside the workspace)
 * → `{saved: "<private file>", note?}`. The value itself is never answered.
 *
 * @param request the call
 * @param context the workspace
 * @returns where it was saved, and a note when git does not ignore the file
 */
export async function handleEnvironmentSecret(
  request: Request,
  context: ApiContext,
): Promise<Response> {
  const { workspace, json } = await workspaceCall(
    request,
    context,
    "Secrets need a workspace: start dial ui in a folder",
  );
  const environment = string(json.environment ?? "", "environment").trim();
  if (environment === "") {
    throw new UsageError("Choose an environment first", {
      hint: "a secret belongs to one environment (or $shared)",
    });
  }
  if (environment === "__proto__") throw new UsageError(`Invalid environment "${environment}"`);
  const name = string(json.name ?? "", "name").trim();
  // "Security" holds the Security.Auth configurations, not a variable.
  if (!NAME.test(name) || name === "Security" || name === "__proto__") {
    throw new UsageError(`Invalid variable name "${name}"`, {
      hint: "letters, digits, _ . - and no braces or spaces, e.g. token",
    });
  }
  const env = optionalString(json.env, "env")?.trim();
  const path = optionalString(json.path, "path")?.trim();
  let value: string;
  if (env !== undefined) {
    if (!/^[A-Za-z_]\w*$/.test(env)) throw new UsageError(`Invalid environment variable "${env}"`);
    value = `@env:${env}`;
  } else if (path !== undefined) {
    // Inside the workspace, and there; written relative to the environment file's folder, where
    // references are read from (src/files/trust_rule.ts).
    const real = await workspace.resolve(path);
    const dir = await folderOf(workspace, optionalString(json.file, "file"));
    value = `@${relativeTo(dir, real)}`;
  } else {
    const text = string(json.value ?? "", "value");
    // A literal starting with @ is written @@, as the files format escapes it.
    value = text.startsWith("@") ? `@${text}` : text;
  }
  const dir = await folderOf(workspace, optionalString(json.file, "file"));
  await checkEnvFiles(workspace, dir);
  const relative = dir === workspace.root
    ? PRIVATE_ENV_FILE
    : `${workspace.relative(dir)}/${PRIVATE_ENV_FILE}`;
  const standing = await gitStanding(dir, PRIVATE_ENV_FILE);
  if (standing === "tracked") {
    throw new UsageError(
      `Not saved: ${relative} is tracked by git, so a secret in it would be committed`,
      {
        hint: `run git rm --cached ${relative} and add it to .gitignore`,
      },
    );
  }
  const real = await workspace.resolve(relative, { create: true });
  let data: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(await Deno.readTextFile(real));
    if (!isObject(parsed)) throw new SyntaxError("not an object");
    data = parsed;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      throw new UsageError(`Not saved: ${relative} is not a JSON object; fix it by hand first`);
    }
  }
  const block = isObject(data[environment]) ? data[environment] : {};
  data[environment] = { ...block, [name]: value };
  const temporary = `${real}.${crypto.randomUUID()}.tmp`;
  await Deno.writeTextFile(temporary, JSON.stringify(data, null, 2) + "\n", {
    createNew: true,
    mode: 0o600,
  });
  await Deno.rename(temporary, real);
  return Response.json({
    saved: relative,
    ...(standing === "open"
      ? { note: `${relative} is not ignored by git: add it to .gitignore before you commit` }
      : {}),
  });
}

/** `to` written relative to the folder `from` (both real paths inside the workspace). */
function relativeTo(from: string, to: string): string {
  const a = from.split("/").filter((p) => p !== "");
  const b = to.split("/").filter((p) => p !== "");
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  const up = a.slice(common).map(() => "..");
  const path = [...up, ...b.slice(common)].join("/");
  return path;
}
