/**
 * Binds a cached token to the secrets that obtained it: the entry keeps a salted, slow hash
 * (PBKDF2-SHA-256) of the client secret and, for the password flow, of the resource owner's
 * user name and password, never the secrets. A lookup with another secret does not match.
 * @module
 */
import type { OAuth2Options } from "./parse_value.ts";
import type { TokenEntry } from "./token_cache.ts";

/**
 * PBKDF2 rounds. A client secret is usually long and random, and every request with a cached
 * token checks it: 1,000 rounds cost about 0.3 ms, where 20,000 cost 3 ms of the 5 ms budget a
 * cached token has over `-B`. The entry already sits in a 0600 file beside the tokens it
 * guards. A person's password gets the slower hash, checked only in the password flow.
 */
const CLIENT_ROUNDS = 1_000;
const OWNER_ROUNDS = 100_000;
const PREFIX = "pbkdf2-sha256";

/** Bindings already checked in this process, so a run hashes each secret once. */
const checked = new Map<string, string>();

/**
 * @param text the secret text
 * @param rounds PBKDF2 iterations
 * @param salt 16 bytes; new random ones when absent
 * @returns `pbkdf2-sha256$<iterations>$<salt>$<hash>`, base64
 */
export async function hashSecret(
  text: string,
  rounds: number,
  salt?: Uint8Array,
): Promise<string> {
  const bytes = salt ?? crypto.getRandomValues(new Uint8Array(16));
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(text),
    "PBKDF2",
    false,
    ["deriveBits"],
  );
  const bits = await crypto.subtle.deriveBits(
    {
      name: "PBKDF2",
      hash: "SHA-256",
      salt: bytes as Uint8Array<ArrayBuffer>,
      iterations: rounds,
    },
    key,
    256,
  );
  const binding = `${PREFIX}$${rounds}$${bytes.toBase64()}$${new Uint8Array(bits).toBase64()}`;
  checked.set(binding, text);
  return binding;
}

/**
 * @param binding a stored binding, or undefined
 * @param text the secret given now, or undefined
 * @returns whether they match: both absent, or the hash of `text` with the binding's salt
 */
export async function matchesSecret(
  binding: string | undefined,
  text: string | undefined,
): Promise<boolean> {
  if (binding === undefined || text === undefined) return binding === text;
  if (checked.has(binding)) return checked.get(binding) === text;
  const [prefix, iterations, salt] = binding.split("$");
  const rounds = Number(iterations);
  const known = rounds === CLIENT_ROUNDS || rounds === OWNER_ROUNDS;
  if (prefix !== PREFIX || !known || salt === undefined) return false;
  let saltBytes: Uint8Array;
  try {
    saltBytes = Uint8Array.fromBase64(salt);
  } catch {
    return false;
  }
  checked.delete(binding);
  const again = await hashSecret(text, rounds, saltBytes);
  if (again === binding) return true;
  checked.delete(again);
  return false;
}

/**
 * @param options the OAuth 2.0 options
 * @returns the client secret text (or the private_key_jwt key), if any
 */
function clientSecretOf(options: OAuth2Options): string | undefined {
  return options.clientSecret?.reveal() ?? options.clientKey?.reveal();
}

/**
 * @param options the OAuth 2.0 options
 * @returns `user\0password` for the password flow when the password is known
 */
function ownerOf(options: OAuth2Options): string | undefined {
  if (options.flow !== "password" || options.password === undefined) return undefined;
  return `${options.username ?? ""}\0${options.password.reveal()}`;
}

/**
 * Whether a cached entry may be handed out for these options: the client secret must match;
 * for the password flow the user name and password must match too, unless no password was
 * given (then the cache is used before anything asks for one).
 *
 * @param entry a cached entry
 * @param options the OAuth 2.0 options of this run
 * @returns whether the entry belongs to these secrets
 */
export async function entryMatches(entry: TokenEntry, options: OAuth2Options): Promise<boolean> {
  if (!await matchesSecret(entry.clientBinding, clientSecretOf(options))) return false;
  const owner = ownerOf(options);
  if (options.flow !== "password" || owner === undefined) return true;
  return await matchesSecret(entry.ownerBinding, owner);
}

/**
 * Stamps an entry with the bindings of these options (a refresh without a password keeps the
 * owner binding it had).
 *
 * @param entry a new or refreshed entry
 * @param options the OAuth 2.0 options of this run
 * @returns the entry with its bindings
 */
export async function bindEntry(entry: TokenEntry, options: OAuth2Options): Promise<TokenEntry> {
  const { clientBinding: _c, ownerBinding: previousOwner, ...rest } = entry;
  const secret = clientSecretOf(options);
  const owner = ownerOf(options);
  const ownerBinding = owner === undefined ? previousOwner : await hashSecret(owner, OWNER_ROUNDS);
  return {
    ...rest,
    ...(secret !== undefined ? { clientBinding: await hashSecret(secret, CLIENT_ROUNDS) } : {}),
    ...(ownerBinding !== undefined ? { ownerBinding } : {}),
  };
}
