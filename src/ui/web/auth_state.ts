/**
 * The shared auth panel's state. Held in memory only: credentials are never written to
 * storage, so a reload asks for them again.
 * @module
 */
import { computed, signal } from "@preact/signals";
import type { AuthJson, AuthKind, OAuth2Flow, Row } from "../protocol.ts";
import { DEFAULT_CALLBACK_PORT, DEFAULT_CALLBACK_TIMEOUT } from "../../auth/oauth2/defaults.ts";

export type { AuthKind, OAuth2Flow };

/** Labels for the kind picker. */
export const AUTH_LABELS: ReadonlyArray<[AuthKind, string]> = [
  ["none", "None"],
  ["basic", "Basic"],
  ["digest", "Digest"],
  ["bearer", "Bearer"],
  ["apikey", "API key"],
  ["oauth2", "OAuth 2.0"],
  ["aws-sigv4", "AWS Signature v4"],
];

/** Every field of the panel. */
export const auth = {
  kind: signal<AuthKind>("none"),
  username: signal(""),
  password: signal(""),
  token: signal(""),
  keyIn: signal<"header" | "query">("header"),
  keyName: signal("X-Api-Key"),
  keyValue: signal(""),
  sigv4: signal("aws:amz"),
  awsKeyId: signal(""),
  awsSecret: signal(""),
  awsSessionToken: signal(""),
  flow: signal<OAuth2Flow>("client_credentials"),
  tokenUrl: signal(""),
  issuer: signal(""),
  params: signal<Required<Row>[]>([]),
  clientId: signal(""),
  clientSecret: signal(""),
  scope: signal(""),
  authUrl: signal(""),
  deviceUrl: signal(""),
  oauthUsername: signal(""),
  oauthPassword: signal(""),
  port: signal(String(DEFAULT_CALLBACK_PORT)),
  clientAuth: signal<"basic" | "post" | "private_key_jwt" | "client_secret_jwt">("basic"),
  clientKey: signal(""),
  timeout: signal(String(DEFAULT_CALLBACK_TIMEOUT / 1000)),
};

/** The panel as the JSON the server parses. */
export const authJson = computed((): AuthJson => {
  switch (auth.kind.value) {
    case "none":
      return { kind: "none" };
    case "basic":
    case "digest":
      return {
        kind: auth.kind.value,
        username: auth.username.value,
        password: auth.password.value,
      };
    case "bearer":
      return { kind: "bearer", token: auth.token.value };
    case "apikey":
      return {
        kind: "apikey",
        in: auth.keyIn.value,
        name: auth.keyName.value,
        value: auth.keyValue.value,
      };
    case "aws-sigv4":
      return {
        kind: "aws-sigv4",
        sigv4: auth.sigv4.value,
        accessKeyId: auth.awsKeyId.value,
        secretAccessKey: auth.awsSecret.value,
        ...(auth.awsSessionToken.value ? { sessionToken: auth.awsSessionToken.value } : {}),
      };
    case "oauth2":
      return {
        kind: "oauth2",
        flow: auth.flow.value,
        tokenUrl: auth.tokenUrl.value,
        ...(auth.issuer.value.trim() ? { issuer: auth.issuer.value.trim() } : {}),
        ...(auth.params.value.length ? { params: auth.params.value } : {}),
        clientId: auth.clientId.value,
        clientSecret: auth.clientSecret.value,
        scope: auth.scope.value,
        clientAuth: auth.clientAuth.value,
        ...(auth.clientAuth.value === "private_key_jwt" ? { clientKey: auth.clientKey.value } : {}),
        ...(auth.flow.value === "authorization_code"
          ? { authUrl: auth.authUrl.value, port: auth.port.value, timeout: auth.timeout.value }
          : {}),
        ...(auth.flow.value === "device_code"
          ? { deviceUrl: auth.deviceUrl.value, timeout: auth.timeout.value }
          : {}),
        ...(auth.flow.value === "password"
          ? { username: auth.oauthUsername.value, password: auth.oauthPassword.value }
          : {}),
      };
  }
});
