// An invoice's documents (PDF and page, its owner's only), credit notes and refund receipts
// (issue 23).

import { describe, expect, it } from "vitest";
import { formatDate } from "../../domain/invoices/printable.ts";
import {
  buy,
  buyer,
  documentsOf,
  htmlToLines,
  receiptsTo,
  server,
  startsInvoiceServer,
} from "../testing/invoice-flow.ts";
import { deleteInvoicesOfOrder } from "../testing/invoice-tables.ts";
import { extractPdfText, pdfFonts } from "../testing/pdf-text.ts";
import { issueCreditNote } from "./invoices.ts";
import { recordRefund } from "./refunds.ts";

startsInvoiceServer();

describe("documents", () => {
  it("the PDF says what the HTML page says, and only its owner gets either", async () => {
    const client = await buyer({
      email: "pdf@example.com",
      address: { name: "Pat Doe", country: "DE", postalCode: "10115" },
    });
    await buy(client, "wv_unloct17_12m");
    const [entry] = await documentsOf(client);
    if (!entry) throw new Error("no invoice");
    const pdf = await client.fetch(entry.pdfUrl);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("content-disposition")).toBe(
      `attachment; filename="${entry.number}.pdf"`,
    );
    const page = await client.fetch(entry.htmlUrl);
    expect(page.status).toBe(200);
    const htmlText = htmlToLines(await page.text());
    const pdfText = await extractPdfText(new Uint8Array(await pdf.arrayBuffer()));
    // The page's text, less its two links, is the PDF's text, in the same order (the PDF wraps
    // long lines, so both are compared as one run of words).
    const words = (lines: string[]) => lines.join(" ").replace(/\s+/g, " ");
    expect(words(pdfText)).toBe(
      words(htmlText.filter((l) => !["Download the PDF", "Back to your account", "·"].includes(l))),
    );
    expect(
      await pdfFonts(new Uint8Array(await (await client.fetch(entry.pdfUrl)).arrayBuffer())),
    ).toEqual([
      // pdf-lib names an embedded subset <font>-<digits>.
      { name: expect.stringMatching(/^DejaVuSans-\d+$/), embedded: true },
      { name: expect.stringMatching(/^DejaVuSans-Bold-\d+$/), embedded: true },
    ]);
    expect(pdfText).toContain("VAT (Germany)");
    expect(pdfText).toContain("19 %");

    const stranger = await server.signedIn("free@demo.test");
    for (const path of [
      entry.pdfUrl,
      entry.htmlUrl,
      "/api/5/invoices/INV-2026-999999.pdf",
      "/api/5/invoices/x.pdf",
    ]) {
      expect((await stranger.fetch(path)).status, path).toBe(404);
    }
    expect((await server.client().fetch(entry.pdfUrl)).status).toBe(401);
    // (PDF.js loads its worker on first use: seconds on a busy machine.)
  }, 60_000);
});

describe("credit notes", () => {
  it("a refund makes a credit note of its own series that refers to the invoice, once per refund", async () => {
    const client = await buyer({
      email: "refund@example.com",
      address: { name: "R", country: "FR" },
    });
    const { summary, order } = await buy(client, "wv_unloct17_12m");
    const db = server.running.deps.db;
    const deps = server.running.deps;
    const at = server.clock.now();
    const note = await db.transaction((tx) =>
      issueCreditNote(
        tx,
        { orderId: order.orderId, amountCents: 1200, refundId: "re_1", at },
        deps,
      ),
    );
    const again = await db.transaction((tx) =>
      issueCreditNote(
        tx,
        { orderId: order.orderId, amountCents: 1200, refundId: "re_1", at },
        deps,
      ),
    );
    expect(again?.number).toBe(note?.number);
    expect(note?.number).toMatch(/^CN-2026-\d{6}$/);
    expect(note?.document).toMatchObject({
      kind: "credit_note",
      refersTo: (await documentsOf(client)).find((d) => d.kind === "invoice")?.number,
      total: -1200,
      taxes: [{ label: "VAT (France)", ratePercent: 20, taxable: -1000, tax: -200 }],
    });
    // The rest of the invoice can be credited, never more.
    const rest = await db.transaction((tx) =>
      issueCreditNote(
        tx,
        { orderId: order.orderId, amountCents: 10 ** 9, refundId: "re_2", at },
        deps,
      ),
    );
    expect(rest?.total).toBe(-(summary.total - 1200));
    const none = await db.transaction((tx) =>
      issueCreditNote(tx, { orderId: order.orderId, amountCents: 1, refundId: "re_3", at }, deps),
    );
    expect(none).toBeNull();
    const refunds = (await receiptsTo("refund@example.com")).filter((m) =>
      m.subject.startsWith("Refund"),
    );
    expect(refunds.map((m) => m.subject)).toEqual([
      `Refund receipt: $${((summary.total - 1200) / 100).toFixed(2)} (credit note ${rest?.number})`,
      `Refund receipt: $12.00 (credit note ${note?.number})`,
    ]);
  });
});

describe("refund receipts", () => {
  it("a refund of an order without an invoice (from before invoices) has no credit note, but its receipt", async () => {
    const email = "refund-legacy@example.com";
    const client = await buyer({ email, address: { name: "L", country: "US", state: "OR" } });
    const { order } = await buy(client, "wv_single_1m");
    const db = server.running.deps.db;
    // As an order bought before invoices were issued: no document of its own.
    await deleteInvoicesOfOrder(db, order.orderId);
    const refund = (id: string) =>
      db.transaction((tx) =>
        recordRefund(
          tx,
          {
            orderId: order.orderId,
            amount: 500,
            currency: "usd",
            providerRefundId: id,
            kind: "refund",
            provider: "stripe",
            now: server.clock.now(),
          },
          server.running.deps,
        ),
      );
    expect((await refund("re_legacy_1")).recorded).toBe(true);
    // The same refund learnt twice (a webhook and the reconciliation): one receipt.
    expect(await refund("re_legacy_1")).toEqual({ recorded: false, reason: "already_recorded" });
    expect(await documentsOf(client)).toEqual([]);
    const refunds = (await receiptsTo(email)).filter((m) => m.subject.startsWith("Refund"));
    expect(refunds.map((m) => m.subject)).toEqual([
      `Refund receipt: $5.00 (order ${order.orderId})`,
    ]);
    expect(refunds[0]?.body).toContain(
      `We have refunded $5.00 to your payment method on ${formatDate(server.clock.now())}, for order ${order.orderId}.`,
    );
  });
});
