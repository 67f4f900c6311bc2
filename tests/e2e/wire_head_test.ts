/**
 * The request head on a raw socket, curl on the same server as the reference: `Host` first,
 * the user's headers in their order and case, dial's defaults after them; `-H 'Name:'` removes
 * a header (a default too), `-H 'Name;'` sends it empty; two `Cookie` headers become one.
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { type RawRequest, rawServer } from "./_raw_server.ts";
import { transportFetch } from "../../src/http/client.ts";

async function heads(args: string[]) {
  await using server = rawServer();
  const theirs = await new Deno.Command("curl", {
    args: ["-s", "-o", "/dev/null", ...args, `${server.origin}/`],
  }).output();
  assert.equal(theirs.code, 0);
  const ours = await dial(["GET", `${server.origin}/`, ...args]);
  assert.equal(ours.code, 0, ours.stderr);
  const names = (r: RawRequest) => r.headers.map(([name]) => name);
  return { curl: server.requests[0]!, dial: server.requests[1]!, names };
}

Deno.test("wire head: Host first, the user's headers in order and case, then dial's defaults; as curl", async () => {
  const flags = ["-H", "X-Second: 2", "-H", "x-first: 1", "-H", "X-Second: 3"];
  const { curl, dial: ours, names } = await heads(flags);
  const own = (r: RawRequest) => names(r).filter((n) => /^x-/i.test(n));
  assert.deepEqual(own(curl), ["X-Second", "x-first", "X-Second"]);
  assert.deepEqual(own(ours), own(curl));
  assert.deepEqual(
    ours.headers.filter(([n]) => /^x-/i.test(n)).map(([, v]) => v),
    ["2", "1", "3"],
  );
  assert.equal(names(curl)[0]!.toLowerCase(), "host");
  assert.equal(names(ours)[0]!.toLowerCase(), "host");
  // dial's defaults come after what the user gave.
  const at = (name: string) => names(ours).findIndex((n) => n.toLowerCase() === name);
  assert.ok(at("accept") > at("x-second"));
  assert.ok(at("accept-encoding") > at("x-second"));
});

Deno.test("wire head: -H 'Name:' removes a default header, -H 'Name;' sends it empty; as curl", async () => {
  const flags = ["-H", "Accept:", "-H", "User-Agent:", "-H", "X-Empty;"];
  const { curl, dial: ours, names } = await heads(flags);
  for (const request of [curl, ours]) {
    const lower = names(request).map((n) => n.toLowerCase());
    assert.ok(!lower.includes("accept"), lower.join(" "));
    assert.ok(!lower.includes("user-agent"), lower.join(" "));
    assert.deepEqual(request.headers.find(([n]) => n === "X-Empty"), ["X-Empty", ""]);
  }
  const encoding = await heads(["-H", "Accept-Encoding:"]);
  assert.ok(!names(encoding.dial).some((n) => n.toLowerCase() === "accept-encoding"));
  assert.ok(!names(encoding.curl).some((n) => n.toLowerCase() === "accept-encoding"));
});

Deno.test("wire head: two -H Cookie go out as one Cookie joined with '; '", async () => {
  const { dial: ours } = await heads(["-H", "Cookie: a=1", "-H", "cookie: b=2"]);
  assert.deepEqual(ours.headers.filter(([n]) => n.toLowerCase() === "cookie"), [
    ["Cookie", "a=1; b=2"],
  ]);
});

Deno.test("wire head: transportFetch sends an array of headers in its order and case, a Headers object sorted and lower-cased (client.ts)", async () => {
  await using server = rawServer();
  const fetchRaw = transportFetch();
  const own = (r: RawRequest) => r.headers.filter(([n]) => /^x-/i.test(n));
  const array = await fetchRaw(`${server.origin}/`, {
    headers: [["X-Zeta", "1"], ["x-alpha", "2"], ["X-Mid", "3"]],
  });
  await array.body?.cancel();
  assert.deepEqual(own(server.requests[0]!), [["X-Zeta", "1"], ["x-alpha", "2"], ["X-Mid", "3"]]);
  const object = await fetchRaw(`${server.origin}/`, {
    headers: new Headers([["X-Zeta", "1"], ["x-alpha", "2"], ["X-Mid", "3"]]),
  });
  await object.body?.cancel();
  assert.deepEqual(own(server.requests[1]!), [["x-alpha", "2"], ["x-mid", "3"], ["x-zeta", "1"]]);
});
