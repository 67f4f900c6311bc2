/**
 * The OAuth 2.0 client from flags: the packed `--oauth2 flow:url:id:secret` or its parts from
 * `--oauth2-token-url`, `--oauth2-client-id` and `--oauth2-client-secret` (which may be a
 * reference).
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import { type OAuth2Value, splitOAuth2Value } from "../auth/oauth2/parse_value.ts";
import { Secret } from "../secret.ts";
import type { FlagReference, FlagReferences } from "./secret_ref.ts";
import { parseUrl } from "../http/values.ts";

/** The separate client flags. */
export interface OAuth2ClientFlags {
  /** `--oauth2-token-url`. */
  oauth2TokenUrl?: string | undefined;
  /** `--oauth2-client-id`. */
  oauth2ClientId?: string | undefined;
  /** `--oauth2-client-secret`. */
  oauth2ClientSecret?: string | undefined;
  /** `--oauth2-issuer`: the token URL may then be left out. */
  oauth2Issuer?: string | undefined;
}

/** The client from flags; the token URL is absent when an issuer will supply it. */
export type OAuth2ClientValue = Omit<OAuth2Value, "tokenUrl"> & { tokenUrl?: URL };

const SHAPE = "write --oauth2 <flow>:<token_url>:<client_id>[:<client_secret>], " +
  "or --oauth2 <flow> with --oauth2-token-url (or --oauth2-issuer), --oauth2-client-id and --oauth2-client-secret";

/**
 * @param flags the separate client flags
 * @param text the `--oauth2` value
 * @param references the command line's references, read (see {@link clientSecretReferences})
 * @returns flow, token URL, client id and secret (references resolved)
 * @throws {UsageError} on a part given both ways or missing
 */
export function oauth2Value(
  flags: OAuth2ClientFlags,
  text: string,
  references: FlagReferences,
): OAuth2ClientValue {
  const parts = splitOAuth2Value(text);
  const both = (name: string) =>
    new UsageError(
      `The ${name} is given twice: in --oauth2 and as --oauth2-${name.replaceAll(" ", "-")}`,
      {
        hint: "give it one way",
      },
    );
  if (parts.tokenUrl && flags.oauth2TokenUrl !== undefined) throw both("token url");
  if (parts.clientId !== undefined && flags.oauth2ClientId !== undefined) throw both("client id");
  if (parts.clientSecret && flags.oauth2ClientSecret !== undefined) {
    throw both("client secret");
  }
  const tokenUrl = parts.tokenUrl ??
    (flags.oauth2TokenUrl === undefined ? undefined : parseUrl(flags.oauth2TokenUrl));
  if (!tokenUrl && flags.oauth2Issuer === undefined) {
    throw new UsageError("Missing token URL for --oauth2", { hint: SHAPE });
  }
  const clientId = parts.clientId ?? flags.oauth2ClientId;
  if (clientId === undefined || clientId === "") {
    throw new UsageError("Missing client id in --oauth2", { hint: SHAPE });
  }
  const secretText = parts.clientSecret?.reveal() ?? flags.oauth2ClientSecret;
  const flag = parts.clientSecret ? "--oauth2 client secret" : "--oauth2-client-secret";
  const secret = secretText === undefined ? undefined : references.text(secretText, flag);
  return {
    flow: parts.flow,
    ...(tokenUrl ? { tokenUrl } : {}),
    clientId,
    ...(secret ? { clientSecret: new Secret(secret) } : {}),
  };
}

/**
 * @param flags the separate client flags
 * @param text the `--oauth2` value
 * @returns the client secret, which may be a reference: the packed value's or
 * `--oauth2-client-secret`
 */
export function clientSecretReferences(flags: OAuth2ClientFlags, text: string): FlagReference[] {
  const packed = splitOAuth2Value(text).clientSecret?.reveal();
  if (packed !== undefined) return [{ flag: "--oauth2 client secret", value: packed }];
  const separate = flags.oauth2ClientSecret;
  return separate === undefined ? [] : [{ flag: "--oauth2-client-secret", value: separate }];
}
