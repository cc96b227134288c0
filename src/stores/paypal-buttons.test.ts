// PayPal's JS SDK buttons against the real server (in-process, PAYPAL_* configured) and the fake
// of PayPal's REST API: what the buttons' createSubscription and onApprove do through these
// stores makes one order, verified at "PayPal", and lands on paypalCompleted. The SDK itself is
// not involved here (PaymentForm.test.tsx fakes it); its callbacks are these functions, and its
// `actions.subscription.create` is played by the fake (what PayPal's window makes).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiClient } from "../client/client.ts";
import { api as contract } from "../contract/index.ts";
import { browserFetch } from "../server/testing/browser-fetch.ts";
import { FAKE_PAYPAL_CLIENT, FAKE_WEBHOOK_ID, FakePaypal } from "../server/testing/fake-paypal.ts";
import { startTestServer, type TestClient, type TestServer } from "../server/testing/harness.ts";
import { installApiClient } from "./api.ts";
import { startPaypal } from "./checkout-payment.ts";
import { $payment, loadOrderSummary } from "./payment.ts";
import {
  $paypalConfirmError,
  approvePaypalSubscription,
  createPaypalSubscription,
  type SubscriptionActions,
} from "./paypal-buttons.ts";
import { $location } from "./router.ts";

let fake: FakePaypal;
let server: TestServer;
let client: TestClient;
beforeAll(async () => {
  fake = new FakePaypal();
  await fake.start();
  server = await startTestServer({
    env: {
      PAYPAL_CLIENT_ID: FAKE_PAYPAL_CLIENT.id,
      PAYPAL_CLIENT_SECRET: FAKE_PAYPAL_CLIENT.secret,
      PAYPAL_WEBHOOK_ID: FAKE_WEBHOOK_ID,
      PAYPAL_API_URL: fake.url,
    },
  });
  const { client: signedUp } = await server.verifiedAccount("buttons@example.com", "secret-1");
  client = signedUp;
  // The browser's client, with this test client's cookies (the session).
  installApiClient(createApiClient({ version: "test", fetch: browserFetch(client) }));
});
afterAll(async () => {
  await server.close();
  await fake.stop();
});

/** PayPal's window: the subscription the buttons ask for, approved (or left pending). */
function paypalWindow(status: "ACTIVE" | "APPROVAL_PENDING"): SubscriptionActions {
  return {
    subscription: {
      create: async (options) =>
        fake.approve({
          planId: options.plan_id,
          customId: options.custom_id,
          quantity: Number(options.quantity),
          firstCycleUnitPrice: options.plan?.billing_cycles[0]?.pricing_scheme.fixed_price.value,
          status,
        }).id,
    },
  };
}

describe("PayPal's buttons through the stores", () => {
  it("prepares the subscription at our server, and confirms PayPal's onto paypalCompleted", async () => {
    const providers = await client.call(contract.paymentProviders, {});
    expect(providers.ok && providers.body.paypal).toEqual({
      provider: "paypal",
      clientId: FAKE_PAYPAL_CLIENT.id,
    });
    $location.set({ pathname: "/cart", search: "?product=wv_single_12m", hash: "#checkout" });
    await loadOrderSummary.run({ targetProduct: "wv_single_12m" });
    expect($payment.get().orderSummary?.total).toBe(2994);

    // A confirm before anything was prepared on this page sends nothing.
    expect(await approvePaypalSubscription("I-NOTHING")).toBeNull();
    const pending = await createPaypalSubscription(paypalWindow("APPROVAL_PENDING"));
    expect(await approvePaypalSubscription(pending)).toBeNull();
    expect($paypalConfirmError.get()).toMatch(/PayPal has not completed this subscription yet/);

    const id = await createPaypalSubscription(paypalWindow("ACTIVE"));
    expect(fake.subscriptions.get(id)?.custom_id).toMatch(/^PAYID/);
    expect(await approvePaypalSubscription(id)).toMatch(
      /^\/cart\?product=wv_single_12m&paypal=approved&orderId=ord_[\w-]+#paypalCompleted$/,
    );
    const invoices = await client.call(contract.paypalInvoices, { params: { page: 1 } });
    expect(invoices.ok && invoices.body.map((i) => i.amountPaid)).toEqual([2994]);
  });

  it("tells PayPal's buttons not to open when the server refuses (price_changed)", async () => {
    $location.set({ pathname: "/cart", search: "?product=wv_unloct17_12m", hash: "#checkout" });
    await loadOrderSummary.run({ targetProduct: "wv_unloct17_12m" });
    const shown = $payment.get().orderSummary;
    if (!shown) throw new Error("no summary");
    // The total on screen is not the server's price.
    $payment.setKey("orderSummary", { ...shown, total: shown.total - 100 });
    const asked: unknown[] = [];
    await expect(
      createPaypalSubscription({
        subscription: {
          create: async (o) => {
            asked.push(o);
            return "I-X";
          },
        },
      }),
    ).rejects.toThrow();
    expect(asked).toEqual([]);
    const state = startPaypal.$state.get();
    expect(state.status === "failure" && state.error.code).toBe("price_changed");
  });
});
