/**
 * What the device authorization grant shows the person logging in (plain data, no imports).
 * @module
 */

/** What the person must do to log in, as the device authorization endpoint said. */
export interface DeviceCodePrompt {
  /** The page where the code is entered. */
  verificationUri: string;
  /** The same page with the code filled in, when the provider gives one. */
  verificationUriComplete?: string;
  /** The code to enter. */
  userCode: string;
  /** How long the code is valid, in seconds. */
  expiresIn: number;
  /** The configuration asks for the page to be opened in the browser (`"Open Complete URI"`). */
  openPage?: boolean;
}
