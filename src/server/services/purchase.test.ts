// The purchase service answers what may be bought and at what price for the card upgrade and the
// PayPal subscription alike: a refusal is a value the handler answers, never an exception, and a
// purchase is priced exactly as the order summary prices it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Users } from "../db/users.ts";
import { startTestServer, type TestServer } from "../testing/harness.ts";
import { type Account, loadAccount } from "./account.ts";
import { priceForAccount } from "./account-pricing.ts";
import { pricePurchase } from "./purchase.ts";

describe("pricing a purchase", () => {
  let server: TestServer;
  let account: Account;
  beforeAll(async () => {
    server = await startTestServer({ seed: false });
    const { db, catalog, clock } = server.running.deps;
    const { userId } = await server.verifiedAccount("buyer@example.com", "secret-password-1");
    const user = await Users.byId(db, userId);
    if (!user) throw new Error("no user");
    account = await loadAccount(db, catalog, user, clock.now());
  });
  afterAll(() => server.close());

  const price = (body: Parameters<typeof pricePurchase>[2]) => {
    const { catalog, config } = server.running.deps;
    return pricePurchase(catalog, account, body, config.seller.country);
  };

  it("prices a plan as the order summary does", () => {
    const { catalog, config } = server.running.deps;
    const priced = price({ product: { code: "wv_single_12m" } });
    const summary = priceForAccount(catalog, account, {
      targetProduct: "wv_single_12m",
      sellerCountry: config.seller.country,
    });
    if (!priced.ok || !summary.ok) throw new Error("not priced");
    expect(priced.code).toBe("wv_single_12m");
    expect(priced.pricing.summary.total).toBe(summary.pricing.summary.total);
    expect(priced.pricing.summary.total).toBeGreaterThan(0);
  });

  it("answers each refusal as a value with its API error, without throwing", () => {
    const codeOf = (body: Parameters<typeof pricePurchase>[2]) => {
      const priced = price(body);
      return priced.ok ? "priced" : priced.error.body.error_code;
    };
    expect(codeOf({ product: null })).toBe("upgrade_without_product");
    expect(codeOf({ product: { code: "  " } })).toBe("upgrade_without_product");
    expect(codeOf({ product: { code: "wv_unlimited_trial" } })).toBe("product_not_purchasable");
    expect(codeOf({ product: { code: "wv_teacher_12m" } })).toBe("education_email_required");
    expect(codeOf({ product: { code: "wv_single_12m" }, expectedTotal: 1 })).toBe("price_changed");
    expect(codeOf({ product: { code: "no_such_product" } })).toBe("unknown_product");
  });

  it("refuses an account that may not buy on the web before pricing anything", () => {
    const { catalog, config } = server.running.deps;
    const managed = { ...account, managed: true };
    const refused = pricePurchase(
      catalog,
      managed,
      { product: { code: "wv_single_12m" } },
      config.seller.country,
    );
    expect(refused).toMatchObject({ ok: false, error: { status: 403 } });
    expect(refused.ok ? null : refused.error.body.error_code).toBe("managed_account");
  });
});
