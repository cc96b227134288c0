import { describe, expect, it } from "vitest";
import { closest } from "./closest.ts";

describe("closest", () => {
  it("finds a typo's intended word", () => {
    expect(closest("prise", ["price", "seatPrice", "term"])).toBe("price");
    expect(closest("SeatPrice", ["price", "seatPrice"])).toBe("seatPrice");
    expect(closest("wv_singel_12m", ["wv_single_1m", "wv_single_12m"])).toBe("wv_single_12m");
  });

  it("suggests nothing when no word is close", () => {
    expect(closest("colour", ["price", "term", "code"])).toBeUndefined();
    expect(closest("x", [])).toBeUndefined();
  });
});
