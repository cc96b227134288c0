// A local fake of Stripe's HTTP API for exactly the calls the provider, the webhooks and the
// reconciliation make, so that the real `stripe` SDK can be driven through STRIPE_API_URL in
// tests (no network to Stripe here). Its objects are typed with the SDK's own types and checked
// against Stripe's published fixtures (stripe-fake.test.ts). Test-only: nothing in the server
// imports it.
//
// What it does as Stripe does: test PaymentMethods (`pm_card_visa`, ...) behave as Stripe's test
// cards (declines with code and decline_code, 3-D Secure on setup or on every payment);
// idempotency keys replay the first answer with `Idempotent-Replayed: true`; a deleted customer
// answers resource_missing; search finds PaymentIntents by metadata; a PaymentIntent is cancelled
// in the statuses Stripe allows (400 payment_intent_unexpected_state once succeeded or canceled),
// and a canceled one can no longer be confirmed. What it adds: faults, queued
// per call (`fault()`), to test what a real network does: the answer lost after the work was done,
// a 5xx without an error object, a slow answer, 429; and dashboard actions (refund, dispute,
// completing or failing a 3-D Secure step) as methods.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type Stripe from "stripe";
import {
  authenticationFailure,
  FAKE_CARDS,
  type FakeRequest,
  type Fault,
  id,
  missing,
  now,
  parseForm,
  paymentMethod,
  type Stored,
} from "./stripe-fake-objects.ts";
import { StripeStore } from "./stripe-fake-store.ts";

export { FAKE_CARDS, type FakeRequest, type Fault, parseForm } from "./stripe-fake-objects.ts";

export class StripeFake extends StripeStore {
  /** Every request received, in order. */
  readonly requests: FakeRequest[] = [];
  private readonly idempotent = new Map<string, Stored>();
  private readonly faults: { match: (r: FakeRequest) => boolean; fault: Fault }[] = [];
  private server: Server | null = null;
  url = "";

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      void this.handle(req, res);
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** Queues a fault for the next request to `method path` (path a prefix, such as /v1/payment_intents). */
  fault(method: string, pathPrefix: string, fault: Fault): void {
    this.faults.push({
      match: (r) => r.method === method && r.path.startsWith(pathPrefix),
      fault,
    });
  }

  clearFaults(): void {
    this.faults.length = 0;
  }

  /** Succeeded PaymentIntents (one per real charge). */
  succeededPayments(): Stripe.PaymentIntent[] {
    return [...this.paymentIntents.values()].filter((p) => p.status === "succeeded");
  }

  // Dashboard actions -------------------------------------------------------------------------

  /** A refund made in the dashboard (the whole remaining amount when no amount is given). */
  dashboardRefund(paymentIntentId: string, amount?: number): Stripe.Refund {
    const intent = this.paymentIntents.get(paymentIntentId);
    const charge = intent?.latest_charge ? this.charges.get(intent.latest_charge as string) : null;
    if (!intent || !charge) throw new Error(`no charge for ${paymentIntentId}`);
    return this.refund(charge, amount ?? charge.amount - charge.amount_refunded);
  }

  /** A dispute opened by the cardholder's bank. */
  openDispute(paymentIntentId: string): Stripe.Dispute {
    const intent = this.paymentIntents.get(paymentIntentId);
    const chargeId = intent?.latest_charge as string | undefined;
    const charge = chargeId ? this.charges.get(chargeId) : undefined;
    if (!intent || !charge) throw new Error(`no charge for ${paymentIntentId}`);
    const dispute = {
      id: id("dp"),
      object: "dispute",
      amount: charge.amount,
      charge: charge.id,
      created: now(),
      currency: "usd",
      is_charge_refundable: false,
      livemode: false,
      metadata: {},
      payment_intent: intent.id,
      reason: "fraudulent",
      status: "needs_response",
    } as Pick<
      Stripe.Dispute,
      | "id"
      | "object"
      | "amount"
      | "charge"
      | "created"
      | "currency"
      | "is_charge_refundable"
      | "livemode"
      | "metadata"
      | "payment_intent"
      | "reason"
      | "status"
    > as Stripe.Dispute;
    this.disputes.set(dispute.id, dispute);
    charge.disputed = true;
    return dispute;
  }

  closeDispute(disputeId: string, status: "won" | "lost"): Stripe.Dispute {
    const dispute = this.disputes.get(disputeId);
    if (!dispute) throw new Error(`no dispute ${disputeId}`);
    dispute.status = status;
    return dispute;
  }

  deleteCustomer(customerId: string): void {
    this.customers.delete(customerId);
    this.deletedCustomers.add(customerId);
  }

  /**
   * The customer completes (or fails) the bank's step of a PaymentIntent or SetupIntent. An
   * off-session payment declined with authentication_required is confirmed again on-session
   * first (Stripe.js's confirmCardPayment with its client secret and card), then authenticated.
   */
  authenticate(intentId: string, outcome: "complete" | "fail"): void {
    const setup = this.setupIntents.get(intentId);
    if (setup) {
      setup.next_action = null;
      if (outcome === "complete") setup.status = "succeeded";
      else {
        setup.status = "requires_payment_method";
        setup.last_setup_error = authenticationFailure() as Stripe.SetupIntent.LastSetupError;
      }
      return;
    }
    const intent = this.paymentIntents.get(intentId);
    // Stripe.js's confirm of a canceled (or succeeded) intent fails: no step to complete.
    if (intent?.status === "canceled" || intent?.status === "succeeded") {
      throw new Error(`payment_intent_unexpected_state: the payment is ${intent.status}`);
    }
    if (
      intent?.status === "requires_payment_method" &&
      intent.last_payment_error?.code === "authentication_required"
    ) {
      intent.status = "requires_action";
      intent.last_payment_error = null;
    }
    if (intent?.status !== "requires_action") throw new Error("nothing to authenticate");
    intent.next_action = null;
    if (outcome === "fail") {
      intent.status = "requires_payment_method";
      intent.last_payment_error = authenticationFailure() as Stripe.PaymentIntent.LastPaymentError;
      return;
    }
    const pm = FAKE_CARDS[intent.payment_method as string];
    if (pm?.chargeDecline) {
      intent.status = "requires_payment_method";
      intent.last_payment_error = {
        type: "card_error",
        ...pm.chargeDecline,
        message: "Your card was declined.",
      } as Stripe.PaymentIntent.LastPaymentError;
      return;
    }
    this.succeed(intent);
  }

  /**
   * An event as Stripe sends it, carrying a copy of `object` (which may be stale by the time it
   * arrives: the server fetches the object again).
   */
  event(type: string, object: { id: string; object: string }): Stripe.Event {
    return {
      id: id("evt"),
      object: "event",
      api_version: "2026-10-28.endive",
      created: now(),
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    } as unknown as Stripe.Event;
  }

  // HTTP --------------------------------------------------------------------------------------

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://fake");
    const body = Buffer.concat(chunks).toString();
    const params =
      req.method === "GET" || req.method === "DELETE"
        ? parseForm(url.search.slice(1))
        : parseForm(body);
    const request: FakeRequest = {
      method: req.method ?? "GET",
      path: url.pathname,
      params,
      idempotencyKey: req.headers["idempotency-key"] as string | undefined,
      apiVersion: req.headers["stripe-version"] as string | undefined,
      authorization: req.headers.authorization,
    };
    this.requests.push(request);
    const at = this.faults.findIndex((f) => f.match(request));
    const fault = at >= 0 ? this.faults.splice(at, 1)[0]?.fault : undefined;
    if (fault?.kind === "reset-before") {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === "rate-limit") {
      this.send(res, 429, {
        error: { type: "invalid_request_error", code: "rate_limit", message: "Too many requests" },
      });
      return;
    }
    let stored: Stored;
    let replayed = false;
    const key = request.idempotencyKey;
    const earlier = key && request.method === "POST" ? this.idempotent.get(key) : undefined;
    if (earlier) {
      stored = earlier;
      replayed = true;
    } else {
      const [status, payload] = this.route(request);
      stored = { status, body: JSON.stringify(payload) };
      // Stripe keeps the answer of a key, errors of the card included (not 429 or 5xx).
      if (key && request.method === "POST" && status < 500) this.idempotent.set(key, stored);
    }
    if (fault?.kind === "lose-answer") {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === "5xx-no-error") {
      res.writeHead(fault.status ?? 500, { "content-type": "application/json" });
      res.end(JSON.stringify({ status: "unavailable" }));
      return;
    }
    if (fault?.kind === "other-intent") {
      stored = { status: 200, body: JSON.stringify(this.paymentIntents.get(fault.id) ?? null) };
    }
    if (fault?.kind === "slow") await new Promise((r) => setTimeout(r, fault.ms));
    if (res.destroyed) return;
    res.writeHead(stored.status, {
      "content-type": "application/json",
      "request-id": id("req"),
      ...(replayed ? { "idempotent-replayed": "true" } : {}),
    });
    res.end(stored.body);
  }

  private send(res: ServerResponse, status: number, payload: unknown): void {
    res.writeHead(status, { "content-type": "application/json", "request-id": id("req") });
    res.end(JSON.stringify(payload));
  }

  private route(r: FakeRequest): [number, unknown] {
    const { method, path } = r;
    const p = r.params;
    let m: RegExpMatchArray | null;
    if (method === "POST" && path === "/v1/customers") return [200, this.createCustomer(p)];
    m = path.match(/^\/v1\/customers\/([^/]+)$/);
    if (m) {
      const cid = m[1] as string;
      if (method === "DELETE") {
        this.deleteCustomer(cid);
        return [200, { id: cid, object: "customer", deleted: true }];
      }
      if (this.deletedCustomers.has(cid))
        return [200, { id: cid, object: "customer", deleted: true }];
      const customer = this.customers.get(cid);
      return customer ? [200, customer] : missing("customer", cid);
    }
    if (method === "POST" && path === "/v1/setup_intents") return this.createSetup(p);
    m = path.match(/^\/v1\/setup_intents\/([^/]+)$/);
    if (m) {
      const s = this.setupIntents.get(m[1] as string);
      if (!s) return missing("setup_intent", m[1] as string);
      const pmId = s.payment_method as string;
      const pm = FAKE_CARDS[pmId];
      const expand = Array.isArray(p.expand) ? (p.expand as string[]) : [];
      return [
        200,
        expand.includes("payment_method") && pm
          ? { ...s, payment_method: paymentMethod(pmId, pm, s.customer as string) }
          : s,
      ];
    }
    if (method === "GET" && path === "/v1/payment_intents/search") return [200, this.search(p)];
    if (method === "GET" && path === "/v1/payment_intents") return [200, this.list(p)];
    if (method === "POST" && path === "/v1/payment_intents") return this.createPayment(p);
    m = path.match(/^\/v1\/payment_intents\/([^/]+)\/(cancel|confirm)$/);
    if (m && method === "POST") {
      const pi = this.paymentIntents.get(m[1] as string);
      if (!pi) return missing("payment_intent", m[1] as string);
      return m[2] === "cancel" ? this.cancelPayment(pi, p) : this.confirmPayment(pi);
    }
    m = path.match(/^\/v1\/payment_intents\/([^/]+)$/);
    if (m) {
      const pi = this.paymentIntents.get(m[1] as string);
      return pi ? [200, pi] : missing("payment_intent", m[1] as string);
    }
    m = path.match(/^\/v1\/payment_methods\/([^/]+)\/detach$/);
    if (m && method === "POST") {
      // The fake's cards are shared by its customers: a detach is seen in `requests`, and the
      // card comes back attached to no customer, as Stripe answers.
      const pm = FAKE_CARDS[m[1] as string];
      return pm
        ? [200, paymentMethod(m[1] as string, pm, null)]
        : missing("payment_method", m[1] as string);
    }
    m = path.match(/^\/v1\/payment_methods\/([^/]+)$/);
    if (m) {
      const pm = FAKE_CARDS[m[1] as string];
      return pm
        ? [200, paymentMethod(m[1] as string, pm, null)]
        : missing("payment_method", m[1] as string);
    }
    m = path.match(/^\/v1\/charges\/([^/]+)$/);
    if (m) {
      const ch = this.charges.get(m[1] as string);
      return ch ? [200, ch] : missing("charge", m[1] as string);
    }
    if (method === "POST" && path === "/v1/refunds") {
      const pi = this.paymentIntents.get(String(p.payment_intent));
      const ch = pi?.latest_charge ? this.charges.get(pi.latest_charge as string) : undefined;
      if (!ch) return missing("payment_intent", String(p.payment_intent));
      const amount = p.amount === undefined ? ch.amount - ch.amount_refunded : Number(p.amount);
      if (amount <= 0 || amount > ch.amount - ch.amount_refunded) {
        return [
          400,
          {
            error: {
              type: "invalid_request_error",
              code: "charge_already_refunded",
              message: "Charge has already been refunded.",
            },
          },
        ];
      }
      const refund = this.refund(ch, amount);
      if (p.metadata) refund.metadata = p.metadata as Stripe.Metadata;
      return [200, refund];
    }
    if (method === "GET" && path === "/v1/refunds") {
      const data = [...this.refunds.values()].filter((rf) => rf.charge === p.charge);
      return [200, { object: "list", data, has_more: false, url: "/v1/refunds" }];
    }
    m = path.match(/^\/v1\/refunds\/([^/]+)$/);
    if (m) {
      const rf = this.refunds.get(m[1] as string);
      return rf ? [200, rf] : missing("refund", m[1] as string);
    }
    m = path.match(/^\/v1\/disputes\/([^/]+)$/);
    if (m) {
      const dp = this.disputes.get(m[1] as string);
      return dp ? [200, dp] : missing("dispute", m[1] as string);
    }
    return [
      404,
      {
        error: {
          type: "invalid_request_error",
          message: `Unrecognized request URL (${method}: ${path})`,
        },
      },
    ];
  }
}
