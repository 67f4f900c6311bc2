/**
 * A request tab's fields as browser storage may hold them, and back. A tab is its text: its
 * `{{…}}` references are kept verbatim ({@link isLiteralSecret}); only literal credential
 * values are withheld, each named by its slot, so a restored tab takes them again from the
 * request's file (where they are anyway) instead of showing, sending or saving a blank.
 * @module
 */
import { blankLiterals, type SlotVisitor, visitJson, visitRows, visitUrl } from "../storage.ts";
import type { HttpDraft } from "./request_edit.ts";

/**
 * @param draft a tab's fields
 * @param visit called for each credential-named value
 * @returns the fields with the visitor's values
 */
function visitDraft(draft: HttpDraft, visit: SlotVisitor): HttpDraft {
  return {
    ...draft,
    url: visitUrl(draft.url, visit),
    headers: visitRows(draft.headers, "header", visit),
    body: visitJson(draft.body, visit),
    form: visitRows(draft.form, "form", visit),
  };
}

/**
 * @param draft a tab's fields
 * @returns the fields to store (literal secrets blanked) and the slots that were blanked
 */
export function withheldDraft(draft: HttpDraft): { draft: HttpDraft; withheld: string[] } {
  const withheld: string[] = [];
  return { draft: visitDraft(draft, blankLiterals(withheld)), withheld };
}

/**
 * @param draft a tab's fields
 * @param base the fields of its request as its file has them (none: a tab in no file)
 * @returns the credential-named slots whose literal value the tab changed from its file's (or
 *   its file lacks, or the tab blanked): storage withholds the tab's, and the file's is not
 *   the tab's to give back
 */
export function typedSecrets(draft: HttpDraft, base: HttpDraft | undefined): string[] {
  const values = (fields: HttpDraft) => {
    const found = new Map<string, string>();
    visitDraft(fields, (slot, value) => (found.set(slot, value), value));
    return found;
  };
  const mine = values(draft);
  const file = base ? values(base) : new Map<string, string>();
  const literal = new Set([
    ...withheldDraft(draft).withheld,
    ...(base ? withheldDraft(base).withheld : []),
  ]);
  return [...literal].filter((slot) => mine.get(slot) !== file.get(slot));
}

/**
 * @param slots credential slots a restored tab could not get back
 * @returns what the tab says about them
 */
export function notKept(slots: readonly string[]): string {
  return `Not kept across the reload (browser storage never holds a credential value): ${
    slots.map(slotLabel).join(", ")
  }; type ${slots.length === 1 ? "it" : "them"} again`;
}

/**
 * Puts the withheld values back from the request as its file has it.
 *
 * @param stored the fields as stored
 * @param withheld the slots that were blanked
 * @param from the request's fields as read from its file
 * @returns the fields, and the slots the file has no value for (they stay blank)
 */
export function refillDraft(
  stored: HttpDraft,
  withheld: readonly string[],
  from: HttpDraft | undefined,
): { draft: HttpDraft; missing: string[] } {
  if (withheld.length === 0) return { draft: stored, missing: [] };
  const values = new Map<string, string>();
  if (from) visitDraft(from, (slot, value) => (values.set(slot, value), value));
  const wanted = new Set(withheld);
  const missing: string[] = [];
  const draft = visitDraft(stored, (slot, value) => {
    if (!wanted.has(slot)) return value;
    const again = values.get(slot);
    if (again === undefined) missing.push(slot);
    return again ?? value;
  });
  return { draft, missing };
}

/**
 * @param draft a tab's fields
 * @returns the slots of credential-named values that are empty (withheld from storage)
 */
export function emptySlots(draft: HttpDraft): string[] {
  const empty: string[] = [];
  // A body member's value is its JSON text: blanked, it is `""`.
  const blank = (value: string) => value.trim() === "" || value.trim() === '""';
  visitDraft(draft, (slot, value) => (blank(value) && empty.push(slot), value));
  return empty;
}

/**
 * @param slot a slot's key (`header:authorization#0`)
 * @returns how the UI names it (`header authorization`)
 */
export function slotLabel(slot: string): string {
  const name = slot.replace(/#\d+$/, "");
  if (name === "url@password") return "the URL's password";
  if (name.startsWith("url?")) return `query parameter ${name.slice(4)}`;
  const colon = name.indexOf(":");
  const kind = name.slice(0, colon);
  return `${kind === "body" ? "body member" : kind === "form" ? "form field" : kind} ${
    name.slice(colon + 1)
  }`;
}
