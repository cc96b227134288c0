// The seam's `?` placeholders as PostgreSQL numbers them (db.ts: one query text for both dialects).
const cache = new Map<string, string>();

/**
 * `?` placeholders numbered as PostgreSQL wants them ($1, $2, ...), leaving string literals,
 * quoted identifiers, dollar-quoted strings and comments alone.
 */
export function numberPlaceholders(sql: string): string {
  const known = cache.get(sql);
  if (known !== undefined) return known;
  let out = "";
  let n = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i] as string;
    const next = sql[i + 1];
    if (c === "'" || c === '"') {
      const end = closing(sql, i + 1, c);
      out += sql.slice(i, end);
      i = end;
    } else if (c === "-" && next === "-") {
      const end = sql.indexOf("\n", i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === "/" && next === "*") {
      const end = sql.indexOf("*/", i + 2);
      const stop = end === -1 ? sql.length : end + 2;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === "$" && /[A-Za-z_$]/.test(next ?? "") && !/[\w$]/.test(sql[i - 1] ?? "")) {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i))?.[0];
      if (tag) {
        const end = sql.indexOf(tag, i + tag.length);
        const stop = end === -1 ? sql.length : end + tag.length;
        out += sql.slice(i, stop);
        i = stop;
      } else {
        out += c;
        i += 1;
      }
    } else if (c === "?") {
      n += 1;
      out += `$${n}`;
      i += 1;
    } else {
      out += c;
      i += 1;
    }
  }
  if (cache.size > 5000) cache.clear();
  cache.set(sql, out);
  return out;
}

/** The index after the quote that closes a literal opened before `from` (doubled quotes escape). */
function closing(sql: string, from: number, quote: string): number {
  let i = from;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else i += 1;
  }
  return sql.length;
}
