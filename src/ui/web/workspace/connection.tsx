/**
 * The workspace's TLS and proxy settings in the sidebar: CA files, a client certificate and key,
 * Skip certificate checks (insecure), a proxy and the hosts that bypass it, the settings of
 * `dial`'s `--cacert`, `--cert`, `--key`, `-k`, `--proxy` and `--noproxy`, with those flags
 * shown beside them. The server keeps them in the workspace's `.dial/` (paths only) and sends
 * every request through them; the page keeps nothing in browser storage. While certificates go
 * unverified a warning stays at the top of the app.
 * @module
 */
import { signal } from "@preact/signals";
import type { JSX } from "preact";
import { useEffect } from "preact/hooks";
import { isRecord, postJson, toApiError } from "../api.ts";
import type { ConnectionAnswer, ConnectionSettingsJson } from "../../protocol.ts";
import { CheckField, Disclosure, type FormMessage, MessageLine, TextField } from "../fields.tsx";
import { workspaceRoot } from "./files.ts";

const open = signal(false);
const caFiles = signal("");
const cert = signal("");
const key = signal("");
const insecure = signal(false);
const proxy = signal("");
const noproxy = signal("");
const flags = signal<string[]>([]);
const message = signal<FormMessage>(undefined);
/** Whether certificates go unverified (the saved settings, or `dial ui -k`). */
const unverified = signal(false);

function show(answer: unknown): void {
  if (!isRecord(answer) || !isRecord(answer.settings)) return;
  const s = answer.settings as ConnectionSettingsJson;
  caFiles.value = (s.cacert ?? []).join(", ");
  cert.value = s.cert ?? "";
  key.value = s.key ?? "";
  insecure.value = s.insecure === true;
  proxy.value = s.proxy ?? "";
  noproxy.value = s.noproxy ?? "";
  flags.value = Array.isArray(answer.flags) ? answer.flags.map(String) : [];
  unverified.value = (answer as unknown as ConnectionAnswer).insecure === true;
  if (typeof answer.error === "string") {
    message.value = { text: `The saved settings are not in use: ${answer.error}`, error: true };
  }
}

/** The form's fields as one text, to tell whether they were edited while a load was on its way. */
function form(): string {
  return [caFiles, cert, key, insecure, proxy, noproxy].map((s) => String(s.peek())).join("\0");
}

async function load(): Promise<void> {
  const before = form();
  const answer = await postJson("/api/workspace/connection", {}).catch(() => undefined);
  // What the user typed meanwhile is kept: a late answer does not blank the form under them.
  if (form() === before) show(answer);
}

async function save(): Promise<void> {
  const settings: ConnectionSettingsJson = {
    cacert: caFiles.peek().split(",").map((p) => p.trim()).filter((p) => p !== ""),
    ...(cert.peek().trim() ? { cert: cert.peek().trim() } : {}),
    ...(key.peek().trim() ? { key: key.peek().trim() } : {}),
    ...(insecure.peek() ? { insecure: true } : {}),
    ...(proxy.peek().trim() ? { proxy: proxy.peek().trim() } : {}),
    ...(noproxy.peek().trim() ? { noproxy: noproxy.peek().trim() } : {}),
  };
  // The last answer goes at once: what shows next is this save's.
  message.value = undefined;
  try {
    show(await postJson("/api/workspace/connection/save", { settings }));
    message.value = { text: "Saved: later requests use these settings", error: false };
  } catch (error) {
    const e = toApiError(error);
    message.value = { text: `Not saved: ${e.message}${e.hint ? ` (${e.hint})` : ""}`, error: true };
  }
}

/** Quotes a flag's value for a shell when it needs it. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** @returns the TLS and proxy button and, when open, the settings */
export function ConnectionView(): JSX.Element {
  return (
    <Disclosure class="connection" label="TLS and proxy" open={open} onOpen={load}>
      <section aria-label="TLS and proxy settings">
        <p class="muted">Files are paths inside the workspace; only the paths are kept.</p>
        <TextField label="CA files" value={caFiles} placeholder="certs/ca.pem, other.pem" />
        <TextField label="Client certificate" value={cert} placeholder="certs/client.pem" />
        <TextField label="Client key" value={key} placeholder="unencrypted PEM" />
        <CheckField label="Skip certificate checks (insecure)" value={insecure} />
        <TextField label="Proxy" value={proxy} placeholder="http://127.0.0.1:3128" />
        <TextField label="No proxy" value={noproxy} placeholder="localhost,.internal" />
        <button type="button" onClick={() => void save()}>Save connection settings</button>
        <MessageLine message={message} />
        <p class="muted" aria-label="Same as">
          Same as: <code>dial {flags.value.map(shellWord).join(" ") || "(no flags)"}</code>
        </p>
      </section>
    </Disclosure>
  );
}

/** @returns the warning shown while certificates go unverified (nothing otherwise) */
export function InsecureWarning(): JSX.Element | null {
  const root = workspaceRoot.value;
  useEffect(() => void load(), [root]);
  if (!unverified.value) return null;
  return (
    <p role="alert" class="insecure-warning">
      TLS certificates are not verified (insecure): anyone on the network path can read and change
      these requests. Untick Skip certificate checks in TLS and proxy (and start dial ui without -k)
      to verify them again.
    </p>
  );
}
