/**
 * Opening a browser without a secret on any command line: the URL (dial ui's launch URL, or an
 * OAuth 2.0 authorization URL with its `state`) goes into a 0600 HTML file in a private 0700
 * directory, which redirects to it, and the browser is started on the file (as Jupyter does).
 * dial ui removes the file once the page has traded its token; a login removes it when the
 * callback arrives or the login ends.
 * @module
 */

/** A handover file. */
export interface Handover {
  /** The `file://` URL to open: it carries no secret. */
  fileUrl: URL;
  /**
   * Removes the file and its directory at once (again is harmless): synchronous, so the file
   * is gone before the page gets its session.
   */
  remove(): void;
}

/**
 * @param path an absolute path
 * @returns its `file://` URL
 */
function fileUrl(path: string): URL {
  const slashed = path.replaceAll("\\", "/");
  return new URL(`file://${slashed.startsWith("/") ? "" : "/"}${encodeURI(slashed)}`);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Writes the handover page.
 *
 * @param launch the URL the page sends the browser to (it may hold a secret)
 * @returns the file's URL and a remover
 */
export async function writeHandover(launch: URL): Promise<Handover> {
  const dir = await Deno.makeTempDir({ prefix: "dial-open-" });
  if (Deno.build.os !== "windows") await Deno.chmod(dir, 0o700);
  const path = `${dir}/open.html`;
  const href = escapeHtml(launch.href);
  await Deno.writeTextFile(
    path,
    `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0;url=${href}">
<title>dial</title></head>
<body><p>Opening dial… <a href="${href}" rel="noopener noreferrer">continue</a></p></body></html>
`,
    { mode: 0o600, createNew: true },
  );
  return {
    fileUrl: fileUrl(path),
    remove: () => {
      try {
        Deno.removeSync(dir, { recursive: true });
      } catch {
        // removed already
      }
    },
  };
}
