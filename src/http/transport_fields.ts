/**
 * The TLS and proxy settings as a person gives them, and as `dial`'s flags name them: paths of
 * PEM files, the insecure switch, a proxy URL and a no-proxy list; never a file's contents or a
 * password. One shape for the CLI's flags, the UI's connection panel (its protocol) and the
 * workspace's saved settings; read into transport options by `transport_settings.ts`. It imports
 * nothing, so the browser's code can name it too.
 * @module
 */

/** The settings, as paths and values. */
export interface TransportSettings {
  /** PEM files to trust besides the default roots (`--cacert`). */
  cacert?: string[];
  /** Client certificate, PEM (`--cert`). */
  cert?: string;
  /** Its private key, unencrypted PEM (`--key`). */
  key?: string;
  /** Skip certificate verification (`-k`). */
  insecure?: boolean;
  /** Proxy URL (`--proxy`); "" for none. */
  proxy?: string;
  /** Hosts that bypass the proxy (`--noproxy`). */
  noproxy?: string;
}
