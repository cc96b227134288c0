// Every kind of charge has its invoice and receipt, renewals included (issue 23).

import { describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { REVERSE_CHARGE_MENTION } from "../../domain/invoices/tax-treatment.ts";
import { Invoices } from "../db/invoices.ts";
import { Outbox } from "../db/outbox.ts";
import { newKey } from "../testing/harness.ts";
import {
  buy,
  buyer,
  documentsOf,
  receiptsTo,
  server,
  startsInvoiceServer,
  subscribeMonthly,
  usd,
  withRenewingServer,
} from "../testing/invoice-flow.ts";
import { answerSandboxApproval } from "../testing/paypal-sandbox.ts";
import { recordRefund } from "./refunds.ts";

startsInvoiceServer();

describe("every kind of charge has its invoice and receipt", () => {
  it("first purchase, seats, add-on, export and export hours each have one, and a refund its credit note and receipt", async () => {
    const email = "kinds@example.fr";
    const client = await buyer({ email, address: { name: "K", country: "FR" } });
    const bought = [
      await buy(client, "wv_bizoct17_1m", 3), // first purchase
      await buy(client, "wv_bizoct17_1m", 5), // two seats more, for the rest of the month
      await buy(client, "single_export_hd"), // a one-off export
      await buy(client, "export_upgrade_1h"), // export hours
    ];
    const personal = await buyer({
      email: "kinds-2@example.fr",
      address: { name: "K2", country: "FR" },
    });
    await buy(personal, "wv_unloct17_1m");
    bought.push(await buy(personal, "wv_unloct17_plus_1m")); // Essentials added mid-month

    const db = server.running.deps.db;
    const described: string[][] = [];
    for (const { order, summary } of bought) {
      const invoice = await Invoices.currentForOrder(db, order.orderId);
      expect(invoice?.document).toMatchObject({
        kind: "invoice",
        lines: summary.lines,
        taxes: [
          {
            label: "VAT (France)",
            ratePercent: 20,
            taxable: summary.subTotal,
            tax: summary.salesTax,
          },
        ],
        total: order.total,
      });
      described.push(invoice?.document.lines.map((l) => `${l.kind}: ${l.label}`) ?? []);
    }
    expect(described).toEqual([
      ["plan: Business (billed monthly)"],
      ["extraSeats: 2 added seats for the rest of your billing period"],
      ["addOn: HD export"],
      ["addOn: Export upgrade: 1 hour"],
      ["essentials: Essentials for the rest of your billing period"],
    ]);
    const numbers = await Promise.all(
      bought.map(async ({ order }) => (await Invoices.currentForOrder(db, order.orderId))?.number),
    );
    const receiptOf = (i: number) =>
      `Receipt: ${usd(bought[i]?.order.total ?? 0)} paid (invoice ${numbers[i]})`;
    // One receipt per charge (the outbox lists the newest first).
    expect((await receiptsTo(email)).map((m) => m.subject)).toEqual([3, 2, 1, 0].map(receiptOf));
    const personalReceipts = (await receiptsTo("kinds-2@example.fr")).map((m) => m.subject);
    expect(personalReceipts).toHaveLength(2);
    expect(personalReceipts[0]).toBe(receiptOf(4));

    // A refund, however it is learnt (services/refunds.ts: Stripe's webhook, PayPal's, support),
    // makes the credit note of the order's invoice and its receipt.
    const export1 = bought[2]?.order;
    if (!export1) throw new Error("no export order");
    const refunded = await db.transaction((tx) =>
      recordRefund(
        tx,
        {
          orderId: export1.orderId,
          amount: export1.total,
          currency: "usd",
          providerRefundId: "re_kinds_1",
          kind: "refund",
          provider: "stripe",
          now: server.clock.now(),
        },
        server.running.deps,
      ),
    );
    expect(refunded.recorded).toBe(true);
    const docs = await documentsOf(client);
    const note = docs.find((d) => d.kind === "credit_note");
    expect(note).toMatchObject({ refersTo: numbers[2], total: -export1.total });
    const [refundMail] = (await receiptsTo(email)).filter((m) =>
      m.subject.startsWith("Refund receipt"),
    );
    expect(refundMail?.subject).toBe(
      `Refund receipt: ${usd(export1.total)} (credit note ${note?.number})`,
    );
  });

  it("a PayPal purchase says PayPal", async () => {
    const { client } = await server.verifiedAccount("paypal-inv@example.com", "secret-password-1");
    const start = await client.call(api.paypalSubscription, {
      body: { product: { code: "wv_single_1m" }, newCart: true, href: "/cart#paypalCompleted" },
      idempotencyKey: newKey(),
    });
    if (!start.ok) throw new Error(start.body.message);
    const approved = await answerSandboxApproval(client, start.body.approvalId);
    expect(approved.status).toBe(303);
    const [first] = await documentsOf(client);
    const doc = (await Invoices.byNumber(server.running.deps.db, first?.number ?? ""))?.document;
    expect(doc).toMatchObject({ paymentMethod: "PayPal", total: start.body.paypal.totalAmount });
    expect((await receiptsTo("paypal-inv@example.com")).map((m) => m.subject)).toEqual([
      `Receipt: $${(start.body.paypal.totalAmount / 100).toFixed(2)} paid (invoice ${first?.number})`,
    ]);
  });
});

describe("renewals", () => {
  it(
    "a renewal is a new invoice of the series, for the new period, named in the renewal's mail",
    () =>
      withRenewingServer(async (renewing) => {
        const { client } = await renewing.verifiedAccount(
          "renew-inv@example.com",
          "secret-password-1",
        );
        await client.call(api.address, { body: { country: "FR" } });
        const bought = await subscribeMonthly(client);
        const run = await renewing.moveClock(32 * 86_400_000);
        expect(run.charged).toBe(1);
        // A month later the first session has run out: sign in again.
        const later = await renewing.signedIn("renew-inv@example.com", "secret-password-1");
        const list = await later.call(api.invoiceDocuments, {});
        const docs = list.ok ? list.body.documents : [];
        expect(docs.map((d) => d.number).sort()).toEqual(["INV-2026-000001", "INV-2026-000002"]);
        const renewal = await Invoices.byNumber(renewing.running.deps.db, "INV-2026-000002");
        expect(renewal?.document).toMatchObject({
          taxes: [{ label: "VAT (France)", ratePercent: 20, taxable: 999, tax: 200 }],
          lines: [{ kind: "renewal", label: "Power, renewal (1 seat)", amount: 999 }],
          total: 1199,
        });
        expect(renewal?.document.servicePeriod?.start).toBe(bought.orderEndDate);
        const [mail] = await Outbox.latest(renewing.running.deps.db, 1, "renew-inv@example.com");
        expect(mail?.subject).toBe("Your subscription renewed");
        // The renewal's mail is its receipt: the invoice's lines, tax and total, and the invoice.
        expect(mail?.body).toContain(
          [
            "Power, renewal (1 seat): $9.99",
            "VAT (France) 20 % on $9.99: $2.00",
            "Total: $11.99",
            "",
            "Invoice INV-2026-000002 (PDF): http://localhost:0/api/5/invoices/INV-2026-000002.pdf",
          ].join("\n"),
        );
      }),
    60_000,
  );

  it(
    "the account page announces what a reverse-charge renewal charges: no VAT, as its invoice",
    () =>
      withRenewingServer(async (renewing) => {
        const email = "renew-rc@beispiel.de";
        const { client } = await renewing.verifiedAccount(email, "secret-password-1");
        await client.call(api.address, {
          body: { name: "Ada Team", country: "DE", postalCode: "10115" },
        });
        const saved = await client.call(api.saveBillingDetails, {
          body: { organisation: "Beispiel GmbH", taxId: "DE136695976" },
        });
        expect(saved.ok && saved.body.reverseCharge).toBe(true);
        await subscribeMonthly(client);
        const products = await client.call(api.products, {});
        if (!products.ok) throw new Error(products.body.message);
        // Power monthly is $9.99 (catalog/plans): reverse charge adds nothing to it.
        expect(products.body.nextBillingAmount).toBe(999);

        const run = await renewing.moveClock(32 * 86_400_000);
        expect(run.charged).toBe(1);
        const renewal = await Invoices.byNumber(renewing.running.deps.db, "INV-2026-000002");
        expect(renewal?.document).toMatchObject({
          taxes: [{ label: "VAT (reverse charge)", ratePercent: 0, taxable: 999, tax: 0 }],
          total: products.body.nextBillingAmount,
          notes: [REVERSE_CHARGE_MENTION],
        });
        const [mail] = await Outbox.latest(renewing.running.deps.db, 1, email);
        expect(mail?.body).toContain(
          [
            "Power, renewal (1 seat): $9.99",
            "VAT (reverse charge) 0 % on $9.99: $0.00",
            "Total: $9.99",
            REVERSE_CHARGE_MENTION,
          ].join("\n"),
        );
      }),
    60_000,
  );
});
