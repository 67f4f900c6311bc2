/**
 * The gRPC tab's endpoints against the grpc-js greeter: the method list with request templates
 * (reflection, or `.proto` files of the workspace), calls with the auth panel's credentials,
 * replies streamed as they arrive, statuses as results.
 * @module
 */
import assert from "node:assert/strict";
import { startUiServer, type UiServer } from "../../src/ui/server.ts";
import { copyGreeterProtos, GREETER_PROTOS, startGreeter } from "../e2e/_grpc.ts";
import { apiHeaders, sessionOf } from "./_session.ts";
import { makeCertificates } from "../e2e/_tls.ts";

const ASSETS = { js: "/* app */", css: "/* css */" };
const GREETER = "greet.v1.Greeter";

type Event = Record<string, unknown> & { type: string };

const sessions = new WeakMap<UiServer, Promise<string>>();

async function post(server: UiServer, path: string, body: unknown): Promise<{
  status: number;
  events: Event[];
}> {
  // The launch link is traded once: one session per server.
  if (!sessions.has(server)) sessions.set(server, sessionOf(server));
  const response = await fetch(new URL(path, server.url), {
    method: "POST",
    headers: apiHeaders(await sessions.get(server)!),
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) return { status: response.status, events: [JSON.parse(text)] };
  return { status: 200, events: text.trim().split("\n").map((l) => JSON.parse(l)) };
}

Deno.test("ui server: the gRPC tab lists a server's methods by reflection, each with a template of its request", async () => {
  await using greeter = await startGreeter();
  await using server = await startUiServer({ assets: ASSETS });
  const { events } = await post(server, "/api/grpc/methods", {
    url: greeter.address,
    headers: [],
    auth: { kind: "none" },
  });
  assert.equal(events[0]!.type, "methods", JSON.stringify(events));
  const methods = events[0]!.methods as Array<Record<string, string>>;
  assert.deepEqual(methods.map((m) => [m.name, m.kind]).slice(0, 4), [
    [`${GREETER}/SayHello`, "unary"],
    [`${GREETER}/StreamHellos`, "server_streaming"],
    [`${GREETER}/CollectHellos`, "client_streaming"],
    [`${GREETER}/Chat`, "bidi_streaming"],
  ]);
  assert.deepEqual(JSON.parse(methods[0]!.template!), {
    name: "",
    times: 0,
    mood: "MOOD_UNSPECIFIED",
  });
  // Nested messages filled in, a oneof's members left out, 64-bit integers as strings.
  const shapes = methods.find((m) => m.name === `${GREETER}/EchoShapes`)!;
  const template = JSON.parse(shapes.template!);
  assert.equal(template.wrapped, "0");
  assert.equal(template.at, "1970-01-01T00:00:00Z");
  assert.equal(template.negative, "0");
  assert.equal("stamp" in template || "text" in template, false);
});

Deno.test("ui server: a gRPC call carries the auth panel's token and the metadata rows; replies stream as they arrive, then the status, headers and trailers", async () => {
  await using greeter = await startGreeter();
  await using server = await startUiServer({ assets: ASSETS });
  const call = (method: string, body: string, headers: unknown[] = []) =>
    post(server, "/api/grpc/call", {
      url: greeter.address,
      auth: { kind: "bearer", token: "t0k" },
      headers,
      method: `${GREETER}/${method}`,
      body,
    });
  const echo = await call("EchoMetadata", '{"name": "x"}', [
    { name: "x-tenant", value: "blue", enabled: true },
  ]);
  assert.deepEqual(echo.events.map((e) => e.type), ["reply", "end"]);
  const reply = JSON.parse(echo.events[0]!.json as string);
  assert.match(reply.message, /authorization=Bearer t0k;.*x-tenant=blue/);
  const end = echo.events[1]!;
  assert.equal(end.status, 0);
  assert.equal(end.statusName, "OK");
  assert.deepEqual((end.trailers as string[][]).find(([n]) => n === "x-seen-by"), [
    "x-seen-by",
    "greeter",
  ]);
  const stream = await call("StreamHellos", '{"name": "s", "times": 3}');
  assert.deepEqual(stream.events.map((e) => e.type), ["reply", "reply", "reply", "end"]);
  assert.deepEqual(
    stream.events.slice(0, 3).map((e) => JSON.parse(e.json as string).message),
    ["Hello s 0", "Hello s 1", "Hello s 2"],
  );
  const missing = await call("Missing", "");
  assert.deepEqual(missing.events.map((e) => [e.type, e.statusName, e.statusMessage]), [
    ["end", "NOT_FOUND", "no such greeting"],
  ]);
  const typo = await call("SayHelo", "{}");
  assert.equal(typo.events[0]!.type, "error");
  assert.match(JSON.stringify(typo.events[0]), /Unknown method/);
});

Deno.test("ui server: without reflection the gRPC tab reads .proto files of the workspace, confined to it", async () => {
  await using greeter = await startGreeter("--no-reflection");
  const dir = await Deno.makeTempDir({ prefix: "dial-grpc-ui-" });
  try {
    await copyGreeterProtos(dir, "protos");
    await using server = await startUiServer({ assets: ASSETS, workspace: dir });
    const base = { url: greeter.address, headers: [], auth: { kind: "none" } };
    const none = await post(server, "/api/grpc/methods", base);
    assert.equal(none.events[0]!.type, "error");
    assert.match(JSON.stringify(none.events[0]), /does not offer reflection/);
    const files = { protos: ["protos/greeter.proto"], importPaths: ["protos"] };
    const listed = await post(server, "/api/grpc/methods", { ...base, ...files });
    assert.equal(listed.events[0]!.type, "methods", JSON.stringify(listed.events));
    const call = await post(server, "/api/grpc/call", {
      ...base,
      ...files,
      method: `${GREETER}/SayHello`,
      body: '{"name": "ann"}',
    });
    assert.equal(JSON.parse(call.events[0]!.json as string).message, "Hello ann");
    const outside = await post(server, "/api/grpc/methods", {
      ...base,
      protos: [`${GREETER_PROTOS}greeter.proto`],
    });
    assert.equal(outside.status, 400);
    assert.match(JSON.stringify(outside.events[0]), /Refused the \.proto file of the gRPC tab/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ui server: grpcs:// is TLS with dial ui's trust: refused in words without the CA, called with it", async () => {
  const certs = await makeCertificates();
  try {
    await using greeter = await startGreeter("--tls", certs.leaf, certs.leafKey);
    const call = {
      url: `grpcs://${greeter.tlsAddress}`,
      headers: [],
      auth: { kind: "none" },
      method: `${GREETER}/SayHello`,
      body: '{"name": "tls"}',
    };
    {
      await using server = await startUiServer({ assets: ASSETS });
      const { events } = await post(server, "/api/grpc/call", call);
      assert.equal(events[0]!.type, "error");
      assert.match(JSON.stringify(events[0]), /Cannot verify the TLS certificate/);
    }
    await using server = await startUiServer({
      assets: ASSETS,
      transport: { caCerts: [await Deno.readTextFile(certs.ca)] },
    });
    const { events } = await post(server, "/api/grpc/call", call);
    assert.equal(JSON.parse(events[0]!.json as string).message, "Hello tls");
  } finally {
    await Deno.remove(certs.dir, { recursive: true });
  }
});

/** A call's answer read event by event, as the page reads it. */
async function openStream(server: UiServer, body: unknown) {
  if (!sessions.has(server)) sessions.set(server, sessionOf(server));
  const controller = new AbortController();
  const response = await fetch(new URL("/api/grpc/call", server.url), {
    method: "POST",
    headers: apiHeaders(await sessions.get(server)!),
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  assert.equal(response.status, 200);
  const lines = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  return {
    /** @returns the next event (the answer must not end before it) */
    async next(): Promise<Event> {
      while (!buffered.includes("\n")) {
        const { value, done } = await lines.read();
        if (done) throw new Error(`The call's answer ended; left: ${buffered}`);
        buffered += value;
      }
      const at = buffered.indexOf("\n");
      const line = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      return JSON.parse(line);
    },
    async [Symbol.asyncDispose]() {
      controller.abort();
      await lines.cancel().catch(() => {});
    },
  };
}

Deno.test("ui server: an open bidi call takes messages one at a time, answered as they go; one that does not fit is refused and the call goes on; end sending half-closes", async () => {
  await using greeter = await startGreeter();
  await using server = await startUiServer({ assets: ASSETS });
  const base = { url: greeter.address, headers: [], auth: { kind: "none" } };
  await using chat = await openStream(server, {
    ...base,
    method: `${GREETER}/Chat`,
    // Not sent: an open call sends what the composer sends.
    body: '{"name": "never"}',
    open: true,
  });
  const open = await chat.next();
  assert.deepEqual([open.type, open.kind], ["open", "bidi_streaming"]);
  const send = (body: string) => post(server, "/api/grpc/send", { call: open.call, body });
  // Without the page's session nothing reaches the call, even with its id.
  const stranger = await fetch(new URL("/api/grpc/send", server.url), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ call: open.call, body: '{"name": "intruder"}' }),
  });
  assert.equal(stranger.status, 401);
  await stranger.body?.cancel();
  // The server answers each message before the next is written: sent one at a time.
  for (const name of ["ann", "bo"]) {
    assert.deepEqual(await send(`{"name": "${name}"}`), { status: 200, events: [{ sent: 1 }] });
    const sent = await chat.next();
    assert.deepEqual([sent.type, JSON.parse(sent.json as string)], ["sent", { name }]);
    const reply = await chat.next();
    assert.equal(reply.type, "reply");
    assert.equal(JSON.parse(reply.json as string).message, `Hello ${name}`);
  }
  const refused = await send('{"nmae": "x"}');
  assert.equal(refused.status, 400);
  assert.match(JSON.stringify(refused.events[0]), /field \\"nmae\\"/);
  const bad = await send('{"name": ');
  assert.equal(bad.status, 400);
  assert.match(JSON.stringify(bad.events[0]), /Invalid JSON/);
  // Two documents: two messages, two answers.
  assert.deepEqual((await send('{"name": "c1"}\n{"name": "c2"}')).events, [{ sent: 2 }]);
  const rest = [await chat.next(), await chat.next(), await chat.next(), await chat.next()];
  assert.deepEqual(
    rest.filter((e) => e.type === "reply").map((e) => JSON.parse(e.json as string).message),
    ["Hello c1", "Hello c2"],
  );
  const end = await post(server, "/api/grpc/end", { call: open.call });
  assert.deepEqual(end.events, [{ ended: true }]);
  assert.equal((await chat.next()).type, "half-closed");
  const done = await chat.next();
  assert.deepEqual([done.type, done.statusName], ["end", "OK"]);
  const late = await send('{"name": "late"}');
  assert.equal(late.status, 400);
  assert.match(JSON.stringify(late.events[0]), /The gRPC call is over/);
});

Deno.test("ui server: an open client-streaming call answers once sending ends; a unary method opened is an ordinary call", async () => {
  await using greeter = await startGreeter();
  await using server = await startUiServer({ assets: ASSETS });
  const base = { url: greeter.address, headers: [], auth: { kind: "none" }, open: true };
  {
    await using collect = await openStream(server, {
      ...base,
      method: `${GREETER}/CollectHellos`,
      body: "",
    });
    const open = await collect.next();
    assert.deepEqual([open.type, open.kind], ["open", "client_streaming"]);
    for (const name of ["a", "b"]) {
      await post(server, "/api/grpc/send", { call: open.call, body: `{"name": "${name}"}` });
      assert.equal((await collect.next()).type, "sent");
    }
    await post(server, "/api/grpc/end", { call: open.call });
    assert.equal((await collect.next()).type, "half-closed");
    const reply = await collect.next();
    assert.equal(JSON.parse(reply.json as string).message, "Hello a,b");
    assert.equal((await collect.next()).statusName, "OK");
  }
  await using unary = await openStream(server, {
    ...base,
    method: `${GREETER}/SayHello`,
    body: '{"name": "one"}',
  });
  const reply = await unary.next();
  assert.equal(JSON.parse(reply.json as string).message, "Hello one");
  assert.equal((await unary.next()).statusName, "OK");
});

Deno.test("ui server: an open call's messages take the environment's variables; one holding a private value is shown redacted, and sent as it is", async () => {
  await using greeter = await startGreeter();
  const dir = await Deno.makeTempDir({ prefix: "dial-grpc-ui-env-" });
  try {
    await Deno.writeTextFile(
      `${dir}/http-client.env.json`,
      JSON.stringify({ dev: { who: "pub" } }),
    );
    await Deno.writeTextFile(
      `${dir}/http-client.private.env.json`,
      JSON.stringify({ dev: { secret: "s3cr3t" } }),
    );
    await using server = await startUiServer({ assets: ASSETS, workspace: dir });
    await using chat = await openStream(server, {
      url: greeter.address,
      headers: [],
      auth: { kind: "none" },
      environment: "dev",
      method: `${GREETER}/Chat`,
      body: "",
      open: true,
    });
    const open = await chat.next();
    assert.equal(open.type, "open");
    const said: string[] = [];
    for (const name of ["{{who}}", "{{secret}}"]) {
      await post(server, "/api/grpc/send", { call: open.call, body: `{"name": "${name}"}` });
      said.push((await chat.next()).json as string);
      said.push(JSON.parse((await chat.next()).json as string).message);
    }
    assert.deepEqual(said, [
      '{"name":"pub"}',
      "Hello pub",
      "(redacted: the message holds a private value)",
      "Hello s3cr3t",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
