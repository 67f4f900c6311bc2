/**
 * The error module moved to `src/errors/` (entry `src/errors/mod.ts`). This file only forwards
 * to it, for branches written before the move; import `src/errors/mod.ts` instead. It goes
 * once those branches have landed.
 * @module
 */
export * from "./errors/mod.ts";
