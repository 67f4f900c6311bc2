/**
 * Rows of a data-driven run (`dial test --data rows.csv|rows.json`, Newman's `-d`): each row's
 * columns become variables of one iteration. Read as Newman reads its data files: JSON when the
 * text is an array of objects (values that are not strings are written as JSON), else CSV as
 * RFC 4180 writes it (the first record names the columns; quoted fields may hold commas, quotes
 * and line breaks; spaces around an unquoted field are dropped; a short row leaves its last
 * columns out).
 * @module
 */
import { UsageError } from "../errors/mod.ts";

/** One row: column name to value. */
export type DataRow = Record<string, string>;

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
    const values: DataRow = {};
    for (const [name, value] of Object.entries(row)) {
      values[name] = typeof value === "string" ? value : JSON.stringify(value);
    }
    return values;
  });
}

function csvRows(text: string, path: string): DataRow[] {
  const records = csvRecords(text, path);
  const header = records.shift();
  if (!header || header.every((name) => name === "")) {
    throw new UsageError(`Cannot read data file ${path}: no header line naming the columns`);
  }
  return records
    .filter((record) => !(record.length === 1 && record[0] === ""))
    .map((record) => {
      const row: DataRow = {};
      header.forEach((name, j) => {
        if (j < record.length) row[name] = record[j]!;
      });
      return row;
    });
}

/** RFC 4180 records: fields split at commas, quoted fields with "" for a quote. */
function csvRecords(text: string, path: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let i = 0;
  let quotedField = false;
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
      record.push(quotedField ? field : field.trim());
      field = "";
      quotedField = false;
      i++;
    } else if (c === "\r" || c === "\n") {
      record.push(quotedField ? field : field.trim());
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
    record.push(quotedField ? field : field.trim());
    records.push(record);
  }
  return records;
}
