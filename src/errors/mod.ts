/**
 * Errors as data: the one table of error codes and exit codes, the facts an error carries
 * (`details`) and what the user can do about it (`remedy`).
 *
 * Every failure dial reports is a {@link DialError}: a sentence-case message with details after
 * a colon, a stable `code` from {@link ErrorCode}, and an `exitCode` that follows from the code
 * in {@link ERRORS}. The core never words a hint: it names a structured {@link Remedy}
 * (`{ raise: "timeout" }`, `{ check: "credentials" }`), and each face words it in its own
 * terms: the CLI as flags (`raise --timeout`), the UI as its controls (`raise Timeout in the
 * tab`). An error of a face itself (a bad flag, a bad field) may carry a worded `hint`.
 *
 * The parts: `codes.ts` (the table, the facts), `remedy.ts` (the remedies and how a face words
 * them), `classes.ts` (the base class and its subclasses), `from_runtime.ts` (a failed `fetch` or
 * write as a DialError) and `runtime_messages.ts` (the runtime's own wording, matched in one
 * table; internal, not re-exported).
 * @module
 */
export * from "./codes.ts";
export * from "./remedy.ts";
export * from "./classes.ts";
export * from "./from_runtime.ts";
