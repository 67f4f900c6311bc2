import assert from "node:assert/strict";
import type { Connection } from "../../src/http/connect.ts";
import { exchangeH1, parseHead } from "../../src/http/h1.ts";

/**
 * A connection that answers with these bytes, split into chunks, and records what was sent.
 * With `after`, the answer waits until what was sent satisfies it (the server read it all).
 */
function fakeConnection(
  answer: string,
  after: (sent: string) => boolean = () => true,
): Connection & { sent: () => string } {
  const bytes = Uint8Array.from(answer, (c) => c.charCodeAt(0));
  let at = 0;
  const written: Uint8Array[] = [];
  const sent = () => written.map((b) => String.fromCharCode(...b)).join("");
  const heard = Promise.withResolvers<void>();
  if (after("")) heard.resolve();
  return {
    read: async () => {
      await heard.promise;
      if (at >= bytes.length) return null;
      const part = bytes.slice(at, at + 7);
      at += 7;
      return part;
    },
    write: (data) => {
      written.push(data.slice());
      if (after(sent())) heard.resolve();
      return Promise.resolve();
    },
    streams: () => {
      throw new Error("not used");
    },
    protocol: "http/1.1",
    close: () => {},
    sent,
  };
}

const GET = {
  method: "GET",
  target: "/x?y=1",
  authority: "a.test",
  scheme: "http",
  headers: [["host", "a.test"]] as Array<[string, string]>,
};

Deno.test("h1: the request goes out as given; a chunked answer with extensions and trailers is read whole", async () => {
  const conn = fakeConnection(
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" +
      "5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n",
  );
  const response = await exchangeH1(conn, GET);
  assert.equal(await new Response(response.body?.open()).text(), "hello world");
  assert.equal(conn.sent(), "GET /x?y=1 HTTP/1.1\r\nhost: a.test\r\n\r\n");
});

Deno.test("h1: 1xx answers are skipped; the reason phrase and version are kept", async () => {
  const conn = fakeConnection(
    "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n" +
      "HTTP/1.0 299 Custom Thing\r\nContent-Length: 2\r\n\r\nok",
  );
  const response = await exchangeH1(conn, GET);
  assert.deepEqual([response.version, response.status, response.reason], [
    "HTTP/1.0",
    299,
    "Custom Thing",
  ]);
  assert.equal(await new Response(response.body?.open()).text(), "ok");
});

Deno.test("h1: a body cut short, conflicting lengths and a bad status line are errors in words", async () => {
  const cut = await exchangeH1(
    fakeConnection("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"),
    GET,
  );
  await assert.rejects(new Response(cut.body?.open()).text(), /3 of 10 bytes of the body arrived/);
  await assert.rejects(
    exchangeH1(
      fakeConnection("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"),
      GET,
    ),
    /conflicting or invalid Content-Length/,
  );
  assert.throws(() => parseHead("SSH-2.0-OpenSSH_9.6"), /status line is not HTTP\/1.x/);
});

Deno.test("h1: a folded header line joins the one before; HEAD and 304 have no body", async () => {
  assert.deepEqual(parseHead("HTTP/1.1 200 OK\r\nX-A: one\r\n  two\r\nX-B: 3").headers, [
    ["X-A", "one two"],
    ["X-B", "3"],
  ]);
  const head = await exchangeH1(
    fakeConnection("HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n"),
    { ...GET, method: "HEAD" },
  );
  assert.equal(head.body, null);
  const notModified = await exchangeH1(fakeConnection("HTTP/1.1 304 Not Modified\r\n\r\n"), GET);
  assert.equal(notModified.body, null);
});

Deno.test("h1: a streamed body of known length goes with it; one without a length goes chunked", async () => {
  const sized = fakeConnection("HTTP/1.1 204 No Content\r\n\r\n", (sent) => sent.endsWith("abc"));
  await exchangeH1(sized, {
    ...GET,
    method: "PUT",
    body: {
      stream: ReadableStream.from([new Uint8Array([97, 98]), new Uint8Array([99])]),
      length: 3,
    },
  });
  assert.ok(sized.sent().endsWith("\r\n\r\nabc"));
  const chunked = fakeConnection(
    "HTTP/1.1 204 No Content\r\n\r\n",
    (sent) => sent.endsWith("0\r\n\r\n"),
  );
  await exchangeH1(chunked, {
    ...GET,
    method: "PUT",
    body: { stream: ReadableStream.from([new Uint8Array([97, 98]), new Uint8Array([99])]) },
  });
  assert.ok(chunked.sent().endsWith("\r\n\r\n2\r\nab\r\n1\r\nc\r\n0\r\n\r\n"), chunked.sent());
});

Deno.test("h1: a request aborted before its exchange starts (while connecting) closes its connection", async () => {
  // The abort event fired before exchangeH1 listened for it: a server that never answers
  // must not keep the exchange waiting (a cancelled MCP call, --timeout, Ctrl-C).
  const closed = Promise.withResolvers<null>();
  let isClosed = false;
  const conn: Connection = {
    read: () => closed.promise,
    write: () => Promise.resolve(),
    streams: () => {
      throw new Error("not used");
    },
    protocol: "http/1.1",
    close: () => {
      isClosed = true;
      closed.resolve(null);
    },
  };
  const controller = new AbortController();
  controller.abort(new Error("cancelled by the client"));
  const exchange = exchangeH1(conn, { ...GET, signal: controller.signal });
  assert.ok(isClosed, "the connection is closed at once");
  await assert.rejects(exchange, /cancelled by the client/);
});
