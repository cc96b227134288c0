// Issue 23 through the API: each charge has an invoice with a gapless number, the seller, the
// buyer (organisation and tax id when given), the lines, tax and totals of the order summary it
// was charged by, a receipt in the outbox, and its PDF and HTML for its owner only. The done-when
// scenario: a German company with a valid VAT id (reverse charge), a US business in California
// (sales tax) and a private person in France (French VAT), all buying from an Irish seller.

import { describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { REVERSE_CHARGE_MENTION } from "../../domain/invoices/tax-treatment.ts";
import {
  buy,
  buyer,
  documentsOf,
  expectRun,
  expectSameText,
  issuedTo,
  server,
  startsInvoiceServer,
} from "../testing/invoice-flow.ts";
import { sequencesOfSeries } from "../testing/invoice-tables.ts";

startsInvoiceServer();

describe("the done-when scenario: three buyers, three invoices", () => {
  it("a German company with a valid VAT id pays no VAT: reverse charge, with the legal mention", async () => {
    const email = "einkauf@beispiel.de";
    const client = await buyer({
      email,
      address: { name: "Ada Team", country: "DE", postalCode: "10115" },
      details: {
        organisation: "Beispiel GmbH",
        taxId: "DE 136 695 976",
        street: "Hauptstraße 1",
        city: "Berlin",
      },
    });
    const { summary, order } = await buy(client, "wv_unloct17_12m");
    expect(summary.total).toBe(9588);
    const { entry, doc, pdfText, htmlText, receipt } = await issuedTo(client, email);
    expect(doc).toMatchObject({
      kind: "invoice",
      orderId: order.orderId,
      seller: { country: "IE", taxId: "IE6388047V" },
      buyer: {
        name: "Beispiel GmbH",
        contact: "Ada Team",
        address: ["Hauptstraße 1", "10115 Berlin"],
        country: "DE",
        taxId: "DE136695976",
      },
      lines: [{ kind: "plan", label: "Unlimited (billed annually)", amount: 9588 }],
      subTotal: 9588,
      taxes: [{ label: "VAT (reverse charge)", ratePercent: 0, taxable: 9588, tax: 0 }],
      taxTotal: 0,
      total: 9588,
      amountPaid: 9588,
      paymentMethod: "Visa ending 4242",
      notes: [REVERSE_CHARGE_MENTION],
    });
    expect(order.total).toBe(9588);
    expectSameText(pdfText, htmlText);
    expectRun(pdfText, ["Bill to", "Beispiel GmbH", "Attn. Ada Team", "Hauptstraße 1"]);
    expectRun(pdfText, ["10115 Berlin", "Germany", "Tax id: DE136695976"]);
    expectRun(pdfText, ["Service period", "15 January 2026 to 15 January 2027"]);
    expectRun(pdfText, ["Unlimited (billed annually)", "$95.88"]);
    expectRun(pdfText, ["VAT (reverse charge)", "0 %", "$95.88", "$0.00"]);
    expectRun(pdfText, ["Subtotal", "$95.88", "Tax", "$0.00", "Total", "$95.88"]);
    expect(pdfText.join(" ")).toContain(REVERSE_CHARGE_MENTION);
    expect(receipt?.subject).toBe(`Receipt: $95.88 paid (invoice ${entry.number})`);
    expect(receipt?.body).toContain(
      [
        "Unlimited (billed annually): $95.88",
        "VAT (reverse charge) 0 % on $95.88: $0.00",
        "Total: $95.88",
        REVERSE_CHARGE_MENTION,
      ].join("\n"),
    );
  }, 60_000);

  it("a US business in California pays California's sales tax on the plan and its seats", async () => {
    const email = "ap@example-studio.com";
    const client = await buyer({
      email,
      address: { name: "Sam Lee", country: "US", state: "CA", postalCode: "94103" },
      details: {
        organisation: "Example Studio Inc.",
        taxId: "12-3456789",
        street: "1 Market St",
        city: "San Francisco",
      },
    });
    // Business yearly with 5 seats: 3 included, 2 extra at $239.88 a year.
    const { order } = await buy(client, "wv_bizoct17_12m", 5);
    const { entry, doc, pdfText, htmlText, receipt } = await issuedTo(client, email);
    expect(doc).toMatchObject({
      orderId: order.orderId,
      buyer: {
        name: "Example Studio Inc.",
        contact: "Sam Lee",
        taxId: "12-3456789",
        address: ["1 Market St", "94103 San Francisco CA"],
        country: "US",
      },
      lines: [
        { kind: "plan", label: "Business (billed annually)", amount: 44388 },
        { kind: "extraSeats", label: "2 extra seats × $239.88", amount: 47976 },
      ],
      subTotal: 92364,
      // 7.25 % of $923.64 is $66.9639: $66.96.
      taxes: [{ label: "Sales tax (California)", ratePercent: 7.25, taxable: 92364, tax: 6696 }],
      total: 99060,
      amountPaid: 99060,
      notes: [],
    });
    expect(order.total).toBe(99060);
    expectSameText(pdfText, htmlText);
    expectRun(pdfText, ["United States", "Tax id: 12-3456789"]);
    expectRun(pdfText, [
      "Business (billed annually)",
      "$443.88",
      "2 extra seats × $239.88",
      "$479.76",
    ]);
    expectRun(pdfText, ["Sales tax (California)", "7.25 %", "$923.64", "$66.96"]);
    expectRun(pdfText, ["Subtotal", "$923.64", "Tax", "$66.96", "Total", "$990.60"]);
    expect(pdfText.join(" ")).not.toContain("Reverse charge");
    expect(receipt?.subject).toBe(`Receipt: $990.60 paid (invoice ${entry.number})`);
    expect(receipt?.body).toContain(
      [
        "Business (billed annually): $443.88",
        "2 extra seats × $239.88: $479.76",
        "Sales tax (California) 7.25 % on $923.64: $66.96",
        "Total: $990.60",
      ].join("\n"),
    );
  }, 60_000);

  it("a person in Australia pays GST, and every document calls it so (issue 33, item 6)", async () => {
    const email = "jack@example.com.au";
    const client = await buyer({
      email,
      address: { name: "Jack Lee", country: "AU", state: "NSW", postalCode: "2000" },
    });
    const summary = await client.call(api.orderSummary, {
      body: { targetProduct: "wv_single_1m" },
    });
    expect(summary.ok && summary.body).toMatchObject({ taxLabel: "GST", total: 1099 });
    await buy(client, "wv_single_1m");
    const { doc, pdfText, receipt } = await issuedTo(client, email);
    // 10 % of $9.99 is $0.999: $1.00.
    expect(doc?.taxes).toEqual([
      { label: "GST (Australia)", ratePercent: 10, taxable: 999, tax: 100 },
    ]);
    expectRun(pdfText, ["GST (Australia)", "10 %", "$9.99", "$1.00"]);
    expect(receipt?.body).toContain("GST (Australia) 10 % on $9.99: $1.00");
    expect(receipt?.body).not.toContain("VAT");
  }, 60_000);

  it("a private person in France pays French VAT", async () => {
    const email = "camille@example.fr";
    const client = await buyer({
      email,
      address: { name: "Camille Martin", country: "FR", postalCode: "75001" },
    });
    const { order } = await buy(client, "wv_single_1m");
    const { entry, doc, pdfText, htmlText, receipt } = await issuedTo(client, email);
    expect(doc).toMatchObject({
      orderId: order.orderId,
      buyer: { name: "Camille Martin", contact: null, taxId: null, country: "FR" },
      lines: [{ kind: "plan", label: "Power (billed monthly)", amount: 999 }],
      subTotal: 999,
      // 20 % of $9.99 is $1.998: $2.00.
      taxes: [{ label: "VAT (France)", ratePercent: 20, taxable: 999, tax: 200 }],
      total: 1199,
      amountPaid: 1199,
      notes: [],
    });
    expectSameText(pdfText, htmlText);
    expectRun(pdfText, ["Bill to", "Camille Martin", "75001", "France", email]);
    expectRun(pdfText, ["Service period", "15 January 2026 to 15 February 2026"]);
    expectRun(pdfText, ["Power (billed monthly)", "$9.99"]);
    expectRun(pdfText, ["VAT (France)", "20 %", "$9.99", "$2.00"]);
    expectRun(pdfText, ["Subtotal", "$9.99", "Tax", "$2.00", "Total", "$11.99"]);
    expect(pdfText.join(" ")).not.toContain("Tax id");
    expect(receipt?.subject).toBe(`Receipt: $11.99 paid (invoice ${entry.number})`);
    expect(receipt?.body).toContain(
      ["Power (billed monthly): $9.99", "VAT (France) 20 % on $9.99: $2.00", "Total: $11.99"].join(
        "\n",
      ),
    );
  }, 60_000);
});

describe("numbers", () => {
  it("run on without a gap across buyers and kinds of charge, and a one-off export has its invoice", async () => {
    const client = await buyer({
      email: "numbers@example.com",
      // A US address needs its state (issue 33, item 6); Oregon's is taxed at 0 % here.
      address: { name: "N", country: "US", state: "OR" },
    });
    await buy(client, "wv_unloct17_12m");
    await buy(client, "single_export_hd");
    const sequences = await sequencesOfSeries(server.running.deps.db, "INV-2026");
    expect(sequences).toEqual(sequences.map((_, i) => i + 1));
    const docs = await documentsOf(client);
    expect(docs.map((d) => d.kind)).toEqual(["invoice", "invoice"]);
  });
});
