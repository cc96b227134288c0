// A fast reader for the common case, plain YAML that parses: js-yaml loads and starts several
// times faster than `yaml` (the reference parser, read-catalog.ts `parseSource`), which matters
// for a command run from editors and git hooks. The scalars are resolved with exactly the rules
// of `yaml`'s YAML 1.2 core schema (copied below), so both give the same values: ISO dates stay
// strings, `0b1`, `1_000` and `yes` stay strings, `0o17` and `0x1F` are numbers. Anything
// else goes to the reference parser: text js-yaml rejects (syntax errors, duplicate keys, unknown
// tags) and the constructs where the two libraries may differ (NOT_PLAIN, UNUSUAL_CHARACTERS,
// isAmbiguous, flow style over several lines).
import { FAILSAFE_SCHEMA, load, Type } from "js-yaml";

// The tags of yaml/dist/schema/core/schema.js, in its order, with its tests and values.
const nullType = new Type("tag:yaml.org,2002:null", {
  kind: "scalar",
  resolve: (text: string) => /^(?:~|[Nn]ull|NULL)?$/.test(text),
  construct: () => null,
});
const boolType = new Type("tag:yaml.org,2002:bool", {
  kind: "scalar",
  resolve: (text: string) => /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(text),
  construct: (text: string) => text[0] === "t" || text[0] === "T",
});
const INT_OCT = /^0o[0-7]+$/;
const INT = /^[-+]?[0-9]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const intType = new Type("tag:yaml.org,2002:int", {
  kind: "scalar",
  resolve: (text: string) => INT_OCT.test(text) || INT.test(text) || INT_HEX.test(text),
  construct: (text: string) =>
    INT_OCT.test(text)
      ? Number.parseInt(text.substring(2), 8)
      : INT.test(text)
        ? Number.parseInt(text, 10)
        : Number.parseInt(text.substring(2), 16),
});
const FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;
const floatType = new Type("tag:yaml.org,2002:float", {
  kind: "scalar",
  resolve: (text: string) => FLOAT_NAN.test(text) || FLOAT_EXP.test(text) || FLOAT.test(text),
  construct: (text: string) =>
    FLOAT_NAN.test(text)
      ? text.slice(-3).toLowerCase() === "nan"
        ? Number.NaN
        : text[0] === "-"
          ? Number.NEGATIVE_INFINITY
          : Number.POSITIVE_INFINITY
      : Number.parseFloat(text),
});

/** js-yaml reading scalars as `yaml`'s YAML 1.2 core schema does. */
export const YAML_CORE_SCHEMA = FAILSAFE_SCHEMA.extend({
  implicit: [nullType, boolType, intType, floatType],
});

// Where the two libraries may read the same text differently, js-yaml is not used. NOT_PLAIN: a
// directive (`%YAML 1.1` changes the schema), a tag (`!`), an anchor (`&a`) or alias (`*a`), an
// explicit key (`? `), a key that is a list or a mapping (`[a]: b`, which `yaml` keeps as the text
// "[ a ]"), a comment right after a quote or bracket (`"a"#b`). UNUSUAL_CHARACTERS: control
// characters other than tab and line ends, a carriage return that does not end a line, line and
// paragraph separators, byte-order marks.
const NOT_PLAIN = /^%|(?:^|[\s[\]{},])(?:!|[&*][^\s[\]{},]|\?(?:\s|$))|[\]}]\s*:|["'\]}]#/m;
const UNUSUAL_CHARACTERS = /[\p{Cc}--[\t\n\r]]|\r(?!\n)|[\u2028\u2029\ufeff]/v;

/** Keys js-yaml makes from a null or a mapping key, which `yaml` turns into "" or its text. */
const AMBIGUOUS_KEYS = new Set(["", "~", "null", "Null", "NULL", "[object Object]"]);

/**
 * Data js-yaml may have read differently: a key of AMBIGUOUS_KEYS, or a null list item (after an
 * empty item, js-yaml accepts a less indented `-` that `yaml` rejects).
 */
function isAmbiguous(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return value.some((item) => item === null || isAmbiguous(item));
  for (const key in value) {
    if (AMBIGUOUS_KEYS.has(key) || isAmbiguous((value as Record<string, unknown>)[key])) {
      return true;
    }
  }
  return false;
}

/** A quoted scalar, `[` list or `{` mapping starts at this character. */
const FLOW_START = new Set(['"', "'", "[", "{"]);

/**
 * Stops js-yaml at a quoted scalar, list or mapping in flow style that goes on over several
 * lines: `yaml` wants its further lines indented more than the block around it, js-yaml does not.
 */
function singleLineFlowOnly(text: string) {
  const starts: number[] = [];
  return (event: "open" | "close", state: { position: number }) => {
    if (event === "open") {
      // The node starts at the first character after blanks and comments.
      let at = state.position;
      for (;;) {
        const char = text[at];
        if (char === " " || char === "\t" || char === "\n" || char === "\r") at++;
        else if (char === "#") while (at < text.length && text[at] !== "\n") at++;
        else break;
      }
      starts.push(FLOW_START.has(text[at] ?? "") ? at : -1);
      return;
    }
    const start = starts.pop() ?? -1;
    if (start < 0) return;
    const newline = text.indexOf("\n", start);
    if (newline !== -1 && newline < state.position) {
      throw new Error("flow style over several lines");
    }
  };
}

/**
 * The data of a YAML text, or undefined when the fast reader does not take it (see above): the
 * caller then parses it with the reference parser, which reports any problem.
 */
export function parseFast(text: string): { data: unknown } | undefined {
  if (NOT_PLAIN.test(text) || UNUSUAL_CHARACTERS.test(text)) return undefined;
  let data: unknown;
  try {
    data = load(text, { schema: YAML_CORE_SCHEMA, listener: singleLineFlowOnly(text) }) ?? null;
  } catch {
    return undefined;
  }
  return isAmbiguous(data) ? undefined : { data };
}
