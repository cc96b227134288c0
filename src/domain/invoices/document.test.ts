import { describe, expect, it } from "vitest";
import {
  creditNoteDocument,
  type InvoiceFacts,
  InvoiceMismatch,
  invoiceDocument,
  type Party,
} from "./document.ts";
import { printableDocument, printableText } from "./printable.ts";
import { REVERSE_CHARGE_MENTION } from "./tax-treatment.ts";

const seller: Party = {
  name: "Acme Video Ltd",
  contact: null,
  address: ["2 Harbour Road", "Dublin D04 Y123"],
  country: "IE",
  taxId: "IE6388047V",
  email: null,
};
const buyer: Party = {
  name: "Beispiel GmbH",
  contact: "Ada Team",
  address: ["Hauptstraße 1", "10115 Berlin"],
  country: "DE",
  taxId: "DE136695976",
  email: "ada@example.de",
};

function facts(overrides: Partial<InvoiceFacts> = {}): InvoiceFacts {
  return {
    number: "INV-2026-000001",
    issuedAt: Date.parse("2026-01-15T12:00:00Z"),
    orderId: "ord_1",
    servicePeriod: {
      start: Date.parse("2026-01-15T12:00:00Z"),
      end: Date.parse("2027-01-15T12:00:00Z"),
    },
    seller,
    buyer,
    lines: [
      { kind: "plan", label: "Business (billed yearly)", amount: 35_988 },
      { kind: "extraSeats", label: "2 extra seats × $119.88", amount: 23_976 },
      { kind: "discount", label: "Spring discount (first year)", amount: -5_996 },
      { kind: "proration", label: "Credit for your current plan", amount: -1_000 },
    ],
    subTotal: 52_968,
    ratePercent: 20,
    tax: 10_594,
    total: 63_562,
    amountPaid: 63_562,
    paymentMethod: "Visa ending 4242",
    treatment: { kind: "standard" },
    taxLabel: "VAT (France)",
    ...overrides,
  };
}

describe("invoice document", () => {
  it("states the tax per rate with its taxable amount", () => {
    const doc = invoiceDocument(facts());
    expect(doc.taxes).toEqual([
      { label: "VAT (France)", ratePercent: 20, taxable: 52_968, tax: 10_594 },
    ]);
    expect(doc.notes).toEqual([]);
  });

  it("a reverse charge: 0 % VAT on the whole amount, and the legal mention", () => {
    const doc = invoiceDocument(
      facts({
        tax: 0,
        total: 52_968,
        amountPaid: 52_968,
        treatment: { kind: "reverse_charge", mention: REVERSE_CHARGE_MENTION },
      }),
    );
    expect(doc.taxes).toEqual([
      { label: "VAT (reverse charge)", ratePercent: 0, taxable: 52_968, tax: 0 },
    ]);
    expect(doc.notes).toEqual([REVERSE_CHARGE_MENTION]);
  });

  it.each([
    ["lines that do not add up to the subtotal", { subTotal: 52_969 }],
    ["a total that is not subtotal plus tax", { total: 63_563 }],
    [
      "VAT on a reverse charge",
      { treatment: { kind: "reverse_charge", mention: REVERSE_CHARGE_MENTION } as const },
    ],
  ])("is never issued with %s", (_, overrides) => {
    expect(() => invoiceDocument(facts(overrides))).toThrow(InvoiceMismatch);
  });

  it("prints every line, the tax, the totals, the parties and the payment", () => {
    expect(printableText(printableDocument(invoiceDocument(facts())))).toMatchInlineSnapshot(`
      [
        "Invoice INV-2026-000001",
        "Seller",
        "Acme Video Ltd",
        "2 Harbour Road",
        "Dublin D04 Y123",
        "Ireland",
        "VAT id: IE6388047V",
        "Bill to",
        "Beispiel GmbH",
        "Attn. Ada Team",
        "Hauptstraße 1",
        "10115 Berlin",
        "Germany",
        "Tax id: DE136695976",
        "ada@example.de",
        "Invoice number",
        "INV-2026-000001",
        "Issue date",
        "15 January 2026",
        "Service period",
        "15 January 2026 to 15 January 2027",
        "Order",
        "ord_1",
        "Payment method",
        "Visa ending 4242",
        "Items",
        "Description",
        "Amount",
        "Business (billed yearly)",
        "$359.88",
        "2 extra seats × $119.88",
        "$239.76",
        "Spring discount (first year)",
        "-$59.96",
        "Credit for your current plan",
        "-$10.00",
        "Tax by rate",
        "Tax",
        "Rate",
        "Taxable amount",
        "Tax amount",
        "VAT (France)",
        "20 %",
        "$529.68",
        "$105.94",
        "Subtotal",
        "$529.68",
        "Tax",
        "$105.94",
        "Total",
        "$635.62",
        "Amount paid",
        "$635.62",
        "All amounts in US dollars.",
      ]
    `);
  });
});

describe("credit notes", () => {
  const invoice = invoiceDocument(facts());

  it("credits a whole invoice line by line, and refers to it", () => {
    const note = creditNoteDocument(invoice, {
      number: "CN-2026-000001",
      issuedAt: Date.parse("2026-02-01T00:00:00Z"),
      amount: 63_562,
      reason: "refund",
    });
    expect(note).toMatchObject({
      kind: "credit_note",
      number: "CN-2026-000001",
      refersTo: "INV-2026-000001",
      subTotal: -52_968,
      taxTotal: -10_594,
      total: -63_562,
    });
    expect(note.lines.map((l) => l.amount)).toEqual([-35_988, -23_976, 5_996, 1_000]);
    expect(note.taxes).toEqual([
      { label: "VAT (France)", ratePercent: 20, taxable: -52_968, tax: -10_594 },
    ]);
  });

  it.each([
    // refunded (tax included), credited tax, credited net
    [12_000, -2_000, -10_000],
    [1, 0, -1],
    [63_561, -10_594, -52_967],
  ])(
    "a partial refund of %i credits %i of tax and %i net, at the invoice's rate",
    (amount, tax, net) => {
      const note = creditNoteDocument(invoice, {
        number: "CN-2026-000002",
        issuedAt: invoice.issuedAt,
        amount,
        reason: "refund",
      });
      expect(note.taxTotal).toBe(tax);
      expect(note.subTotal).toBe(net);
      expect(note.subTotal + note.taxTotal).toBe(-amount);
      expect(note.lines).toEqual([
        { kind: "credit", label: "Partial credit of invoice INV-2026-000001", amount: net },
      ]);
    },
  );

  it.each([0, -1, 63_563, 1.5])("refuses to credit %s cents", (amount) => {
    expect(() =>
      creditNoteDocument(invoice, { number: "CN-2026-000003", issuedAt: 0, amount, reason: "x" }),
    ).toThrow(InvoiceMismatch);
  });
});
