// REST Client's custom {{$datetime "FORMAT"}} reads Day.js format tokens: dial's formatter,
// side by side with Day.js (the library REST Client formats with) on fixed dates.
import assert from "node:assert/strict";
import dayjs from "dayjs";
import utc from "dayjs/plugin/utc.js";
import { dynamicVariable, formatDate } from "../../../src/files/dynamic_variables.ts";

dayjs.extend(utc);

const FORMATS = [
  "YYYY-MM-DD HH:mm:ss.SSS",
  "YY M D H h m s A a",
  "ddd, D MMM YYYY hh:mm a",
  "dddd MMMM dd d",
  "X x",
  "[at] HH[h] Z ZZ",
];

Deno.test('$datetime "FORMAT": the same text as Day.js, in UTC and local time', () => {
  for (const ms of [0, 951_782_400_123, 1_700_000_000_999, 4_102_444_799_000]) {
    const date = new Date(ms);
    for (const format of FORMATS) {
      assert.equal(formatDate(date, format, true), dayjs.utc(ms).format(format), format);
      assert.equal(formatDate(date, format, false), dayjs(ms).format(format), format);
    }
  }
});

Deno.test("$datetime \"FORMAT\" [offset unit] and $localDatetime 'FORMAT' in a template", () => {
  const place = { what: "the URL", path: "a.http", line: 1, column: 1 };
  const year = dynamicVariable('$datetime "YYYY" 1 y', () => undefined, place)!;
  assert.ok(Number(year) >= new Date().getUTCFullYear() + 1 - 1, year);
  assert.match(
    dynamicVariable("$localDatetime 'DD MM YYYY'", () => undefined, place)!,
    /^\d\d \d\d \d{4}$/,
  );
  assert.throws(
    () => dynamicVariable("$datetime fancy", () => undefined, place),
    /Unsupported format in "\$datetime fancy": use rfc1123, iso8601 or a quoted "format"/,
  );
});
