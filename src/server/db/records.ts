// Maps rows between snake_case columns and camelCase records, with booleans stored as 0/1 and
// JSON stored as text, for the table modules not yet written with Kysely's typed builder. Column names come only from the fixed maps of the table modules, never
// from input, so the SQL built here cannot be injected.
import type { Row, SqlValue } from "./db.ts";

export type Codec = "text" | "int" | "bool" | "json";
export type Columns<T> = { [K in keyof T]: readonly [column: string, codec: Codec] };

function decode(value: unknown, codec: Codec): unknown {
  if (value === null || value === undefined) return codec === "bool" ? false : null;
  switch (codec) {
    case "bool":
      return value === 1 || value === 1n || value === true;
    case "int":
      return typeof value === "bigint" ? Number(value) : value;
    case "json":
      return typeof value === "string" ? JSON.parse(value) : value;
    case "text":
      return value;
  }
}

function encode(value: unknown, codec: Codec): SqlValue {
  if (value === null || value === undefined) return null;
  if (codec === "bool") return value ? 1 : 0;
  if (codec === "json") return JSON.stringify(value);
  return value as SqlValue;
}

/** A table's row reader: each field of the record from its column, decoded. */
function fromRowOf<T>(columns: Columns<T>): (row: Row) => T {
  const fields = Object.entries(columns) as [string, readonly [string, Codec]][];
  return (row) => {
    const record: Record<string, unknown> = {};
    for (const [key, [column, codec]] of fields) record[key] = decode(row[column], codec);
    return record as T;
  };
}

export function mapper<T>(table: string, columns: Columns<T>) {
  const keys = Object.keys(columns) as (keyof T)[];
  return {
    fromRow: fromRowOf(columns),
    /** `INSERT INTO table (cols) VALUES (?...)` for the keys of `record` that are not undefined. */
    insert(record: Partial<T>): { sql: string; params: SqlValue[] } {
      const present = keys.filter((key) => record[key] !== undefined);
      const names = present.map((key) => columns[key][0]);
      return {
        sql: `INSERT INTO ${table} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`,
        params: present.map((key) => encode(record[key], columns[key][1])),
      };
    },
    /** `SET a = ?, b = ?` for the keys present in `patch`. */
    set(patch: Partial<T>): { clause: string; params: SqlValue[] } {
      const present = keys.filter((key) => Object.hasOwn(patch, key));
      return {
        clause: present.map((key) => `${columns[key][0]} = ?`).join(", "),
        params: present.map((key) => encode(patch[key], columns[key][1])),
      };
    },
  };
}

/**
 * A table's columns read in a join under `prefix`ed names, where they would collide with another
 * table's (user_id, updated_at): the SELECT list, and the mapper that reads those names back.
 * Each column of a LEFT JOIN that found no row is NULL; the caller tells that from a NOT NULL key.
 */
export function joinedColumns<T>(table: string, prefix: string, columns: Columns<T>) {
  const entries = Object.entries(columns) as [keyof T, readonly [string, Codec]][];
  const renamed = {} as Record<keyof T, readonly [string, Codec]>;
  for (const [key, [column, codec]] of entries) renamed[key] = [`${prefix}${column}`, codec];
  return {
    select: entries.map(([, [column]]) => `${table}.${column} AS ${prefix}${column}`).join(", "),
    ...mapper<T>(table, renamed),
  };
}
