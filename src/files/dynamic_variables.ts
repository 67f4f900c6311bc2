/**
 * Dynamic variables: values made fresh at each use. JetBrains HTTP Client's `$uuid`,
 * `$random.uuid`, `$timestamp`, `$isoTimestamp`, `$randomInt`, `$random.integer(a, b)`,
 * `$random.float(a, b)`, `$random.alphabetic(n)`, `$random.alphanumeric(n)`,
 * `$random.hexadecimal(n)`, `$random.email`, `$env.NAME`; and REST Client's `$guid`,
 * `$randomInt min max`, `$timestamp [offset unit]`, `$datetime rfc1123|iso8601 [offset unit]`,
 * `$datetime "FORMAT"` (Day.js tokens), `$localDatetime …` and `$processEnv NAME`; kulala's
 * `$date` (today, `YYYY-MM-DD`); and Postman's documented set (`$randomFirstName`,
 * `$randomEmail` …, `postman_dynamic.ts`).
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import { MONTHS, postmanDynamicVariable } from "./postman_dynamic.ts";
import { placePrefix, type RequestVariablePlace } from "./request_variables.ts";

/** Where the variable is used, for messages. */
type Place = RequestVariablePlace;

const ALPHA = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGITS = "0123456789";
const HEX = "0123456789abcdef";

/**
 * Evaluates a dynamic variable.
 *
 * @param expr the text inside `{{ }}`, starting with `$`
 * @param env reads the process environment
 * @param place where it is used
 * @returns its value, or undefined for `$env.NAME` / `$processEnv NAME` of an unset variable
 * @throws {UsageError} for an unknown dynamic variable or bad arguments
 */
export function dynamicVariable(
  expr: string,
  env: (name: string) => string | undefined,
  place: Place,
): string | undefined {
  const bad = (why: string): never => {
    throw new UsageError(`${placePrefix(place)}${why} in ${place.what}`);
  };
  const call = /^\$random\.(\w+)(?:\(([^)]*)\))?$/.exec(expr);
  if (call) {
    const args = (call[2] ?? "").split(",").map((a) => a.trim()).filter((a) => a !== "");
    const numbers = args.map(Number);
    if (numbers.some((n) => !Number.isFinite(n))) bad(`Invalid arguments of "${expr}"`);
    const length = numbers[0] ?? 10;
    switch (call[1]) {
      case "uuid":
        return crypto.randomUUID();
      case "integer": {
        const [from = 0, to = 1000] = numbers;
        return String(Math.floor(from + random() * (to - from)));
      }
      case "float": {
        const [from = 0, to = 1000] = numbers;
        return String(from + random() * (to - from));
      }
      case "alphabetic":
        return text(ALPHA, length);
      case "alphanumeric":
        return text(ALPHA + DIGITS + "_", length);
      case "hexadecimal":
        return text(HEX, length);
      case "numeric":
        return text(DIGITS, length);
      case "email":
        return `${text(ALPHA.slice(0, 26), 8)}@${text(ALPHA.slice(0, 26), 6)}.com`;
      default:
        return bad(`Unknown dynamic variable "${expr}"`);
    }
  }
  const custom = /^\$(datetime|localDatetime)\s+(["'])(.*?)\2\s*(.*)$/.exec(expr);
  if (custom) {
    const offset = custom[4] ? custom[4].split(/\s+/) : [];
    return formatDate(offsetDate(offset, bad), custom[3]!, custom[1] === "datetime");
  }
  const envName = /^\$env\.(\S+)$/.exec(expr);
  if (envName) return env(envName[1]!);
  const [head, ...rest] = expr.split(/\s+/);
  switch (head) {
    case "$uuid":
    case "$guid":
      return crypto.randomUUID();
    case "$timestamp":
      return String(Math.floor(offsetDate(rest, bad).getTime() / 1000));
    case "$isoTimestamp":
      return new Date().toISOString();
    case "$date":
      // kulala's: today, local time.
      return formatDate(new Date(), "YYYY-MM-DD", false);
    case "$randomInt": {
      if (rest.length === 0) return String(Math.floor(random() * 1001));
      const [min, max] = rest.map(Number);
      if (
        min === undefined || max === undefined || !Number.isFinite(min) || !Number.isFinite(max)
      ) {
        return bad(`Invalid arguments of "${expr}": expected $randomInt MIN MAX`);
      }
      return String(Math.floor(min + random() * (max - min)));
    }
    case "$datetime":
    case "$localDatetime": {
      const format = rest.shift();
      const date = offsetDate(rest, bad);
      if (format === "iso8601") {
        return head === "$datetime" ? date.toISOString() : localIso(date);
      }
      if (format === "rfc1123") return date.toUTCString();
      return bad(`Unsupported format in "${expr}": use rfc1123, iso8601 or a quoted "format"`);
    }
    case "$processEnv": {
      const name = rest[0];
      if (name === undefined || name.startsWith("%")) {
        return bad(`Unsupported "${expr}": write $processEnv NAME`);
      }
      return env(name);
    }
    case "$aadToken":
    case "$aadV2Token":
      return bad(
        `REST Client's "${head}" (a token from an Azure AD sign-in in VS Code) is not supported: write the token as a variable ({{NAME}}, its value a reference such as @env:TOKEN), or use an OAuth 2.0 configuration of http-client.env.json ({{$auth.token("id")}})`,
      );
    default:
      // Postman's (`$randomFirstName` …), for imported collections.
      return (rest.length === 0 ? postmanDynamicVariable(head!) : undefined) ??
        bad(`Unknown dynamic variable "${expr}"`);
  }
}

function random(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0]! / 2 ** 32;
}

function text(alphabet: string, length: number): string {
  let out = "";
  for (let i = 0; i < Math.min(length, 10_000); i++) {
    out += alphabet[Math.floor(random() * alphabet.length)];
  }
  return out;
}

const UNITS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** REST Client's `OFFSET UNIT` suffix, e.g. `-3 d`; months and years as 30 and 365 days. */
function offsetDate(rest: string[], bad: (why: string) => never): Date {
  const now = Date.now();
  if (rest.length === 0) return new Date(now);
  const [amount, unit] = rest;
  const n = Number(amount);
  const ms = unit === "M" ? 30 * UNITS.d! : unit === "y" ? 365 * UNITS.d! : UNITS[unit ?? ""];
  if (!Number.isFinite(n) || ms === undefined) bad(`Invalid offset "${rest.join(" ")}"`);
  return new Date(now + n * ms!);
}

function localIso(date: Date): string {
  const offset = -date.getTimezoneOffset();
  const local = new Date(date.getTime() + offset * 60_000).toISOString().slice(0, -1);
  const sign = offset >= 0 ? "+" : "-";
  const abs = Math.abs(offset);
  const hh = String(Math.floor(abs / 60)).padStart(2, "0");
  const mm = String(abs % 60).padStart(2, "0");
  return `${local}${sign}${hh}:${mm}`;
}

const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const TOKENS =
  /\[([^\]]*)]|YYYY|YY|M{1,4}|D{1,2}|d{1,4}|H{1,2}|h{1,2}|m{1,2}|s{1,2}|SSS|Z{1,2}|A|a/g;

/**
 * REST Client's custom `$datetime "FORMAT"`: Day.js format tokens (`YYYY-MM-DD HH:mm:ss`,
 * `ddd, D MMM`, `[text]` as it is; Day.js core tokens, as REST Client loads no format plugin),
 * in UTC or local time.
 */
export function formatDate(date: Date, format: string, utc: boolean): string {
  const parts = dateParts(date, utc);
  return format.replace(
    TOKENS,
    (token, escaped: string | undefined) =>
      escaped !== undefined ? escaped : DATE_TOKENS[token]!(parts),
  );
}

/** The fields of a date that a format reads, in UTC or in local time (`offset` in minutes). */
interface DateParts {
  y: number;
  mo: number;
  d: number;
  wd: number;
  h: number;
  mi: number;
  s: number;
  ms: number;
  offset: number;
}

function dateParts(date: Date, utc: boolean): DateParts {
  type Field = "FullYear" | "Month" | "Date" | "Day" | "Hours" | "Minutes" | "Seconds";
  const read = (field: Field | "Milliseconds") =>
    date[`get${utc ? "UTC" as const : "" as const}${field}`]();
  return {
    y: read("FullYear"),
    mo: read("Month"),
    d: read("Date"),
    wd: read("Day"),
    h: read("Hours"),
    mi: read("Minutes"),
    s: read("Seconds"),
    ms: read("Milliseconds"),
    offset: utc ? 0 : -date.getTimezoneOffset(),
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");
const hour12 = (t: DateParts) => t.h % 12 || 12;
const zone = ({ offset }: DateParts, colon: boolean) => {
  const abs = Math.abs(offset);
  return `${offset >= 0 ? "+" : "-"}${pad(Math.floor(abs / 60))}${colon ? ":" : ""}${
    pad(abs % 60)
  }`;
};

/** Day.js's core format tokens (those {@link TOKENS} matches). */
const DATE_TOKENS: Record<string, (t: DateParts) => string> = {
  YYYY: (t) => pad(t.y, 4),
  YY: (t) => pad(t.y % 100),
  M: (t) => String(t.mo + 1),
  MM: (t) => pad(t.mo + 1),
  MMM: (t) => MONTHS[t.mo]!.slice(0, 3),
  MMMM: (t) => MONTHS[t.mo]!,
  D: (t) => String(t.d),
  DD: (t) => pad(t.d),
  d: (t) => String(t.wd),
  dd: (t) => DAYS[t.wd]!.slice(0, 2),
  ddd: (t) => DAYS[t.wd]!.slice(0, 3),
  dddd: (t) => DAYS[t.wd]!,
  H: (t) => String(t.h),
  HH: (t) => pad(t.h),
  h: (t) => String(hour12(t)),
  hh: (t) => pad(hour12(t)),
  m: (t) => String(t.mi),
  mm: (t) => pad(t.mi),
  s: (t) => String(t.s),
  ss: (t) => pad(t.s),
  SSS: (t) => pad(t.ms, 3),
  Z: (t) => zone(t, true),
  ZZ: (t) => zone(t, false),
  A: (t) => t.h < 12 ? "AM" : "PM",
  a: (t) => t.h < 12 ? "am" : "pm",
};
