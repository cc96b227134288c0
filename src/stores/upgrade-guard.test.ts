// Spec 5 and 8: a payment or PayPal upgrade call without a product (or without its code) is
// refused before it leaves the browser, with a console warning and an error report saying exactly
// 'Upgrade call without any product', and nothing is charged. Against the real API client and an
// in-process server, so "nothing charged" and "reported" are what the server answered the
// browser (through the API, not its tables).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiClient } from "../client/client.ts";
import { api as contract } from "../contract/index.ts";
import { type AnsweredCall, browserFetch } from "../server/testing/browser-fetch.ts";
import { startTestServer, type TestServer } from "../server/testing/harness.ts";
import { installApiClient } from "./api.ts";
import { $payment, pay, payWithPaypal } from "./payment.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const MESSAGE = "Upgrade call without any product";

/** Every call the browser made, with what it sent and the status the server answered. */
const answered: AnsweredCall[] = [];

/** A signed-in browser: its cookie jar over fetch, and every path it called. */
async function signedInBrowser(email: string): Promise<{ paths: string[] }> {
  const paths: string[] = [];
  const fetchLike = browserFetch(
    server.running.url,
    (path) => paths.push(path),
    (call) => answered.push(call),
  );
  const client = createApiClient({ fetch: fetchLike, version: "test" });
  installApiClient(client);
  const signedIn = await client.call(contract.signIn, {
    body: { email, password: "demo-password" },
  });
  if (!signedIn.ok) throw new Error(signedIn.error.message);
  return { paths };
}

/** The messages of the error reports the server accepted (answered 200). */
function reportedMessages(): string[] {
  return answered
    .filter((call) => call.path === contract.trackJs.path && call.status === 200)
    .map((call) => (call.body as { message?: string }).message ?? "");
}

describe("an upgrade call without any product", () => {
  it("is refused with a warning and a report, and charges nothing", async () => {
    const browser = await signedInBrowser("monthly@demo.test");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const attempts = [
        () => pay.run({ product: null }),
        () => pay.run({ product: {} }),
        () => pay.run({ product: { code: "" } }),
        () => payWithPaypal.run({ product: undefined, href: "/cart#paypalCompleted" }),
      ];
      for (const attempt of attempts) {
        const result = await attempt();
        expect(result).toEqual({
          ok: false,
          error: {
            kind: "invalid-request",
            message: MESSAGE,
            status: 400,
            code: "upgrade_without_product",
          },
        });
      }
      expect(warn.mock.calls).toEqual(attempts.map(() => [MESSAGE]));
      expect(pay.$state.get()).toMatchObject({ status: "failure", error: { message: MESSAGE } });
      // The failure is stored on the payment feature (spec 8), marked.
      expect($payment.get().error).toMatchObject({ message: MESSAGE });
      expect($payment.get().paymentSuccess).toBe(false);
    } finally {
      warn.mockRestore();
    }
    // Reported as exactly that message (the reporter's quota of 5 lets these 4 through).
    await expect.poll(reportedMessages).toEqual(Array.from({ length: 4 }, () => MESSAGE));
    // No payment call left the browser, so nothing was charged.
    expect(browser.paths.filter((p) => p.startsWith("/api/3/payment/"))).toEqual([]);
  });
});
