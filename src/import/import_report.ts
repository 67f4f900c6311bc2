/**
 * The migration report of one import (`dial import --report-file`): what the collection held,
 * what was carried into the request files (requests, scripts, assertions), the secrets moved to
 * the private environment, and each loss with its reason.
 * @module
 */
import type { ImportResult } from "./import_model.ts";
import type { ImportFile } from "./write_import.ts";

/** The report, as written to `--report-file`. */
export interface MigrationReport {
  /** The format read (`postman`, `insomnia`, `bruno`, `curl`, `har`, `openapi`). */
  format: string;
  /** The collection's name. */
  collection: string;
  /** Requests found and carried. */
  requests: { found: number; carried: number };
  /** Scripts found and carried (as handlers). */
  scripts: { found: number; carried: number };
  /** Assertions found and carried (in carried scripts). */
  assertions: { found: number; carried: number };
  /** Secrets moved to `http-client.private.env.json`. */
  secretsMoved: Array<{ where: string; what: string; variable: string }>;
  /** What was not carried, and why. */
  losses: Array<{ where: string; what: string }>;
  /** The files written. */
  files: string[];
}

/**
 * @param result the import
 * @param files the files it was laid out as
 * @returns its migration report
 */
export function migrationReport(
  result: ImportResult,
  files: readonly ImportFile[],
): MigrationReport {
  const c = result.counts;
  return {
    format: result.format,
    collection: result.name,
    requests: { found: c.requests, carried: result.requests.length },
    scripts: { found: c.scripts, carried: c.scriptsCarried },
    assertions: { found: c.assertions, carried: c.assertionsCarried },
    secretsMoved: result.moved.map((m) => ({ ...m })),
    losses: result.losses.map((l) => ({ ...l })),
    files: files.map((f) => f.name),
  };
}
