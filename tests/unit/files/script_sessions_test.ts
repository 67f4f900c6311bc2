import assert from "node:assert/strict";
import { ScriptSessions } from "../../../src/files/run_http_file.ts";
import type { ScriptSession } from "../../../src/files/script_sandbox.ts";

/** A stand-in session that counts its disposals. */
function session(freed: string[], name: string): ScriptSession {
  return { dispose: () => freed.push(name) } as unknown as ScriptSession;
}

Deno.test("script sessions: a kept session is taken once; the least recently kept beyond the bound is freed", () => {
  const freed: string[] = [];
  const sessions = new ScriptSessions(2);
  const a = session(freed, "a");
  sessions.keep("a.http", a);
  assert.equal(sessions.take("a.http"), a);
  // Taken: a second run of the same file at the same time gets none.
  assert.equal(sessions.take("a.http"), undefined);
  sessions.keep("a.http", a);
  sessions.keep("b.http", session(freed, "b"));
  sessions.keep("c.http", session(freed, "c"));
  assert.deepEqual(freed, ["a"]);
  assert.equal(sessions.take("a.http"), undefined);
  // Kept again for the same file: the one it replaces is freed.
  sessions.keep("b.http", session(freed, "b2"));
  assert.deepEqual(freed, ["a", "b"]);
  sessions.dispose();
  assert.deepEqual(freed.sort(), ["a", "b", "b2", "c"]);
});
