/**
 * The workspace's cookie jar in the sidebar: what the responses set (kept by the server for
 * this run, sent back by the CLI's jar rules), listed on demand and clearable.
 * @module
 */
import { signal } from "@preact/signals";
import type { JSX } from "preact";
import { Disclosure } from "../fields.tsx";
import { isRecord, postJson } from "../api.ts";

interface CookieRow {
  name: string;
  value: string;
  domain: string;
  path: string;
  secure: boolean;
  expires: number;
}

const open = signal(false);
const cookies = signal<CookieRow[]>([]);

async function refresh(): Promise<void> {
  const answer = await postJson("/api/cookies", {}).catch(() => undefined);
  cookies.value = isRecord(answer) && Array.isArray(answer.cookies)
    ? answer.cookies.filter(isRecord).map((c) => ({
      name: String(c.name),
      value: String(c.value),
      domain: String(c.domain),
      path: String(c.path),
      secure: c.secure === true,
      expires: Number(c.expires),
    }))
    : [];
}

/** @returns the Cookies button and, when open, the jar */
export function CookieJarView(): JSX.Element {
  return (
    <Disclosure class="cookie-jar" label="Cookies" open={open} onOpen={refresh}>
      <section aria-label="Cookie jar">
        {cookies.value.length === 0 ? <p class="muted">No cookies yet.</p> : (
          <table class="headers">
            <tbody>
              {cookies.value.map((c) => (
                <tr key={`${c.domain}${c.path}${c.name}`}>
                  <th scope="row">{c.name}</th>
                  <td>{c.value}</td>
                  <td>{c.domain}{c.path}</td>
                  <td>
                    {c.expires ? new Date(c.expires * 1000).toISOString().slice(0, 16) : "session"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <button
          type="button"
          onClick={() => void postJson("/api/cookies/clear", {}).then(refresh).catch(() => {})}
        >
          Clear cookies
        </button>
      </section>
    </Disclosure>
  );
}
