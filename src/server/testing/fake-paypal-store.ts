// The state of the PayPal fake (fake-paypal.ts): its constants and wire helpers, and what it
// keeps (products, plans, subscriptions, their payments, refunds) with the writes on it that both
// its HTTP answers and its buyer actions make. fake-paypal.ts extends it with those.
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type {
  PaypalMoney,
  PaypalPlan,
  PaypalRefund,
  PaypalRefundRequest,
  PaypalSubscription,
  PaypalTransaction,
} from "../payments/paypal-client.ts";

export const FAKE_PAYPAL_CLIENT = { id: "fake-client-id", secret: "fake-client-secret" };
// PayPal's webhook ids are letters and digits only.
export const FAKE_WEBHOOK_ID = "8PT597110FAKE430LKGECATA";

export type FakeCall = { method: string; path: string; body: string; requestId: string | null };

export type SignedEvent = {
  /** The body exactly as PayPal sends it. */
  body: string;
  headers: Record<string, string>;
  id: string;
};

export function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      text += chunk;
    });
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
}

export const money = (cents: number): PaypalMoney => ({
  currency_code: "USD",
  value: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`,
});
export const centsOf = (m: PaypalMoney | undefined): number =>
  m ? Math.round(Number(m.value) * 100) : 0;

export class FakePaypalStore {
  readonly products = new Map<string, { id: string; name: string }>();
  readonly plans = new Map<string, PaypalPlan>();
  readonly subscriptions = new Map<string, PaypalSubscription>();
  /** The payments of each subscription (its first payment, each renewal), by subscription id. */
  readonly transactions = new Map<string, PaypalTransaction[]>();
  /** Refunds made through Payments v2, by refund id. */
  readonly refunds = new Map<string, PaypalRefund & { captureId: string }>();
  private readonly refundRequests = new Map<string, string>();
  private seq = 0;

  protected id(prefix: string): string {
    this.seq += 1;
    return `${prefix}-${String(this.seq).padStart(4, "0")}${randomBytes(4).toString("hex").toUpperCase()}`;
  }

  /** Payments v2's refund of a captured payment: all that is left of it (or the amount asked). */
  protected refund(
    captureId: string,
    body: string,
    requestId: string | null,
  ): { status: number; body?: unknown } {
    const earlier = requestId ? this.refundRequests.get(requestId) : undefined;
    if (earlier) return { status: 200, body: this.publicRefund(earlier) };
    const payment = [...this.transactions.values()].flat().find((t) => t.id === captureId);
    if (!payment)
      return { status: 404, body: { name: "RESOURCE_NOT_FOUND", message: "no such capture" } };
    if (payment.status === "REFUNDED")
      return {
        status: 422,
        body: {
          name: "UNPROCESSABLE_ENTITY",
          message: "CAPTURE_FULLY_REFUNDED",
          details: [{ issue: "CAPTURE_FULLY_REFUNDED" }],
        },
      };
    const input = (body === "" ? {} : JSON.parse(body)) as PaypalRefundRequest;
    const refunded = [...this.refunds.values()]
      .filter((r) => r.captureId === captureId)
      .reduce((sum, r) => sum + centsOf(r.amount), 0);
    const left = centsOf(payment.amount_with_breakdown.gross_amount) - refunded;
    const cents = input.amount ? centsOf(input.amount) : left;
    if (cents <= 0 || cents > left)
      return {
        status: 422,
        body: { name: "UNPROCESSABLE_ENTITY", message: "REFUND_AMOUNT_EXCEEDED" },
      };
    const id = this.id("RF");
    this.refunds.set(id, {
      id,
      status: "COMPLETED",
      amount: money(cents),
      create_time: new Date().toISOString(),
      ...(input.invoice_id ? { invoice_id: input.invoice_id } : {}),
      ...(input.custom_id ? { custom_id: input.custom_id } : {}),
      captureId,
    });
    payment.status = cents === left ? "REFUNDED" : "PARTIALLY_REFUNDED";
    if (requestId) this.refundRequests.set(requestId, id);
    return { status: 201, body: this.publicRefund(id) };
  }

  protected publicRefund(id: string): PaypalRefund | undefined {
    const found = this.refunds.get(id);
    if (!found) return undefined;
    const { captureId: _, ...refund } = found;
    return refund;
  }

  /** Records a payment of a subscription (what its transactions list answers). */
  protected paid(subscriptionId: string, id: string, cents: number, at: string): void {
    const list = this.transactions.get(subscriptionId) ?? [];
    list.push({
      id,
      status: "COMPLETED",
      amount_with_breakdown: { gross_amount: money(cents), net_amount: money(cents) },
      time: at,
    });
    this.transactions.set(subscriptionId, list);
  }

  /**
   * Hex, not base64: PayPal's schema for verify-webhook-signature wants the signature to start
   * with a word character (^(?!\d+$)\w+\S+), and one base64 value in 32 starts with + or /.
   */
}
