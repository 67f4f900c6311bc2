/**
 * The `--aws-sigv4` value as plain data (no crypto: the CLI parses it before anything loads).
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import type { Secret } from "../secret.ts";

/** The `--aws-sigv4` value and the credentials, as plain data. */
export interface SigV4Options {
  /** The first provider: `aws` makes `AWS4-HMAC-SHA256`, `AWS4` + secret and `aws4_request`. */
  provider1: string;
  /** The second provider: `amz` makes the `X-Amz-Date` family of headers. */
  provider2: string;
  /** The region; inferred from the host when absent. */
  region?: string;
  /** The service; inferred from the host when absent. */
  service?: string;
  /** The access key id (`-u KEY:…`, `AWS_ACCESS_KEY_ID`). */
  accessKeyId: string;
  /** The secret access key. */
  secretAccessKey: Secret;
  /** A session token of temporary credentials (`AWS_SESSION_TOKEN`), sent and signed. */
  sessionToken?: Secret;
}

/**
 * Splits an `--aws-sigv4` value as curl does.
 *
 * @param value e.g. `aws:amz:us-east-1:s3`
 * @returns the providers, and region and service when given
 * @throws {UsageError} for an empty part
 */
export function parseSigV4Value(
  value: string,
): Pick<SigV4Options, "provider1" | "provider2" | "region" | "service"> {
  const parts = value.split(":");
  if (parts.length > 4 || parts.some((p) => p === "")) {
    throw new UsageError(`Invalid AWS SigV4 value "${value}"`, {
      remedy: { write: "sigv4" },
    });
  }
  const [provider1, provider2, region, service] = parts as [string, ...string[]];
  return {
    provider1,
    provider2: provider2 ?? provider1,
    ...(region !== undefined ? { region } : {}),
    ...(service !== undefined ? { service } : {}),
  };
}
