/**
 * `--aws-sigv4` and its credentials: `-u KEY:SECRET` (references allowed), else
 * `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY`; the session token from `--aws-session-token`
 * or `AWS_SESSION_TOKEN`. Loaded only when one of the flags is given.
 * @module
 */
import type { Authorization } from "../auth/auth_spec.ts";
import { parseSigV4Value } from "../auth/sigv4_value.ts";
import { UsageError } from "../errors/mod.ts";
import { Secret } from "../secret.ts";
import type { FlagReferences } from "./secret_ref.ts";
import type { CliContext } from "./context.ts";

/** The flags this reads. */
export interface SigV4Flags {
  /** `--aws-sigv4`. */
  awsSigv4?: string | undefined;
  /** `--aws-session-token`. */
  awsSessionToken?: string | undefined;
}

/**
 * @param flags `--aws-sigv4` and `--aws-session-token`
 * @param setters the other flags that set Authorization (`-u` is the key pair here)
 * @param basic what `-u` gave, if it was given
 * @param references the command line's references, read (`--aws-session-token`)
 * @param context the run: its environment (the `AWS_*` variables)
 * @returns the SigV4 authorization
 * @throws {UsageError} without credentials, with a flag that sets Authorization otherwise, or
 * for a bad value
 */
export function sigv4Authorization(
  flags: SigV4Flags,
  setters: string[],
  basic: Authorization | undefined,
  references: FlagReferences,
  context: CliContext,
): Authorization {
  if (flags.awsSigv4 === undefined) throw new UsageError("--aws-session-token needs --aws-sigv4");
  const other = setters.find((s) => s !== "-u");
  if (other) {
    throw new UsageError(`Conflicting flags --aws-sigv4 and ${other}`, {
      hint: "--aws-sigv4 signs with the key pair of -u KEY:SECRET or AWS_ACCESS_KEY_ID",
    });
  }
  const value = parseSigV4Value(flags.awsSigv4);
  let accessKeyId: string;
  let secretAccessKey: Secret;
  let sessionToken: Secret | undefined;
  if (basic?.kind === "basic") {
    accessKeyId = basic.username;
    secretAccessKey = basic.password;
  } else {
    const id = context.env("AWS_ACCESS_KEY_ID");
    const secret = context.env("AWS_SECRET_ACCESS_KEY");
    if (!id || !secret) {
      throw new UsageError("--aws-sigv4 needs credentials", {
        hint:
          "give -u ACCESS_KEY_ID:SECRET (the secret may be @file, @- or @env:NAME), or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY",
      });
    }
    accessKeyId = id;
    secretAccessKey = new Secret(secret);
    const token = context.env("AWS_SESSION_TOKEN");
    if (token) sessionToken = new Secret(token);
  }
  if (flags.awsSessionToken !== undefined) {
    sessionToken = new Secret(references.text(flags.awsSessionToken, "--aws-session-token"));
  }
  return {
    kind: "aws-sigv4",
    sigv4: { ...value, accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) },
  };
}
