/**
 * The request command's words and method flags to a method, a URL and request items:
 * `dial [METHOD] <url> [items…]`, with curl's `-X METHOD`, `-I` (HEAD), `-T` (PUT) and `-G`
 * (GET). Two ways of naming the method that disagree are a usage error naming both.
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import { hasScheme, parseMethod } from "../http/values.ts";
import { methodAndUrl } from "./flag_values.ts";

/** The method-choosing flags. */
export interface MethodFlags {
  /** `-X`. */
  request?: string | undefined;
  /** `-I`. */
  head: boolean;
  /** `-T`. */
  uploadFile?: string | undefined;
  /** `-G`. */
  get: boolean;
}

/** The words split. */
export interface Words {
  /** The METHOD argument, if given. */
  methodWord?: string;
  /** The URL argument. */
  urlWord: string;
  /** The words after the URL. */
  items: string[];
  /** The argument number of the first item (for messages). */
  itemPosition: number;
}

/**
 * Splits the words: with two or more, the first is the method unless it reads as a URL (has
 * a scheme, a `.`, a `:` or a `/`), as in HTTPie; the rest after the URL are items.
 *
 * @param words the positional words (at least one)
 * @returns the method word, the URL word and the items
 */
export function splitWords(words: readonly string[]): Words {
  const first = words[0]!;
  if (words.length === 1 || hasScheme(first) || /[.:/]/.test(first)) {
    return { urlWord: first, items: words.slice(1), itemPosition: 2 };
  }
  return { methodWord: first, urlWord: words[1]!, items: words.slice(2), itemPosition: 3 };
}

/**
 * @param words the split words
 * @param flags -X, -I, -T, -G
 * @param hasBody whether a body is given (then the default method is POST)
 * @returns the method and the URL
 * @throws {UsageError} on a missing URL or two methods that disagree
 */
export function requestTarget(
  words: Words,
  flags: MethodFlags,
  hasBody: boolean,
): { method: string; url: URL } {
  const { methodWord, urlWord } = words;
  if (methodWord === "-") {
    throw new UsageError('A lone "-" is not a method', {
      hint: "-o -, -T - and -C - take it as their value; give the method as a word (GET, POST…)",
    });
  }
  const parsed = methodWord === undefined
    ? methodAndUrl(urlWord, undefined, hasBody)
    : methodAndUrl(methodWord, urlWord, hasBody);
  const fromFlags = [
    flags.request !== undefined &&
    { name: `-X ${flags.request}`, method: parseMethod(flags.request) },
    flags.head && { name: "-I", method: "HEAD" },
  ].filter((m) => m !== false);
  const all = [
    ...(methodWord === undefined ? [] : [{ name: `"${methodWord}"`, method: parsed.method }]),
    ...fromFlags,
  ];
  const differing = all.find((m) => m.method !== all[0]!.method);
  if (differing) {
    throw new UsageError(`Conflicting methods ${all[0]!.name} and ${differing.name}: give one`, {
      hint: "the METHOD argument, -X and -I each name the method",
    });
  }
  const method = all[0]?.method ??
    (flags.uploadFile !== undefined ? "PUT" : flags.get ? "GET" : parsed.method);
  let url = parsed.url;
  if (flags.uploadFile !== undefined && flags.uploadFile !== "-" && url.pathname.endsWith("/")) {
    // curl -T: a URL without a file name gets the uploaded file's.
    url = new URL(url);
    url.pathname += encodeURIComponent(flags.uploadFile.split(/[\\/]/).pop()!);
  }
  return { method, url };
}
