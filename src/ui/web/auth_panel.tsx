/**
 * The auth panel shared by every tab: None, Basic, Bearer, API key, OAuth 2.0 with the same
 * fields and semantics as the CLI flags. Values stay in memory; tokens stay on the server.
 * @module
 */
import { signal } from "@preact/signals";
import type { JSX } from "preact";
import { auth, AUTH_LABELS, type OAuth2Flow } from "./auth_state.ts";
import { AuthOrigins } from "./auth_scope.tsx";
import { RowTable, SelectField, TextField } from "./fields.tsx";
import { TokenState } from "./token_state.tsx";

const FLOWS: ReadonlyArray<[OAuth2Flow, string]> = [
  ["client_credentials", "Client credentials"],
  ["authorization_code", "Authorization code (PKCE)"],
  ["password", "Password"],
  ["device_code", "Device code (login elsewhere)"],
];

/** Whether the panel shows only the auth kind (more room for the editors). */
const collapsed = signal(false);

/** @returns the auth panel */
export function AuthPanel(): JSX.Element {
  const kind = auth.kind.value;
  const toggle = (
    <button
      type="button"
      class="auth-toggle"
      aria-expanded={!collapsed.value}
      aria-controls="auth-fields"
      onClick={() => collapsed.value = !collapsed.value}
    >
      {collapsed.value ? "Show auth settings" : "Hide auth settings"}
    </button>
  );
  if (collapsed.value && kind !== "none") {
    return (
      <section class="auth collapsed" aria-label="Authentication">
        <SelectField label="Auth" value={auth.kind} options={AUTH_LABELS} />
        <AuthOrigins />
        {toggle}
      </section>
    );
  }
  return (
    <section class="auth" aria-label="Authentication" id="auth-fields">
      <SelectField label="Auth" value={auth.kind} options={AUTH_LABELS} />
      {(kind === "basic" || kind === "digest") && (
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
      {kind === "aws-sigv4" && (
        <>
          <TextField
            label="Provider:region:service"
            value={auth.sigv4}
            placeholder="aws:amz:us-east-1:s3 (region and service from the host when left out)"
          />
          <TextField label="Access key ID" value={auth.awsKeyId} />
          <TextField label="Secret access key" type="password" value={auth.awsSecret} />
          <TextField label="Session token" type="password" value={auth.awsSessionToken} />
        </>
      )}
      {kind !== "none" && <AuthOrigins />}
      {kind !== "none" && toggle}
    </section>
  );
}

function OAuth2Fields(): JSX.Element {
  const flow = auth.flow.value;
  return (
    <>
      <SelectField label="Flow" value={auth.flow} options={FLOWS} />
      <TextField label="Token URL" type="url" value={auth.tokenUrl} class="url" />
      <TextField label="Client ID" value={auth.clientId} />
      <TextField label="Client secret" type="password" value={auth.clientSecret} />
      <TextField label="Scope" value={auth.scope} placeholder="space-separated" />
      <SelectField
        label="Client authentication"
        value={auth.clientAuth}
        options={[
          ["basic", "Basic (client_secret_basic)"],
          ["post", "In the body (client_secret_post)"],
          ["client_secret_jwt", "Signed, secret (client_secret_jwt)"],
          ["private_key_jwt", "Signed, key (private_key_jwt)"],
        ]}
      />
      {auth.clientAuth.value === "private_key_jwt" && (
        <TextField
          label="Client private key (PEM)"
          type="password"
          value={auth.clientKey}
          placeholder="-----BEGIN PRIVATE KEY-----…"
        />
      )}
      {flow === "authorization_code" && (
        <>
          <TextField label="Authorization URL" type="url" value={auth.authUrl} class="url" />
          <TextField label="Callback port" value={auth.port} class="narrow" />
          <TextField label="Login timeout (s)" value={auth.timeout} class="narrow" />
        </>
      )}
      {flow === "device_code" && (
        <>
          <TextField
            label="Device authorization URL"
            type="url"
            value={auth.deviceUrl}
            class="url"
          />
          <TextField label="Login timeout (s)" value={auth.timeout} class="narrow" />
        </>
      )}
      {flow === "password" && (
        <>
          <TextField label="OAuth username" value={auth.oauthUsername} />
          <TextField label="OAuth password" type="password" value={auth.oauthPassword} />
        </>
      )}
      {/* Folded by default: most providers need neither, and the editors keep the room. */}
      <details class="auth-more" open={auth.issuer.value !== "" || auth.params.value.length > 0}>
        <summary>Issuer and extra parameters</summary>
        <TextField
          label="Issuer"
          type="url"
          value={auth.issuer}
          class="url"
          placeholder="discovers the endpoints left empty"
        />
        <RowTable label="Extra parameters (audience, resource …)" rows={auth.params} />
      </details>
      <TokenState />
    </>
  );
}
