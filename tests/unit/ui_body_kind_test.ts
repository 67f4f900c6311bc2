import assert from "node:assert/strict";
import { isBinaryBody } from "../../src/ui/api/body_kind.ts";

const bytes = (...values: number[]) => Uint8Array.from(values);
const text = (s: string) => new TextEncoder().encode(s);

Deno.test("ui body kind: the media type decides where it says", () => {
  assert.equal(isBinaryBody("application/octet-stream", text("plain ascii")), true);
  assert.equal(isBinaryBody("image/png", text("x")), true);
  assert.equal(isBinaryBody("application/pdf", text("%PDF-1.7")), true);
  assert.equal(isBinaryBody("application/json; charset=utf-8", text('{"a":1}')), false);
  assert.equal(isBinaryBody("application/problem+json", text("{}")), false);
  assert.equal(isBinaryBody("image/svg+xml", text("<svg/>")), false);
  assert.equal(isBinaryBody("text/plain", text("héllo")), false);
});

Deno.test("ui body kind: bytes that are not UTF-8 text are binary whatever the type", () => {
  assert.equal(isBinaryBody("text/plain", bytes(0xff, 0xfe, 0x41)), true);
  assert.equal(isBinaryBody("", bytes(0x41, 0x00, 0x42)), true);
  assert.equal(isBinaryBody("", bytes(0xff, 0xfe, 0x41, 0x80)), true);
});

Deno.test("ui body kind: without a type, text is sniffed; a preview may end inside a character", () => {
  assert.equal(isBinaryBody("", text("just text\n")), false);
  assert.equal(isBinaryBody("", bytes(1, 2, 3, 4, 5, 6, 7, 8)), true);
  const cut = text("café").subarray(0, 4); // ends inside "é"
  assert.equal(isBinaryBody("text/plain", cut, true), false);
  assert.equal(isBinaryBody("text/plain", cut, false), true);
});
