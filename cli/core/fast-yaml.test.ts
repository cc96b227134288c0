import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { kindOf } from "../../src/domain/catalog/source-file.ts";
import { parseFast } from "./fast-yaml.ts";
import { parseSource } from "./read-catalog.ts";

const catalog = fileURLToPath(new URL("../../catalog/", import.meta.url));
const shipped = readdirSync(catalog, { recursive: true, encoding: "utf8" })
  .filter((path) => kindOf(path.split("\\").join("/")))
  .sort()
  .map((path) => ({ path, text: readFileSync(`${catalog}${path}`, "utf8") }));

/** What the reference parser reads: its values, or its problems. */
function reference(text: string): unknown {
  const file = parseSource("test.yaml", "exports.yaml", text);
  return file.problems ? { problems: file.problems.map((p) => p.message) } : file.data;
}

describe("parseFast", () => {
  it("reads every shipped catalogue file, to the values `yaml` reads", () => {
    expect(shipped.length).toBeGreaterThan(10);
    for (const { path, text } of shipped) {
      const fast = parseFast(text);
      expect(fast, path).toBeDefined();
      expect(fast?.data, path).toStrictEqual(reference(text));
    }
  });

  it("resolves plain scalars as `yaml`'s YAML 1.2 core schema does", () => {
    const scalars = [
      "2026-11-27T00:00:00Z",
      "2026-11-27",
      "yes",
      "No",
      "on",
      "true",
      "True",
      "TRUE",
      "tRUE",
      "false",
      "~",
      "null",
      "Null",
      "NULL",
      "nULL",
      "",
      "0",
      "-0",
      "+5",
      "007",
      "1_000",
      "0b101",
      "0o17",
      "0o8",
      "0x1F",
      "0x",
      "12345678901234567890",
      "1.50",
      "9.99",
      ".5",
      "5.",
      "1e3",
      "1E-3",
      "0.1e+2",
      "1e",
      ".inf",
      "-.Inf",
      "+.INF",
      ".nan",
      ".NaN",
      "1:30",
      "=",
      "wv_single_12m",
      "'quoted'",
      '"9.99"',
    ];
    for (const scalar of scalars) {
      const text = `value: ${scalar}\nflow: { value: ${scalar} }\n`;
      expect(parseFast(text)?.data, scalar).toStrictEqual(reference(text));
    }
  });

  it("leaves to the reference parser what js-yaml rejects or may read differently", () => {
    const leftToYaml = [
      "a: 1\na: 2\n", // duplicate key
      "a: [1, 2\n", // syntax error
      "a: &x 1\nb: *x\n", // anchor and alias
      "a: !!str 5\n", // tag
      "%YAML 1.1\n---\na: no\n", // directive
      "? a\n: b\n", // explicit key
      "[a]: b\n", // list as a key
      "{a: 1}: b\n", // mapping as a key
      "~: a\n", // null key
      "null: a\n",
      'a: "x\ny"\n', // quoted scalar over several lines
      "a: [1,\n  2]\n", // flow list over several lines
      'a: "x"#comment\n', // comment not separated
      "a: 1\rb: 2\n", // carriage return inside a line
      "\ufeffa: 1\n", // byte-order mark
      "a:\n  -\n - 2\n", // empty list item, then a less indented one
    ];
    for (const text of leftToYaml) expect(parseFast(text), JSON.stringify(text)).toBeUndefined();
  });

  it("never reads a text differently from `yaml`: mutated catalogue files", () => {
    const inserts = [" ", "  ", "\n", "\n  ", ":", ": ", "-", "- ", "[", "]", "{", "}", ",", "#"];
    inserts.push("'", '"', '"a b"', "\t", "?", "|", ">-\n", "&a", "*a", "!", "~", "null", "0x1F");
    inserts.push("1_0", "1e3", ".5", "yes", "\r", "\r\n", "---\n", "...\n", "\\", "a", "0");
    const mutation = fc.record({
      at: fc.nat(),
      remove: fc.nat({ max: 3 }),
      insert: fc.constantFrom(...inserts),
    });
    fc.assert(
      fc.property(
        fc.constantFrom(...shipped),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        ({ text }, mutations) => {
          let mutated = text;
          for (const { at, remove, insert } of mutations) {
            const i = at % (mutated.length + 1);
            mutated = mutated.slice(0, i) + insert + mutated.slice(i + remove);
          }
          const fast = parseFast(mutated);
          if (fast) expect(fast.data).toStrictEqual(reference(mutated));
        },
      ),
      { numRuns: 400 },
    );
  });
});
