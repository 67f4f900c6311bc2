import assert from "node:assert/strict";
import { bodyText } from "../../src/ui/api/body_kind.ts";

const bytes = (...values: number[]) => Uint8Array.from(values);
const text = (s: string) => new TextEncoder().encode(s);

Deno.test("ui body kind: the media type decides where it says", () => {
  assert.equal(bodyText("application/octet-stream", text("plain ascii")), undefined);
  assert.equal(bodyText("image/png", text("x")), undefined);
  assert.equal(bodyText("application/pdf", text("%PDF-1.7")), undefined);
  assert.equal(bodyText("application/json; charset=utf-8", text('{"a":1}')), '{"a":1}');
  assert.equal(bodyText("application/problem+json", text("{}")), "{}");
  assert.equal(bodyText("image/svg+xml", text("<svg/>")), "<svg/>");
  assert.equal(bodyText("text/plain", text("héllo")), "héllo");
});

Deno.test("ui body kind: bytes that are not UTF-8 text are binary whatever the type", () => {
  assert.equal(bodyText("text/plain", bytes(0xff, 0xfe, 0x41)), undefined);
  assert.equal(bodyText("", bytes(0x41, 0x00, 0x42)), undefined);
  assert.equal(bodyText("", bytes(0xff, 0xfe, 0x41, 0x80)), undefined);
});

Deno.test("ui body kind: without a type, text is sniffed; a preview may end inside a character, left out", () => {
  assert.equal(bodyText("", text("just text\n")), "just text\n");
  assert.equal(bodyText("", bytes(1, 2, 3, 4, 5, 6, 7, 8)), undefined);
  const cut = text("café").subarray(0, 4); // ends inside "é"
  // A preview's last, cut character is left out.
  assert.equal(bodyText("text/plain", cut, true), "caf");
  assert.equal(bodyText("text/plain", cut, false), undefined);
});
