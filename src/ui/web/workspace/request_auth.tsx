/**
 * Auth of a request from a file: its own `Authorization` header, often
 * `Bearer {{$auth.token("id")}}` (an environment's `Security.Auth` configuration, JetBrains'
 * format), never the auth panel's. The line above the request says which auth it sends; for a
 * Security.Auth configuration it shows the token's state with Get token or Log in (the same
 * token step and cache as the panel, Send and the runner); a request without one is offered the
 * environment's configurations. The panel stays for requests that are not from a file.
 * @module
 */
import { computed } from "@preact/signals";
import type { JSX } from "preact";
import { useEffect, useMemo } from "preact/hooks";
import { currentDraft, sendCount, setHeaders } from "../http/http_tab.tsx";
import { activeSource } from "./request_tabs.tsx";
import { chosenEnvironment, securityAuths } from "./environments.tsx";
import { tokenTracker, TokenView } from "../token_state.tsx";
import { auth } from "../auth_state.ts";

const AUTH_TOKEN = /\{\{\s*\$auth\.(?:token|idToken)\(\s*"([^"]*)"\s*\)\s*\}\}/;

/** The active file request's Authorization header, when it has one switched on. */
const authorization = computed(() =>
  currentDraft.value.headers.find((h) =>
    h.enabled && h.name.trim().toLowerCase() === "authorization"
  )
);

/** The `Security.Auth` id its Authorization header names, if any. */
const securityAuthId = computed(() => AUTH_TOKEN.exec(authorization.value?.value ?? "")?.[1]);

/** Adds `Authorization: Bearer {{$auth.token("id")}}` to the active request. */
function addSecurityAuth(id: string): void {
  const rows = currentDraft.peek().headers.filter((h) =>
    h.name.trim().toLowerCase() !== "authorization"
  );
  setHeaders([...rows, {
    name: "Authorization",
    value: `Bearer {{$auth.token("${id}")}}`,
    enabled: true,
  }]);
}

function SecurityAuthToken(props: { id: string; grant: string | undefined }): JSX.Element {
  const file = activeSource.value?.path;
  const environment = chosenEnvironment.value;
  const login = (props.grant ?? "authorization code").toLowerCase() === "authorization code";
  const tracker = useMemo(
    () =>
      tokenTracker(
        () => ({
          securityAuth: {
            id: props.id,
            ...(environment ? { environment } : {}),
            ...(file ? { file } : {}),
          },
        }),
        () => login,
      ),
    [props.id, environment, file, login],
  );
  // Asked again after each send: Send may have obtained or refreshed the token.
  useEffect(() => void tracker.refresh(), [tracker, sendCount.value]);
  return <TokenView tracker={tracker} login={login} label={`Security.Auth ${props.id}`} />;
}

/** @returns the auth line of a request from a file (nothing for other tabs) */
export function RequestAuthLine(): JSX.Element | null {
  if (!activeSource.value) return null;
  const header = authorization.value;
  const id = securityAuthId.value;
  const configs = securityAuths.value;
  const panelSet = auth.kind.value !== "none";
  let says: string;
  if (id !== undefined) {
    const config = configs.find((c) => c.id === id);
    says = config
      ? `Security.Auth "${id}" of ${chosenEnvironment.value} (${config.grant})`
      : `Security.Auth "${id}", which ${
        chosenEnvironment.value
          ? `${chosenEnvironment.value} does not define`
          : "needs an environment"
      }`;
  } else if (header) says = "the request's Authorization header";
  else says = "none: this request has no Authorization header";
  const config = id === undefined ? undefined : configs.find((c) => c.id === id);
  return (
    <section class="request-auth" aria-label="Request auth">
      <p>
        <strong>Auth:</strong> {says}
        {panelSet && (
          <span class="muted">
            {" "}(the auth panel applies to requests that are not from a file)
          </span>
        )}
      </p>
      {config && <SecurityAuthToken id={config.id} grant={config.grant} />}
      {!header && configs.map((c) => (
        <button
          type="button"
          key={c.id}
          onClick={() => addSecurityAuth(c.id)}
        >
          Use Security.Auth "{c.id}"
        </button>
      ))}
    </section>
  );
}
