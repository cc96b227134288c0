import { describe, expect, it } from "vitest";
import { makeSpecCatalog } from "../testing/builders.ts";
import { seatQuotePrice } from "./seat-quote.ts";
import { seatBandTotal } from "./seats.ts";

const catalog = makeSpecCatalog();
const structure = catalog.seatStructures.find(
  (s) => s.default && s.appliesTo.includes("wv_k12_12m"),
);
if (!structure) throw new Error("no schools structure");

describe("a schools quote's price", () => {
  it.each([30, 31, 45, 100, 101, 999, 1_000])(
    "%i seats cost what the online checkout charges, band by band",
    (seats) => {
      const quoted = seatQuotePrice(structure, seats);
      const online = seatBandTotal(structure, seats);
      expect(quoted.ok && online.ok).toBe(true);
      if (!quoted.ok || !online.ok) return;
      expect(quoted.value.total).toBe(online.total);
      expect(quoted.value.lines.reduce((n, l) => n + l.seats, 0)).toBe(seats);
      expect(quoted.value.aboveOnlineLimit).toBe(false);
    },
  );

  it("above the last band, the last band's seat price goes on", () => {
    const top = seatQuotePrice(structure, 1_000);
    const above = seatQuotePrice(structure, 2_000);
    if (!top.ok || !above.ok) throw new Error("not priced");
    const last = structure.bands.at(-1);
    expect(above.value.total - top.value.total).toBe(1_000 * (last?.perSeat ?? Number.NaN));
    expect(above.value.aboveOnlineLimit).toBe(true);
    expect(above.value.lines.at(-1)?.label).toBe("Seats 101 to 2,000: 1,900 × 10.00");
  });

  it("lists 45 seats as the 30-seat package and 15 seats of the next band", () => {
    const quoted = seatQuotePrice(structure, 45);
    expect(quoted.ok && quoted.value.lines).toEqual([
      { label: "Seats 1 to 30 (package)", seats: 30, amount: 37_400 },
      { label: "Seats 31 to 45: 15 × 11.00", seats: 15, amount: 16_500 },
    ]);
  });

  it.each([0, 29, -1, 1.5, 20_000_000])("refuses %s seats", (seats) => {
    expect(seatQuotePrice(structure, seats).ok).toBe(false);
  });
});
