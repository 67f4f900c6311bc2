/**
 * Defaults of the authorization-code flow, apart so that the command-line help can show
 * them without loading the `--oauth2` parser.
 * @module
 */

/** The default wait for the authorization-code callback: 300 s. */
export const DEFAULT_CALLBACK_TIMEOUT = 300_000;

/** The default callback port of the authorization-code flow. */
export const DEFAULT_CALLBACK_PORT = 8484;
