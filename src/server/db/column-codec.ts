// Records in camelCase to and from a table's columns, by a map of field → [column, codec]: 0/1
// for booleans, JSON text for objects, numbers for BIGINT on both dialects. For the modules whose
// updates may name any field (users.ts, subscriptions.ts); decision 0082.
import { bool } from "./db.ts";

export type Codec = "bool" | "json" | "as is";

export function columnCodec<R extends object>(
  columns: { [K in keyof R]: readonly [string, Codec] },
  /** A field never written (the surrogate key). */
  readOnly?: keyof R,
) {
  const entries = Object.entries(columns) as [keyof R, readonly [string, Codec]][];
  return {
    fromRow(r: object): R {
      const row = r as Record<string, unknown>;
      const record: Record<string, unknown> = {};
      for (const [key, [column, codec]] of entries) {
        const value = row[column] ?? null;
        record[key as string] =
          codec === "bool"
            ? bool(value)
            : codec === "json" && typeof value === "string"
              ? JSON.parse(value)
              : typeof value === "bigint"
                ? Number(value)
                : value;
      }
      return record as R;
    },
    /**
     * The columns of the fields of `fields`: on an insert the fields left undefined are left out
     * (their defaults), on an update a field present as undefined is set to NULL.
     */
    toColumns(fields: Partial<R>, undefinedAs: "left out" | "null"): Record<string, unknown> {
      const row: Record<string, unknown> = {};
      for (const [key, [column, codec]] of entries) {
        if (key === readOnly || !Object.hasOwn(fields, key)) continue;
        const value = fields[key];
        if (value === undefined) {
          if (undefinedAs === "null") row[column] = null;
        } else if (value === null) row[column] = null;
        else if (codec === "bool") row[column] = value ? 1 : 0;
        else if (codec === "json") row[column] = JSON.stringify(value);
        else row[column] = value;
      }
      return row;
    },
  };
}
