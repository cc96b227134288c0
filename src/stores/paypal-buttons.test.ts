// PayPal's JS SDK buttons against the real server (in-process, PAYPAL_CLIENT_ID configured):
// what the buttons' createOrder and onApprove do through these stores makes one order and lands
// on paypalCompleted, as the sandbox's approval page does. The SDK itself is not involved here
// (PaymentForm.test.tsx fakes it); its two callbacks are these functions.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiClient } from "../api/client.ts";
import { api as contract } from "../api/contract/index.ts";
import { startTestServer, type TestClient, type TestServer } from "../server/testing/harness.ts";
import { installApiClient } from "./api.ts";
import { startPaypal } from "./checkout.ts";
import { $payment, loadOrderSummary } from "./payment.ts";
import { approvalForm, approvePaypalOrder, createPaypalOrder } from "./paypal-buttons.ts";
import { $location } from "./router.ts";

let server: TestServer;
let client: TestClient;
beforeAll(async () => {
  server = await startTestServer({ env: { PAYPAL_CLIENT_ID: "sb-client-id" } });
  client = server.client();
  const signUp = await client.call(contract.signUp, {
    body: { email: "buttons@example.com", password: "secret-1", firstName: "Pat", lastName: "B" },
  });
  if (!signUp.ok) throw new Error(signUp.body.message);
  // The browser's client, with this test client's cookies (the session).
  installApiClient(
    createApiClient({ version: "test", fetch: (url, init) => client.fetch(url, init) }),
  );
});
afterAll(async () => {
  await server.close();
});

describe("PayPal's buttons through the stores", () => {
  it("creates the server's order for the summary on screen and settles the approval on paypalCompleted", async () => {
    const providers = await client.call(contract.paymentProviders, {});
    expect(providers.ok && providers.body.paypal).toEqual({
      provider: "paypal",
      clientId: "sb-client-id",
    });
    $location.set({ pathname: "/cart", search: "?product=wv_single_12m", hash: "#checkout" });
    await loadOrderSummary.run({ targetProduct: "wv_single_12m" });
    expect($payment.get().orderSummary?.total).toBe(2994);

    const orderId = await createPaypalOrder();
    expect(orderId).toMatch(/^PAYID/);
    // Not the approval this page created: nothing is sent.
    const posted: [string, Record<string, string>][] = [];
    approvalForm.submit = (action, fields) => posted.push([action, fields]);
    expect(approvePaypalOrder("PAYID-SOMEONEELSE")).toBe(false);
    expect(posted).toEqual([]);

    expect(approvePaypalOrder(orderId)).toBe(true);
    expect(posted).toEqual([["/dev/paypal/approve", { id: orderId, action: "approve" }]]);
    // The browser posts that form; the server writes the order and redirects.
    const [action, fields] = posted[0] ?? ["", {}];
    const answer = await client.fetch(action, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toMatch(
      /^\/cart\?product=wv_single_12m&paypal=approved&orderId=ord_[\w-]+#paypalCompleted$/,
    );
    const invoices = await client.call(contract.paypalInvoices, { params: { page: 1 } });
    expect(invoices.ok && invoices.body.map((i) => i.price)).toEqual([2994]);
  });

  it("tells PayPal's buttons not to open when the server refuses (price_changed)", async () => {
    $location.set({ pathname: "/cart", search: "?product=wv_unloct17_12m", hash: "#checkout" });
    await loadOrderSummary.run({ targetProduct: "wv_unloct17_12m" });
    const shown = $payment.get().orderSummary;
    if (!shown) throw new Error("no summary");
    // (An upgrade of the Power plan bought above.) The total on screen is not the server's price.
    $payment.setKey("orderSummary", { ...shown, total: shown.total - 100 });
    await expect(createPaypalOrder()).rejects.toThrow();
    const state = startPaypal.$state.get();
    expect(state.status === "failure" && state.error.code).toBe("price_changed");
  });
});
