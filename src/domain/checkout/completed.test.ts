import { describe, expect, it } from "vitest";
import type { InvoiceSummary } from "../account/invoice.ts";
import { completedHeadline, purchaseKind, receiptLine } from "./completed.ts";

const plan: InvoiceSummary = {
  orderId: "ord_1",
  productName: "Unlimited",
  orderDuration: 12,
  orderStartDate: Date.UTC(2026, 11, 7),
  hasFlex: false,
  paymentProcessor: "cc",
  paymentInvoiceId: "INV-2026-000004",
  price: 9588,
  amountPaid: 9588,
  productCode: "wv_unloct17_12m",
  seats: 1,
  orderEndDate: Date.UTC(2027, 11, 7),
  previous: null,
};

describe("completedHeadline", () => {
  it("names the plan bought and what was paid", () => {
    expect(purchaseKind(plan)).toBe("plan");
    expect(completedHeadline(plan)).toBe("Thank you! You paid $95.88 for Unlimited.");
  });

  it("counts the seats added and the team's seats now", () => {
    const seats = {
      ...plan,
      productName: "Business",
      productCode: "wv_bizoct17_12m",
      seats: 7,
      amountPaid: 25745,
      previous: { productCode: "wv_bizoct17_12m", seats: 5 },
    };
    expect(completedHeadline(seats)).toBe(
      "You added 2 seats: your team now has 7. Paid $257.45 for the rest of this year.",
    );
  });

  it("says an add-on was added to the running plan", () => {
    const addOn = {
      ...plan,
      productName: "Unlimited with Essentials",
      productCode: "wv_unloct17_plus_12m",
      amountPaid: 1200,
      previous: { productCode: "wv_unloct17_12m", seats: 1 },
    };
    expect(completedHeadline(addOn)).toBe(
      "You added Essentials to your plan (Unlimited with Essentials). Paid $12.00 for the rest of this year.",
    );
  });

  it("says a single export's credit is ready, and until when Flex is valid", () => {
    expect(completedHeadline({ ...plan, productCode: "single_export_4k", amountPaid: 499 })).toBe(
      "Your export credit is ready: paid $4.99. Open the editor and export your video.",
    );
    expect(
      completedHeadline({
        ...plan,
        productCode: "wv_flex_12m",
        productName: "Flex",
        hasFlex: true,
      }),
    ).toBe("Thank you! You paid $95.88 for Flex, valid until December 7, 2027. It does not renew.");
  });
});

describe("receiptLine", () => {
  it("says where the receipt went and whom the invoice is made out to", () => {
    expect(
      receiptLine({
        invoiceNumber: "INV-2026-000004",
        email: "pat@example.com",
        billedTo: "Acme Ltd",
      }),
    ).toBe(
      "We sent the receipt to pat@example.com. Invoice INV-2026-000004 is made out to Acme Ltd.",
    );
  });
});
