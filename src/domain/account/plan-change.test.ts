import { describe, expect, it } from "vitest";
import { classifyPlanChange, seatsInUseShortfall } from "./plan-change.ts";

const business5 = { productCode: "wv_bizoct17_1m", seats: 5, creditCents: 30_000 };

describe("classifyPlanChange", () => {
  it("is new without a running paid period", () => {
    expect(
      classifyPlanChange({
        current: null,
        target: { productCode: "wv_single_1m", seats: 1, firstTermCents: 999 },
      }),
    ).toBe("new");
  });

  it("is the same for the product and seats the account has", () => {
    expect(
      classifyPlanChange({
        current: business5,
        target: { productCode: "wv_bizoct17_1m", seats: 5, firstTermCents: 15_397 },
      }),
    ).toBe("same");
  });

  it("schedules a move to a cheaper plan whose price the credit exceeds", () => {
    expect(
      classifyPlanChange({
        current: business5,
        target: { productCode: "wv_single_1m", seats: 1, firstTermCents: 999 },
      }),
    ).toBe("downgrade");
  });

  it("schedules fewer seats even when the credit would fit", () => {
    expect(
      classifyPlanChange({
        current: { ...business5, creditCents: 100 },
        target: { productCode: "wv_bizoct17_1m", seats: 4, firstTermCents: 11_398 },
      }),
    ).toBe("downgrade");
  });

  it("applies now when the credit fits inside the new first term", () => {
    expect(
      classifyPlanChange({
        current: { productCode: "wv_unloct17_1m", seats: 1, creditCents: 1_200 },
        target: { productCode: "wv_unloct17_12m", seats: 1, firstTermCents: 9_588 },
      }),
    ).toBe("upgrade");
    expect(
      classifyPlanChange({
        current: business5,
        target: { productCode: "wv_bizoct17_1m", seats: 6, firstTermCents: 31_000 },
      }),
    ).toBe("upgrade");
  });
});

describe("seatsInUseShortfall", () => {
  it("lets an account without members go anywhere", () => {
    expect(seatsInUseShortfall({ usedSeats: 1, targetMultiUser: false, targetSeats: 1 })).toBe(
      null,
    );
    expect(seatsInUseShortfall({ usedSeats: 0, targetMultiUser: false, targetSeats: 1 })).toBe(
      null,
    );
  });

  it("never cuts below the members in use, nor moves a team to a one-person plan", () => {
    expect(seatsInUseShortfall({ usedSeats: 4, targetMultiUser: true, targetSeats: 3 })).toEqual({
      needed: 4,
    });
    expect(seatsInUseShortfall({ usedSeats: 2, targetMultiUser: false, targetSeats: 1 })).toEqual({
      needed: 2,
    });
    expect(seatsInUseShortfall({ usedSeats: 4, targetMultiUser: true, targetSeats: 4 })).toBe(null);
  });
});
