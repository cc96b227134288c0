// A purchase's invoice names the buyer its amounts were worked out for: the billing details of
// the account the order was priced on (its tax treatment came from them), not whatever the table
// holds by the time the order commits (an edit saved meanwhile from another tab).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BillingDetailsTable } from "../db/invoices.ts";
import { Users } from "../db/users.ts";
import { startTestServer, type TestServer } from "../testing/harness.ts";
import { waitingInvoiceDocument } from "../testing/invoice-tables.ts";
import { loadAccount } from "./account.ts";
import { priceForAccount } from "./account-pricing.ts";
import { invoiceOrder } from "./invoices.ts";
import { buildOrder } from "./orders.ts";

describe("a purchase's invoice", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ seed: false });
  });
  afterAll(() => server.close());

  it("shows the billing details the order was priced on", async () => {
    const deps = server.running.deps;
    const { userId } = await server.verifiedAccount("priced@example.com", "secret-password-1");
    const user = await Users.byId(deps.db, userId);
    if (!user) throw new Error("no user");
    const details = (organisation: string, taxId: string) => ({
      userId,
      organisation,
      taxId,
      taxIdCountry: "DE",
      taxIdValid: false,
      street: `${organisation} Street 1`,
      city: "Berlin",
      updatedAt: deps.clock.now(),
    });
    await deps.db.transaction((tx) => BillingDetailsTable.put(tx, details("Priced GmbH", "P-1")));
    const account = await loadAccount(deps.db, deps.catalog, user, deps.clock.now());
    const priced = priceForAccount(deps.catalog, account, {
      targetProduct: "single_export_hd",
      sellerCountry: deps.config.seller.country,
    });
    if (!priced.ok) throw new Error(priced.error.body.message);
    const order = buildOrder(
      deps.catalog,
      account,
      priced.pricing,
      { code: "single_export_hd", addOns: [] },
      { processor: "cc", chargeRef: "ch_priced", idempotencyKey: "priced-1" },
      deps.clock.now(),
    );
    // Saved between the quote and the commit.
    await deps.db.transaction((tx) => BillingDetailsTable.put(tx, details("Later Ltd", "L-2")));
    await deps.db.transaction((tx) =>
      invoiceOrder(tx, deps, { order, summary: priced.pricing.summary, account }),
    );
    const waiting = await waitingInvoiceDocument(deps.db, order.id);
    const buyer = JSON.parse(waiting ?? "null")?.buyer;
    expect(buyer).toMatchObject({ name: "Priced GmbH", taxId: "P-1" });
    expect(buyer.address).toContain("Priced GmbH Street 1");
  });
});
