/**
 * A test "browser" for the authorization-code flow: dial runs `$BROWSER <url>` (a handover
 * file's URL, which it opens as a browser would, then the URL the file redirects to; its
 * arguments are logged as the first entry). It follows
 * redirects with a cookie jar, submits the provider's login and consent forms, and loads the
 * callback, like a person would. It writes what happened to $FAKE_BROWSER_LOG as JSON lines.
 *
 * FAKE_BROWSER_MODE: `login` (default), `forge` (first loads the callback with a wrong state,
 * then the real one), `deny` (clicks the provider's abort/cancel link), `none` (does nothing).
 * @module
 */

/** A browser given a file opens it: dial's handover page redirects to the real URL. */
async function opened(given: URL): Promise<URL> {
  if (given.protocol !== "file:") return given;
  const page = await Deno.readTextFile(given);
  const target = /http-equiv="refresh" content="0;url=([^"]*)"/.exec(page)?.[1] ?? "";
  return new URL(target.replace(/&#(\d+);/g, (_m, code) => String.fromCharCode(Number(code))));
}

const mode = Deno.env.get("FAKE_BROWSER_MODE") ?? "login";
const logPath = Deno.env.get("FAKE_BROWSER_LOG");
await log({ step: "argv", status: 0, body: JSON.stringify(Deno.args) });
const url = await opened(new URL(Deno.args.at(-1) ?? ""));
const callbackPort = Deno.env.get("FAKE_BROWSER_CALLBACK_PORT");

async function log(entry: Record<string, unknown>): Promise<void> {
  if (logPath) await Deno.writeTextFile(logPath, JSON.stringify(entry) + "\n", { append: true });
}

const jar = new Map<string, string>();

function remember(response: Response): void {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const eq = pair?.indexOf("=") ?? -1;
    if (!pair || eq <= 0) continue;
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (/expires=Thu, 01 Jan 1970/i.test(line) || value === "") jar.delete(name);
    else jar.set(name, value);
  }
}

function cookies(): string {
  return [...jar].map(([n, v]) => `${n}=${v}`).join("; ");
}

function isCallback(target: URL): boolean {
  const redirect = url.searchParams.get("redirect_uri");
  if (redirect) {
    const r = new URL(redirect);
    return target.host === r.host && target.pathname === r.pathname;
  }
  return callbackPort !== undefined && target.port === callbackPort;
}

function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}="([^"]*)"`, "i").exec(tag);
  return m?.[1]?.replaceAll("&amp;", "&").replaceAll("&#x2F;", "/").replaceAll("&#x3D;", "=");
}

async function loadCallback(target: URL): Promise<void> {
  if (mode === "forge") {
    const elsewhere = await fetch(new URL("/favicon.ico", target));
    await log({ step: "elsewhere", status: elsewhere.status, body: await elsewhere.text() });
    const missing = new URL(target);
    missing.searchParams.delete("state");
    const noState = await fetch(missing);
    await log({ step: "no-state", status: noState.status, body: await noState.text() });
    const forged = new URL(target);
    forged.searchParams.set("state", "forged-state");
    const response = await fetch(forged);
    await log({ step: "forged", status: response.status, body: await response.text() });
  }
  const response = await fetch(target);
  await log({ step: "callback", status: response.status, body: await response.text() });
}

let next: { url: URL; init: RequestInit } = { url, init: {} };
if (mode !== "none") {
  for (let step = 0; step < 30; step++) {
    if (isCallback(next.url)) {
      await loadCallback(next.url);
      break;
    }
    const headers = new Headers(next.init.headers);
    if (jar.size) headers.set("cookie", cookies());
    const response = await fetch(next.url, { ...next.init, headers, redirect: "manual" });
    remember(response);
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      next = { url: new URL(location, next.url), init: {} };
      continue;
    }
    const html = await response.text();
    if (mode === "deny") {
      const abort = /href="([^"]*abort[^"]*)"/i.exec(html)?.[1] ??
        /action="([^"]*abort[^"]*)"/i.exec(html)?.[1];
      if (abort) {
        next = { url: new URL(abort.replaceAll("&amp;", "&"), next.url), init: {} };
        continue;
      }
    }
    const form = /<form[^>]*>[\s\S]*?<\/form>/i.exec(html)?.[0];
    if (!form) {
      await log({ step: "stuck", status: response.status, url: next.url.href, body: html });
      break;
    }
    const action = attr(form.slice(0, form.indexOf(">") + 1), "action") ?? next.url.href;
    const fields = new URLSearchParams();
    for (const input of form.match(/<input[^>]*>/gi) ?? []) {
      const name = attr(input, "name");
      if (!name) continue;
      const value = attr(input, "value") ??
        (name === "login" ? "ann" : name === "password" ? "pw" : "");
      fields.set(name, value);
    }
    next = {
      url: new URL(action, next.url),
      init: {
        method: "POST",
        body: fields.toString(),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      },
    };
  }
}
