// The stores against the real API client and an in-process server (no mocks of our own modules):
// start-up as a visitor and as a signed-in user, and the started → success / failure of the
// operations of spec section 4 with their notable effects.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApiClient } from "../client/client.ts";
import { routedFetch } from "../client/testing/scripted-fetch.ts";
import { type AnsweredCall, browserFetch } from "../server/testing/browser-fetch.ts";
import { startTestServer, type TestServer } from "../server/testing/harness.ts";
import { cancelTrial } from "./account-operations.ts";
import { generateCode, verifyEmailCode } from "./activation.ts";
import { installApiClient } from "./api.ts";
import { $app, initApp } from "./app.ts";
import {
  $payment,
  clearAddressFormSuccess,
  loadOrderSummary,
  submitAddress,
  verifyCoupon,
} from "./payment.ts";
import { $productInfo } from "./products.ts";
import { $user, ANONYMOUS } from "./user.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** Every call the browser made, with what it sent and the status the server answered. */
const answered: AnsweredCall[] = [];

async function signedIn(email: string): Promise<void> {
  const fetchLike = browserFetch(server.running.url, undefined, (call) => answered.push(call));
  const client = createApiClient({ fetch: fetchLike, version: "test" });
  installApiClient(client);
  const { api } = await import("../contract/index.ts");
  const answer = await client.call(api.signIn, {
    body: { email, password: "demo-password" },
  });
  if (!answer.ok) throw new Error(answer.error.message);
}

const start = { search: "?p=buy", referrer: "https://example.com/" };

beforeEach(() => {
  $app.set({ ...$app.get(), loaded: false, initFailure: null });
  $user.set({ ...ANONYMOUS });
});

describe("start-up", () => {
  it("loads a visitor: session status only, app loaded, not authenticated", async () => {
    installApiClient(createApiClient({ fetch: browserFetch(server.running.url), version: "test" }));
    expect(initApp.$state.get().status).not.toBe("started");
    const running = initApp.run(start);
    expect(initApp.$state.get()).toEqual({ status: "started" });
    await running;
    expect(initApp.$state.get().status).toBe("success");
    expect($app.get()).toMatchObject({ loaded: true, initFailure: null, isGdprRegion: false });
    expect($user.get().isAuth).toBe(false);
  });

  it("loads a signed-in user's account in parallel and marks the app loaded", async () => {
    await signedIn("trial@demo.test");
    await initApp.run(start);
    expect($app.get().loaded).toBe(true);
    expect($user.get()).toMatchObject({
      isAuth: true,
      userEmail: "trial@demo.test",
      isTrial: true,
      productCode: "wv_unlimited_trial",
    });
    expect($productInfo.get()?.productCode).toBe("wv_unlimited_trial");
  });

  it("raises init-failure and still marks the app loaded when a call fails", async () => {
    const failing = routedFetch(
      {},
      { status: 503, statusText: "Service Unavailable", body: "oops" },
    );
    installApiClient(createApiClient({ fetch: failing, version: "test" }));
    await initApp.run(start);
    expect($app.get().loaded).toBe(true);
    expect($app.get().initFailure).toMatchObject({ message: "Service Unavailable", status: 503 });
  });
});

describe("operations", () => {
  it("keeps the order summary, then clears it and stores the error on failure", async () => {
    await signedIn("free@demo.test");
    await loadOrderSummary.run({ targetProduct: "wv_unloct17_12m" });
    expect($payment.get().orderSummary?.productCode).toBe("wv_unloct17_12m");
    await loadOrderSummary.run({ targetProduct: "wv_nothing" });
    expect(loadOrderSummary.$state.get().status).toBe("failure");
    expect($payment.get().orderSummary).toBe(null);
    expect($payment.get().orderSummaryError?.status).toBe(404);
  });

  it("clears the previous coupon result when a verification starts", async () => {
    await signedIn("free@demo.test");
    await verifyCoupon.run("demoteam");
    expect($payment.get().couponInstanceName).toBe("demo-team");
    const again = verifyCoupon.run("no-such-coupon");
    expect($payment.get().couponInstanceName).toBe(null);
    await again;
    expect(verifyCoupon.$state.get().status).toBe("failure");
  });

  it("lets address-form success be cleared explicitly", async () => {
    await signedIn("free@demo.test");
    await submitAddress.run({ country: "US", state: "CA" });
    expect($payment.get().addressFormSuccess).toBe(true);
    clearAddressFormSuccess();
    expect($payment.get().addressFormSuccess).toBe(false);
    expect(submitAddress.$state.get()).toEqual({ status: "idle" });
  });

  it("sets the plain error flag on a wrong e-mail code and resets it on a new code", async () => {
    await signedIn("student-teacher@demo-school.edu");
    await verifyEmailCode.run("000000");
    const { $activation } = await import("./activation.ts");
    expect($activation.get().error).toBe(true);
    await generateCode.run();
    expect($activation.get().error).toBe(false);
  });

  it("marks the account cancelled when the trial is cancelled", async () => {
    await signedIn("trial@demo.test");
    await initApp.run(start);
    await cancelTrial.run(false);
    expect(cancelTrial.$state.get().status).toBe("success");
    expect($user.get().orderState).toBe("cancelled");
  });
});

describe("telemetry", () => {
  it("reports an error as 'checkout-prod', and the server accepts it", async () => {
    await signedIn("free@demo.test");
    const { reporter } = await import("./telemetry.ts");
    const { api } = await import("../contract/index.ts");
    expect(reporter.report(new Error("the order summary did not render"))).toBe("sent");
    await expect
      .poll(() =>
        answered
          .filter((call) => call.path === api.trackJs.path && call.status === 200)
          .map((call) => (call.body as { application?: string }).application),
      )
      .toContain("checkout-prod");
  });

  it("loads an enterprise member's licence and instance property at start-up", async () => {
    await signedIn("member@demo.test");
    await initApp.run(start);
    expect($app.get()).toMatchObject({ loaded: true, initFailure: null });
    expect($user.get()).toMatchObject({
      isUserEnterpriseMember: true,
      enterpriseMemberInstance: "demo-team",
      hasLicense: true,
    });
  });
});
