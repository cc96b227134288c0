// Rewords zod's issues for the pricing team: the key or value found, what the schema expects and,
// for typos, the closest known key or value. Only the wording changes; zod finds the problems.
import { z } from "zod";
import { closest } from "./closest.ts";
import type { FieldPath } from "./issue.ts";
import { messages, type Problem } from "./messages.ts";

type Located = Problem & { path: FieldPath };
type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  valueType?: z.ZodType;
  keyType?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  entries?: Record<string, unknown>;
  values?: unknown[];
};

const defOf = (schema: z.ZodType): Def => schema._zod.def as unknown as Def;
const WRAPPERS = new Set([
  "optional",
  "nullable",
  "default",
  "prefault",
  "readonly",
  "nonoptional",
]);

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if (WRAPPERS.has(def.type) && def.innerType) current = def.innerType;
    else if (def.type === "pipe" && def.in) current = def.in;
    else return current;
  }
}

function isNullable(schema: z.ZodType): boolean {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if (def.type === "nullable") return true;
    if (WRAPPERS.has(def.type) && def.innerType) current = def.innerType;
    else return false;
  }
}

/** The schema that reads the value at `path`, when the path leads through objects, lists and records. */
function schemaAt(root: z.ZodType, path: FieldPath): z.ZodType | undefined {
  let current: z.ZodType | undefined = root;
  for (const part of path) {
    if (!current) return undefined;
    const def = defOf(unwrap(current));
    if (def.type === "object" && typeof part === "string") current = def.shape?.[part];
    else if (def.type === "array" && typeof part === "number") current = def.element;
    else if (def.type === "record") current = def.valueType;
    else return undefined;
  }
  return current;
}

/** The keys a mapping accepts: an object's fields or a record's enum keys. */
function knownKeys(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  const def = defOf(unwrap(schema));
  if (def.type === "object") return Object.keys(def.shape ?? {});
  if (def.type === "record" && def.keyType) {
    const keyDef = defOf(unwrap(def.keyType));
    if (keyDef.type === "enum") return Object.values(keyDef.entries ?? {}).map(String);
  }
  return [];
}

function descriptionOf(schema: z.ZodType | undefined): string | undefined {
  let current = schema;
  while (current) {
    const description = z.globalRegistry.get(current)?.description;
    if (description) return description;
    const def = defOf(current);
    current = WRAPPERS.has(def.type) ? def.innerType : undefined;
  }
  return undefined;
}

function valueAt(data: unknown, path: FieldPath): { found: boolean; value: unknown } {
  let current: unknown = data;
  for (const part of path) {
    if (current === null || typeof current !== "object" || !(part in current)) {
      return { found: false, value: undefined };
    }
    current = (current as Record<string | number, unknown>)[part];
  }
  return { found: true, value: current };
}

/** How a found value reads in a message. */
function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "an empty value";
  if (typeof value === "string")
    return value === "" ? "empty text" : `the text ${JSON.stringify(value)}`;
  if (Array.isArray(value)) {
    return value.length === 0
      ? "an empty list"
      : `a list of ${value.length} ${value.length === 1 ? "entry" : "entries"}`;
  }
  if (typeof value === "object") return "a mapping";
  return String(value);
}

const EXPECTED: Record<string, string> = {
  number: "a number",
  int: "a whole number",
  string: "text",
  boolean: "true or false",
  array: "a list",
  object: "a mapping of keys to values",
  record: "a mapping of keys to values",
};

function expectedType(expected: string, schema: z.ZodType | undefined): string {
  const base = EXPECTED[expected] ?? expected;
  return schema && isNullable(schema) ? `${base} or null` : base;
}

const isDefaultWording = (message: string) =>
  /^(Invalid|Too small|Too big|Unrecognized)/.test(message);

function tooSmall(issue: z.core.$ZodIssueTooSmall, value: unknown): Problem {
  const min = Number(issue.minimum);
  if (issue.origin === "array") {
    const length = Array.isArray(value) ? value.length : 0;
    return messages.outOfRange(
      `at least ${min} ${min === 1 ? "entry" : "entries"}`,
      length === 0 ? "none" : String(length),
    );
  }
  if (issue.origin === "string") {
    return messages.outOfRange(
      min === 1 ? "non-empty text" : `at least ${min} characters`,
      describeValue(value),
    );
  }
  return messages.outOfRange(
    issue.inclusive ? `a number of ${min} or more` : `a number above ${min}`,
    describeValue(value),
  );
}

function tooBig(issue: z.core.$ZodIssueTooBig, value: unknown): Problem {
  const max = Number(issue.maximum);
  if (issue.origin === "array") {
    return messages.outOfRange(
      `at most ${max} entries`,
      String(Array.isArray(value) ? value.length : 0),
    );
  }
  if (issue.origin === "string")
    return messages.outOfRange(`at most ${max} characters`, describeValue(value));
  return messages.outOfRange(
    issue.inclusive ? `a number of ${max} or less` : `a number below ${max}`,
    describeValue(value),
  );
}

function unionValues(issue: z.core.$ZodIssueInvalidUnion): unknown[] | undefined {
  const values: unknown[] = [];
  for (const branch of issue.errors) {
    const [only] = branch;
    if (branch.length !== 1 || !only || only.code !== "invalid_value" || only.path.length > 0)
      return undefined;
    values.push(...only.values);
  }
  return values;
}

function notAllowed(
  values: readonly unknown[],
  value: unknown,
  schema: z.ZodType | undefined,
): Problem {
  if (value === undefined) {
    return messages.missingField(
      `one of ${values.map((v) => JSON.stringify(v)).join(", ")}`,
      descriptionOf(schema),
    );
  }
  // Suggest only for words: 3 is not a typo of 1.
  const suggestion = typeof value === "string" ? closest(value, values.map(String)) : undefined;
  const original = values.find((v) => String(v) === suggestion);
  return messages.notAllowed(values, describeValue(value), original);
}

/** One zod issue as one or more located problems (unknown keys come one per key). */
export function reword(issue: z.core.$ZodIssue, root: z.ZodType, data: unknown): Located[] {
  const path = issue.path as FieldPath;
  const schema = schemaAt(root, path);
  const { found, value } = valueAt(data, path);
  switch (issue.code) {
    case "unrecognized_keys": {
      const known = knownKeys(schema).filter((key) => key !== "$schema");
      return issue.keys.map((key) => ({
        ...messages.unknownKey(key, closest(key, known), known),
        path: [...path, key],
      }));
    }
    case "invalid_type": {
      const expected = expectedType(issue.expected, schema);
      if (!found || value === undefined) {
        return [{ ...messages.missingField(expected, descriptionOf(schema)), path }];
      }
      if (issue.expected === "int" && typeof value === "number") {
        return [{ ...messages.wrongType(expected, String(value)), path }];
      }
      return [{ ...messages.wrongType(expected, describeValue(value)), path }];
    }
    case "invalid_value":
      return [{ ...notAllowed(issue.values, value, schema), path }];
    case "invalid_union": {
      const values = unionValues(issue);
      if (values) return [{ ...notAllowed(values, value, schema), path }];
      return [{ ...messages.wrongType("a value this field accepts", describeValue(value)), path }];
    }
    case "too_small":
      if (!isDefaultWording(issue.message)) break;
      return [{ ...tooSmall(issue, value), path }];
    case "too_big":
      if (!isDefaultWording(issue.message)) break;
      return [{ ...tooBig(issue, value), path }];
    case "invalid_format":
      if (!isDefaultWording(issue.message)) break;
      if (issue.format === "regex" && "pattern" in issue) {
        return [
          {
            ...messages.badValue(
              `expected text matching ${String(issue.pattern)}`,
              describeValue(value),
            ),
            path,
          },
        ];
      }
      return [
        { ...messages.badValue(`expected ${issue.format} text`, describeValue(value)), path },
      ];
    default:
      break;
  }
  const rule = isDefaultWording(issue.message) ? "is not valid" : issue.message;
  return [{ ...messages.badValue(rule, describeValue(value)), path }];
}
