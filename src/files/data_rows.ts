/**
 * Rows of a data-driven run (`dial test --data rows.csv|rows.json`, Newman's `-d`): each row's
 * columns become variables of one iteration. Read as Newman reads its data files: JSON when the
 * text is an array of objects, its values keeping their JSON types; else CSV as RFC 4180 writes
 * it (the first record names the columns; quoted fields may hold commas, quotes and line breaks;
 * spaces around an unquoted field are dropped; a short row leaves its last columns out), an
 * unquoted field that reads as a number being that number, as Newman casts it (`"007"` quoted
 * stays text).
 * @module
 */
import { UsageError } from "../errors/mod.ts";

/** A value of a data row: a JSON value (from CSV, text or a number). */
export type DataValue = string | number | boolean | null | DataValue[] | {
  [name: string]: DataValue;
};

/** One row: column name to value. */
export type DataRow = Record<string, DataValue>;

/**
 * Reads rows from the text of a CSV or JSON file.
 *
 * @param text the file's text
 * @param path its name, for messages (`.json` must be JSON)
 * @returns the rows, in order
 * @throws {UsageError} for text that is not rows
 */
export function parseDataRows(text: string, path: string): DataRow[] {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const json = /\.json$/i.test(path) || /^\s*\[/.test(source);
  return json ? jsonRows(source, path) : csvRows(source, path);
}

/**
 * A data value as `{{name}}` writes it: text as it is, a number or boolean as JavaScript writes
 * it (as Newman does), an object or array as JSON (Newman writes `[object Object]`); null
 * leaves the variable to the other scopes.
 *
 * @param value the row's value
 * @returns its text, or undefined for null
 */
export function dataText(value: DataValue): string | undefined {
  if (value === null) return undefined;
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

function jsonRows(text: string, path: string): DataRow[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`Cannot read data file ${path}: not JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(data)) {
    throw new UsageError(`Cannot read data file ${path}: expected an array of objects`);
  }
  return data.map((row, i) => {
    if (row === null || typeof row !== "object" || Array.isArray(row)) {
      throw new UsageError(`Cannot read data file ${path}: row ${i + 1} is not an object`);
    }
    return row as DataRow;
  });
}

/**
 * Newman's cast of an unquoted CSV field: an integer without a leading zero, else what
 * `parseFloat` reads when the whole field is a number (its own test, kept as it is).
 */
function csvValue(field: CsvField): DataValue {
  const { text, quoted } = field;
  if (quoted) return text;
  if (/^[-+]?[1-9][0-9]*$/.test(text)) return parseInt(text, 10);
  if (Number(text) - parseFloat(text) + 1 >= 0) return parseFloat(text);
  return text;
}

function csvRows(text: string, path: string): DataRow[] {
  const records = csvRecords(text, path);
  const header = records.shift()?.map((f) => f.text);
  if (!header || header.every((name) => name === "")) {
    throw new UsageError(`Cannot read data file ${path}: no header line naming the columns`);
  }
  return records
    .filter((record) => !(record.length === 1 && record[0]!.text === ""))
    .map((record) => {
      const row: DataRow = {};
      header.forEach((name, j) => {
        if (j < record.length) row[name] = csvValue(record[j]!);
      });
      return row;
    });
}

/** A CSV field: its text, and whether it was quoted (then it is never a number). */
interface CsvField {
  text: string;
  quoted: boolean;
}

/** RFC 4180 records: fields split at commas, quoted fields with "" for a quote. */
function csvRecords(text: string, path: string): CsvField[][] {
  const records: CsvField[][] = [];
  let record: CsvField[] = [];
  let field = "";
  let i = 0;
  let quotedField = false;
  const fieldOf = (): CsvField => ({
    text: quotedField ? field : field.trim(),
    quoted: quotedField,
  });
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"' && field.trim() === "" && !quotedField) {
      // A quoted field: up to the closing quote.
      quotedField = true;
      field = "";
      i++;
      for (;;) {
        const close = text.indexOf('"', i);
        if (close < 0) throw new UsageError(`Cannot read data file ${path}: unclosed quote`);
        field += text.slice(i, close);
        if (text[close + 1] === '"') {
          field += '"';
          i = close + 2;
        } else {
          i = close + 1;
          // Spaces between the closing quote and the delimiter are not part of the field.
          while (text[i] === " " || text[i] === "\t") i++;
          break;
        }
      }
      continue;
    }
    if (c === ",") {
      record.push(fieldOf());
      field = "";
      quotedField = false;
      i++;
    } else if (c === "\r" || c === "\n") {
      record.push(fieldOf());
      records.push(record);
      record = [];
      field = "";
      quotedField = false;
      i += c === "\r" && text[i + 1] === "\n" ? 2 : 1;
    } else {
      field += c;
      i++;
    }
  }
  if (field !== "" || record.length || quotedField) {
    record.push(fieldOf());
    records.push(record);
  }
  return records;
}
