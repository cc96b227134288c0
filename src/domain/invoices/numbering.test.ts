import { describe, expect, it } from "vitest";
import { formatDocumentNumber, parseDocumentNumber, seriesFor, seriesGaps } from "./numbering.ts";

const at = (iso: string) => Date.parse(iso);

describe("invoice numbering", () => {
  it.each([
    ["invoice", "2026-01-01T00:00:00Z", "INV-2026"],
    ["invoice", "2026-12-31T23:59:59.999Z", "INV-2026"],
    ["invoice", "2027-01-01T00:00:00Z", "INV-2027"],
    ["credit_note", "2026-06-15T12:00:00Z", "CN-2026"],
    // A year's series follows UTC, not the buyer's clock: 23:30 in New York on 31 December is 2027.
    ["invoice", "2027-01-01T04:30:00Z", "INV-2027"],
  ] as const)("a %s issued at %s is in series %s", (kind, iso, series) => {
    expect(seriesFor(kind, at(iso))).toBe(series);
  });

  it.each([
    ["INV-2026", 1, "INV-2026-000001"],
    ["INV-2026", 42, "INV-2026-000042"],
    ["CN-2026", 999_999, "CN-2026-999999"],
    ["INV-2026", 1_000_000, "INV-2026-1000000"],
  ])("series %s, number %i prints as %s and reads back", (series, n, printed) => {
    expect(formatDocumentNumber(series, n)).toBe(printed);
    expect(parseDocumentNumber(printed)).toMatchObject({ series, sequence: n });
  });

  it.each([0, -1, 1.5, Number.NaN])("refuses running number %s", (n) => {
    expect(() => formatDocumentNumber("INV-2026", n)).toThrow(RangeError);
  });

  it.each([
    "",
    "INV-2026-1",
    "INV-26-000001",
    "XX-2026-000001",
    "INV-2026-000000",
    "inv-2026-000001",
  ])("reads %j as no document number", (text) => {
    expect(parseDocumentNumber(text)).toBeNull();
  });

  it.each([
    [[], [], []],
    [[1, 2, 3], [], []],
    [[3, 1, 2], [], []],
    [[1, 3], [2], []],
    [[1, 2, 2, 3], [], [2]],
    [[2, 4, 4], [1, 3], [4]],
  ])("series %j: missing %j, repeated %j", (numbers, missing, repeated) => {
    expect(seriesGaps(numbers)).toEqual({ missing, repeated });
  });
});
