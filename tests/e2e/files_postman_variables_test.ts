/**
 * Postman's variables keep their types, side by side with Newman on one collection and one
 * recording server: a number, a boolean, an object, an array, null and undefined set by a script
 * read back as they were set, in the same script, the request's test script and later requests
 * (environment, collection variables, globals, `pm.variables`, the legacy API), and each `{{name}}`
 * is sent as Newman sends it ("5", "[object Object]", "1,2", "null"); `pm.variables` values last
 * for the run and are above the environment, as in Newman.
 * @module
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import {
  dialOutcomes,
  newman,
  outcomeLines,
  postmanCollection,
  postmanEnvironment,
  seenRequest,
} from "./_newman.ts";
import { jsonAnswer, rawServer } from "./_raw_server.ts";

/** A test whose name is what the script saw: both runs must see the same. */
const saw = (label: string, values: string) =>
  `pm.test(${JSON.stringify(label)} + " " + [${values}].join(" "), function () {});`;

const COLLECTION = postmanCollection("Typed variables", {
  item: [
    {
      name: "Set",
      event: [
        {
          listen: "prerequest",
          script: {
            exec: [
              "pm.environment.set('n', 5); pm.environment.set('o', { a: 1, b: [1, 2] });",
              "pm.environment.set('arr', [1, 2]); pm.environment.set('b', true);",
              "pm.environment.set('z', null); pm.environment.set('u', undefined);",
              "pm.collectionVariables.set('cn', 7); pm.globals.set('gn', 8.5);",
              "pm.collectionVariables.set('cb', false); pm.variables.set('ln', 9);",
              "pm.environment.set('s', '5'); pm.variables.set('shadow', 'local');",
            ],
          },
        },
        {
          listen: "test",
          script: {
            exec: [
              saw(
                "types",
                "typeof pm.environment.get('n'), pm.environment.get('n') + 1, " +
                  "JSON.stringify(pm.environment.get('o')), typeof pm.environment.get('b'), " +
                  "pm.environment.get('z'), typeof pm.environment.get('u'), " +
                  "pm.variables.get('ln') + 1, pm.collectionVariables.get('cn') + 1, " +
                  "pm.globals.get('gn') + 1, pm.collectionVariables.get('cb') === false, " +
                  "pm.environment.get('s') + 1, typeof pm.variables.get('n')",
              ),
              saw(
                "replaceIn",
                "pm.variables.replaceIn('{{n}}|{{o}}|{{arr}}|{{b}}|{{z}}|{{u}}|{{ln}}|{{cn}}|{{gn}}|{{cb}}|{{nothing}}')",
              ),
              saw("toObject", "JSON.stringify(pm.environment.toObject())"),
              saw(
                "legacy",
                "typeof postman.getEnvironmentVariable('n'), typeof environment.n, " +
                  "JSON.stringify(environment.o), typeof globals.gn",
              ),
              "pm.test('n is the number 5', function () { pm.expect(pm.environment.get('n')).to.equal(5); });",
            ],
          },
        },
      ],
      request: {
        method: "POST",
        url:
          "{{base}}/set?n={{n}}&o={{o}}&arr={{arr}}&b={{b}}&z={{z}}&u={{u}}&cn={{cn}}&gn={{gn}}&cb={{cb}}",
        header: [{ key: "X-O", value: "{{o}}" }],
        body: { mode: "raw", raw: '{"n": {{n}}, "o": "{{o}}", "arr": [{{arr}}]}' },
      },
    },
    {
      name: "Next",
      event: [{
        listen: "test",
        script: {
          exec: [
            saw(
              "next",
              "typeof pm.environment.get('n'), JSON.stringify(pm.environment.get('o')), " +
                "typeof pm.collectionVariables.get('cn'), typeof pm.globals.get('gn'), " +
                "typeof pm.variables.get('ln'), pm.variables.get('shadow')",
            ),
            "pm.environment.set('n', pm.environment.get('n') + 1);",
            // What a script puts on a prototype stays in its file's sandbox, as in Newman's.
            "Object.prototype.polluted = 'x';",
          ],
        },
      }],
      request: { method: "GET", url: "{{base}}/next?n={{n}}&ln={{ln}}&shadow={{shadow}}" },
    },
    {
      name: "Third",
      event: [{
        listen: "prerequest",
        script: {
          exec: [
            saw(
              "third",
              "pm.environment.get('n'), typeof pm.environment.get('n'), typeof ({}).polluted",
            ),
            // Set as a string again: the type goes with it.
            "pm.environment.set('n', '6');",
            saw("string again", "pm.environment.get('n') + 1"),
          ],
        },
      }],
      request: { method: "GET", url: "{{base}}/third?n={{n}}" },
    },
  ],
});

Deno.test("postman variables: types set by scripts are kept, and {{name}} is sent, as in Newman", async () => {
  await using server = rawServer(jsonAnswer('{"ok":true}'));
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/c.json`, JSON.stringify(COLLECTION));
    await Deno.writeTextFile(
      `${dir}/e.json`,
      JSON.stringify(
        postmanEnvironment("dev", [
          { key: "base", value: server.origin },
          { key: "shadow", value: "env" },
        ]),
      ),
    );
    const ran = await newman([`${dir}/c.json`, "-e", `${dir}/e.json`], { report: true });
    const byNewman = server.requests.splice(0).map(seenRequest);
    const newmanSaw = outcomeLines(ran.outcomes);
    assert.equal(byNewman.length, 3);
    assert.ok(newmanSaw.some((l) => l.includes("types number 6")), newmanSaw.join("\n"));

    const tested = await dial(["test", "c.json", "-e", "e.json", "--reporter", "json"], {
      cwd: dir,
    });
    assert.equal(tested.code, 0, tested.stderr);
    const dialSaw = outcomeLines(dialOutcomes(tested.stdout)).filter((l) => !/› HTTP \d+:/.test(l));
    assert.deepEqual(dialSaw, newmanSaw);
    assert.deepEqual(server.requests.splice(0).map(seenRequest), byNewman);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** What every scope gives for each name, as a test's name. */
const SCOPES = ["a", "b", "c", "d", "e", "sg", "sc", "se", "ds"].map((k) =>
  `'${k}=' + [pm.variables.get('${k}'), pm.environment.get('${k}'), ` +
  `pm.collectionVariables.get('${k}'), pm.globals.get('${k}')].join('/')`
).join(" + ' ' + ");
const ALL = "a={{a}}&b={{b}}&c={{c}}&d={{d}}&e={{e}}&sg={{sg}}&sc={{sc}}&se={{se}}&ds={{ds}}";

const PRECEDENCE = postmanCollection("Precedence", {
  variable: ["a", "b", "c", "d", "sg"].map((key) => ({ key, value: "collection" })),
  item: [
    {
      name: "First",
      event: [
        {
          listen: "prerequest",
          script: {
            exec: [
              "pm.variables.set('a', 'local');",
              // Set by scripts into each scope, over the same names elsewhere.
              "pm.globals.set('sg', 'global-set');",
              "pm.collectionVariables.set('sc', 'collection-set'); pm.globals.set('sc', 'global-set');",
              "pm.environment.set('se', 'env-set'); pm.collectionVariables.set('se', 'collection-set');",
              "pm.environment.set('ds', 'env-set');",
              `pm.test('pre ' + ${SCOPES}, function () {});`,
            ],
          },
        },
        {
          listen: "test",
          script: {
            exec: [
              `pm.test('test ' + ${SCOPES}, function () {});`,
              `pm.test('replaceIn ' + pm.variables.replaceIn('${ALL}'), function () {});`,
            ],
          },
        },
      ],
      request: { method: "GET", url: `{{base}}/first?${ALL}` },
    },
    {
      name: "Second",
      event: [{
        listen: "test",
        script: {
          exec: [
            "pm.globals.unset('e');",
            `pm.test('second ' + ${SCOPES}, function () {});`,
          ],
        },
      }],
      request: { method: "GET", url: `{{base}}/second?${ALL}` },
    },
    { name: "Third", request: { method: "GET", url: `{{base}}/third?${ALL}` } },
  ],
});

Deno.test("postman variables: local > data > environment > collection > global, as in Newman", async () => {
  await using server = rawServer(jsonAnswer('{"ok":true}'));
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/c.json`, JSON.stringify(PRECEDENCE));
    await Deno.writeTextFile(
      `${dir}/e.json`,
      JSON.stringify(
        postmanEnvironment("dev", [
          { key: "base", value: server.origin },
          ...["a", "b", "c"].map((key) => ({ key, value: "env" })),
        ]),
      ),
    );
    await Deno.writeTextFile(
      `${dir}/g.json`,
      JSON.stringify({
        name: "globals",
        _postman_variable_scope: "globals",
        values: ["a", "b", "c", "d", "e"].map((key) => ({ key, value: "global", enabled: true })),
      }),
    );
    await Deno.writeTextFile(
      `${dir}/d.json`,
      JSON.stringify([{ a: "data", b: "data", ds: "data" }]),
    );
    const args = ["c.json", "-e", "e.json", "-g", "g.json", "-d", "d.json"];
    const ran = await newman(args, { cwd: dir, report: true });
    const byNewman = server.requests.splice(0).map(seenRequest);
    const newmanSaw = outcomeLines(ran.outcomes);
    assert.equal(byNewman.length, 3);
    // Newman's order, which dial must give too.
    assert.match(byNewman[0]!.line, /a=local&b=data&c=env&d=collection&e=global&sg=collection/);
    assert.ok(
      newmanSaw.some((l) => l.includes("se=env-set/env-set/collection-set/")),
      newmanSaw.join("\n"),
    );

    const tested = await dial(["test", ...args, "--reporter", "json"], { cwd: dir });
    assert.equal(tested.code, 0, tested.stderr);
    const dialSaw = outcomeLines(dialOutcomes(tested.stdout)).filter((l) => !/› HTTP \d+:/.test(l));
    assert.deepEqual(dialSaw, newmanSaw);
    assert.deepEqual(server.requests.splice(0).map(seenRequest), byNewman);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
