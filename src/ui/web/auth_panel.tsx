/**
 * The auth panel shared by every tab: None, Basic, Bearer, API key, OAuth 2.0 with the same
 * fields and semantics as the CLI flags. Values stay in memory; tokens stay on the server.
 * @module
 */
import type { JSX } from "preact";
import { auth, AUTH_LABELS, type OAuth2Flow } from "./auth_state.ts";
import { SelectField, TextField } from "./fields.tsx";
import { TokenState } from "./token_state.tsx";

const FLOWS: ReadonlyArray<[OAuth2Flow, string]> = [
  ["client_credentials", "Client credentials"],
  ["authorization_code", "Authorization code (PKCE)"],
  ["password", "Password"],
];

/** @returns the auth panel */
export function AuthPanel(): JSX.Element {
  const kind = auth.kind.value;
  return (
    <section class="auth" aria-label="Authentication">
      <SelectField label="Auth" value={auth.kind} options={AUTH_LABELS} />
      {kind === "basic" && (
        <>
          <TextField label="Username" value={auth.username} />
          <TextField label="Password" type="password" value={auth.password} />
        </>
      )}
      {kind === "bearer" && <TextField label="Token" type="password" value={auth.token} />}
      {kind === "apikey" && (
        <>
          <SelectField
            label="Add to"
            value={auth.keyIn}
            options={[["header", "Header"], ["query", "Query parameter"]]}
          />
          <TextField label="Key name" value={auth.keyName} />
          <TextField label="Key value" type="password" value={auth.keyValue} />
        </>
      )}
      {kind === "oauth2" && <OAuth2Fields />}
    </section>
  );
}

function OAuth2Fields(): JSX.Element {
  const flow = auth.flow.value;
  return (
    <>
      <SelectField label="Flow" value={auth.flow} options={FLOWS} />
      <TextField label="Token URL" type="url" value={auth.tokenUrl} />
      <TextField label="Client ID" value={auth.clientId} />
      <TextField label="Client secret" type="password" value={auth.clientSecret} />
      <TextField label="Scope" value={auth.scope} placeholder="space-separated" />
      {flow === "authorization_code" && (
        <>
          <TextField label="Authorization URL" type="url" value={auth.authUrl} />
          <TextField label="Callback port" value={auth.port} class="narrow" />
        </>
      )}
      {flow === "password" && (
        <>
          <TextField label="OAuth username" value={auth.oauthUsername} />
          <TextField label="OAuth password" type="password" value={auth.oauthPassword} />
        </>
      )}
      <TokenState />
    </>
  );
}
