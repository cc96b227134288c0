// Invoice and credit-note numbers. Each document kind has its own series per calendar year (UTC),
// and within a series the numbers run 1, 2, 3, ... with no gap and no repeat: the server takes
// the next one from a counter row in the same transaction that writes the document
// (src/server/db/invoices.ts), so a rolled-back purchase takes no number and two servers never
// take one twice. This module only names the series and formats and reads the numbers.

export type DocumentKind = "invoice" | "credit_note";

const PREFIX: Record<DocumentKind, string> = { invoice: "INV", credit_note: "CN" };

/** Digits of the running number: a million documents a year before the format widens. */
const WIDTH = 6;

/** The series a document issued at `atMs` belongs to: "INV-2026", "CN-2026". */
export function seriesFor(kind: DocumentKind, atMs: number): string {
  if (!Number.isFinite(atMs)) throw new RangeError(`An issue time must be a time; got ${atMs}.`);
  return `${PREFIX[kind]}-${new Date(atMs).getUTCFullYear()}`;
}

/** The printed number: the series and the running number, "INV-2026-000042". */
export function formatDocumentNumber(series: string, sequence: number): string {
  if (!Number.isSafeInteger(sequence) || sequence < 1) {
    throw new RangeError(`A running number starts at 1; got ${sequence}.`);
  }
  return `${series}-${String(sequence).padStart(WIDTH, "0")}`;
}

const NUMBER = /^(INV|CN)-(\d{4})-(\d{6,})$/;

/** The series and running number of a printed number, or null for anything else. */
export function parseDocumentNumber(
  text: string,
): { kind: DocumentKind; series: string; sequence: number } | null {
  const match = NUMBER.exec(text);
  if (!match) return null;
  const sequence = Number(match[3]);
  if (!Number.isSafeInteger(sequence) || sequence < 1) return null;
  return {
    kind: match[1] === "INV" ? "invoice" : "credit_note",
    series: `${match[1]}-${match[2]}`,
    sequence,
  };
}

/**
 * What an auditor checks of one series: the running numbers, in any order, are exactly 1..n.
 * Returns the numbers missing and those given more than once (both empty when it holds).
 */
export function seriesGaps(sequences: readonly number[]): {
  missing: number[];
  repeated: number[];
} {
  const seen = new Map<number, number>();
  for (const n of sequences) seen.set(n, (seen.get(n) ?? 0) + 1);
  const highest = sequences.reduce((max, n) => Math.max(max, n), 0);
  const missing: number[] = [];
  for (let n = 1; n <= highest; n++) if (!seen.has(n)) missing.push(n);
  const repeated = [...seen].filter(([, count]) => count > 1).map(([n]) => n);
  return { missing, repeated: repeated.sort((a, b) => a - b) };
}
