// A local stand-in for PayPal's REST API, for tests (PAYPAL_API_URL): the calls the server makes
// (OAuth token, catalogue products, plans create/list, subscriptions get/cancel/revise/
// transactions, the refund of a subscription's payment, verify-webhook-signature), answered in
// PayPal's wire format (the types of payments/paypal-client.ts, checked against
// ../shared/reference/paypal-*.openapi.json by fake-paypal.test.ts; Payments v2's refund has no
// document there). What a buyer does at PayPal (approving a subscription, PayPal billing a
// renewal, sending a webhook) are methods of the fake, not HTTP calls. Webhooks are "signed" with
// an HMAC of their exact bytes, so a verification the server makes with a re-serialised body
// fails as it would at PayPal.
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type {
  PaypalPlan,
  PaypalPlanRequest,
  PaypalSubscription,
  PaypalSubscriptionStatus,
} from "../payments/paypal-client.ts";
import {
  centsOf,
  FAKE_PAYPAL_CLIENT,
  FAKE_WEBHOOK_ID,
  type FakeCall,
  FakePaypalStore,
  money,
  read,
  type SignedEvent,
} from "./fake-paypal-store.ts";

export {
  FAKE_PAYPAL_CLIENT,
  FAKE_WEBHOOK_ID,
  type FakeCall,
  type SignedEvent,
} from "./fake-paypal-store.ts";

export class FakePaypal extends FakePaypalStore {
  readonly calls: FakeCall[] = [];
  /** Set to make every call answer 503 (PayPal unreachable). */
  down = false;
  /** Set to make refunds alone answer 503 (PayPal's Payments API unreachable). */
  refundsDown = false;
  /** Set to make subscription cancels alone answer 503. */
  cancelsDown = false;
  private readonly secret = randomBytes(16);
  private readonly tokens = new Set<string>();
  private readonly planRequests = new Map<string, string>();
  private server: Server | null = null;
  url = "";

  async start(): Promise<string> {
    const server = createServer((req, res) => {
      void read(req).then((body) => {
        const answer = this.handle(req, body);
        res.writeHead(answer.status, { "content-type": "application/json" });
        res.end(answer.body === undefined ? "" : JSON.stringify(answer.body));
      });
    });
    this.server = server;
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    await new Promise<void>((done) => {
      this.server?.close(() => done());
      this.server?.closeAllConnections();
    });
  }

  private handle(req: IncomingMessage, body: string): { status: number; body?: unknown } {
    const url = new URL(req.url ?? "/", "http://fake");
    const path = url.pathname;
    const method = req.method ?? "GET";
    const requestId = (req.headers["paypal-request-id"] as string | undefined) ?? null;
    this.calls.push({ method, path, body, requestId });
    if (this.down) return { status: 503, body: { name: "SERVICE_UNAVAILABLE", message: "down" } };
    if (method === "POST" && path === "/v1/oauth2/token") {
      const expected = `Basic ${Buffer.from(`${FAKE_PAYPAL_CLIENT.id}:${FAKE_PAYPAL_CLIENT.secret}`).toString("base64")}`;
      if (req.headers.authorization !== expected || body !== "grant_type=client_credentials")
        return { status: 401, body: { error: "invalid_client" } };
      const token = `A21-${randomBytes(12).toString("hex")}`;
      this.tokens.add(token);
      return {
        status: 200,
        body: { access_token: token, token_type: "Bearer", expires_in: 32400, app_id: "APP-FAKE" },
      };
    }
    const auth = req.headers.authorization ?? "";
    if (!auth.startsWith("Bearer ") || !this.tokens.has(auth.slice(7)))
      return { status: 401, body: { name: "AUTHENTICATION_FAILURE", message: "bad token" } };
    const notFound = { status: 404, body: { name: "RESOURCE_NOT_FOUND", message: "not found" } };
    let m = /^\/v1\/catalogs\/products\/([^/]+)$/.exec(path);
    if (m && method === "GET") {
      const product = this.products.get(decodeURIComponent(m[1] as string));
      return product ? { status: 200, body: product } : notFound;
    }
    if (path === "/v1/catalogs/products" && method === "POST") {
      const input = JSON.parse(body) as { id: string; name: string };
      const product = this.products.get(input.id) ?? { id: input.id, name: input.name };
      this.products.set(product.id, product);
      return { status: 201, body: product };
    }
    if (path === "/v1/billing/plans" && method === "POST") {
      const earlier = requestId ? this.planRequests.get(requestId) : undefined;
      if (earlier) return { status: 200, body: this.plans.get(earlier) };
      const input = JSON.parse(body) as PaypalPlanRequest;
      if (!this.products.has(input.product_id))
        return { status: 422, body: { name: "UNPROCESSABLE_ENTITY", message: "no product" } };
      const plan: PaypalPlan = {
        id: this.id("P"),
        product_id: input.product_id,
        name: input.name,
        status: input.status ?? "ACTIVE",
        ...(input.description ? { description: input.description } : {}),
        billing_cycles: input.billing_cycles,
        quantity_supported: input.quantity_supported ?? false,
      };
      this.plans.set(plan.id, plan);
      if (requestId) this.planRequests.set(requestId, plan.id);
      return { status: 201, body: plan };
    }
    if (path === "/v1/billing/plans" && method === "GET") {
      const productId = url.searchParams.get("product_id");
      const size = Math.min(20, Math.max(1, Number(url.searchParams.get("page_size") ?? "10")));
      const page = Math.max(1, Number(url.searchParams.get("page") ?? "1"));
      const all = [...this.plans.values()].filter((p) => !productId || p.product_id === productId);
      return {
        status: 200,
        body: {
          plans: all.slice((page - 1) * size, page * size),
          total_items: all.length,
          total_pages: Math.ceil(all.length / size),
          links: [{ href: `${this.url}${path}${url.search}`, rel: "self", method: "GET" }],
        },
      };
    }
    m = /^\/v2\/payments\/captures\/([^/]+)\/refund$/.exec(path);
    if (m && method === "POST" && this.refundsDown)
      return { status: 503, body: { name: "SERVICE_UNAVAILABLE", message: "down" } };
    if (m && method === "POST")
      return this.refund(decodeURIComponent(m[1] as string), body, requestId);
    m = /^\/v1\/billing\/plans\/([^/]+)$/.exec(path);
    if (m && method === "GET") {
      const plan = this.plans.get(decodeURIComponent(m[1] as string));
      return plan ? { status: 200, body: plan } : notFound;
    }
    m = /^\/v1\/billing\/subscriptions\/([^/]+)(\/cancel|\/revise|\/transactions)?$/.exec(path);
    if (m) {
      const sub = this.subscriptions.get(decodeURIComponent(m[1] as string));
      if (!sub) return notFound;
      if (method === "GET" && !m[2]) {
        // As PayPal: the plan inline (overrides applied) only when asked with fields=plan.
        const { plan, ...rest } = sub;
        const fields = (url.searchParams.get("fields") ?? "").split(",");
        if (!fields.includes("plan")) return { status: 200, body: rest };
        const cycles = plan?.billing_cycles ?? this.plans.get(sub.plan_id ?? "")?.billing_cycles;
        return { status: 200, body: { ...rest, plan: { billing_cycles: cycles ?? [] } } };
      }
      if (method === "GET" && m[2] === "/transactions") {
        const from = Date.parse(url.searchParams.get("start_time") ?? "");
        const to = Date.parse(url.searchParams.get("end_time") ?? "");
        if (!Number.isFinite(from) || !Number.isFinite(to))
          return { status: 400, body: { name: "INVALID_REQUEST", message: "start and end" } };
        const within = (this.transactions.get(sub.id) ?? []).filter((t) => {
          const at = Date.parse(t.time);
          return at >= from && at <= to;
        });
        return {
          status: 200,
          body: {
            transactions: within,
            total_items: within.length,
            total_pages: 1,
            links: [{ href: `${this.url}${path}${url.search}`, rel: "self", method: "GET" }],
          },
        };
      }
      if (method === "POST" && m[2] === "/cancel" && this.cancelsDown)
        return { status: 503, body: { name: "SERVICE_UNAVAILABLE", message: "down" } };
      if (method === "POST" && m[2] === "/cancel") {
        if (sub.status !== "ACTIVE" && sub.status !== "SUSPENDED")
          return {
            status: 422,
            body: { name: "UNPROCESSABLE_ENTITY", message: "SUBSCRIPTION_STATUS_INVALID" },
          };
        sub.status = "CANCELLED";
        return { status: 204 };
      }
      if (method === "POST" && m[2] === "/revise") {
        const input = JSON.parse(body) as { plan_id?: string; quantity?: string };
        if (input.plan_id && !this.plans.has(input.plan_id))
          return { status: 422, body: { name: "UNPROCESSABLE_ENTITY", message: "no plan" } };
        return {
          status: 200,
          body: {
            plan_id: input.plan_id ?? sub.plan_id,
            quantity: input.quantity ?? sub.quantity,
            plan_overridden: false,
            links: [
              {
                href: `https://www.sandbox.paypal.com/webapps/billing/subscriptions/update?ba_token=BA-${sub.id}`,
                rel: "approve",
                method: "GET",
              },
            ],
          },
        };
      }
    }
    if (path === "/v1/notifications/verify-webhook-signature" && method === "POST") {
      // The event is taken from the request as bytes, as PayPal checks the signature over them.
      const at = body.indexOf(',"webhook_event":');
      const head = JSON.parse(`${body.slice(0, at)}}`) as Record<string, string>;
      const raw = body.slice(at + ',"webhook_event":'.length, -1);
      const ok =
        head.webhook_id === FAKE_WEBHOOK_ID &&
        head.transmission_sig === this.signatureOf(head.transmission_id ?? "", raw);
      return { status: 200, body: { verification_status: ok ? "SUCCESS" : "FAILURE" } };
    }
    return notFound;
  }

  private signatureOf(transmissionId: string, raw: string): string {
    return createHmac("sha256", this.secret).update(`${transmissionId}|${raw}`).digest("hex");
  }

  /**
   * What a buyer's approval in PayPal's window makes: the subscription the JS SDK's
   * createSubscription asked for, ACTIVE with its first cycle paid (or still APPROVAL_PENDING).
   */
  approve(input: {
    planId: string;
    customId: string;
    quantity: number;
    firstCycleUnitPrice?: string | null;
    /** How many times the overridden first cycle runs (a buyer's edit: 999 repeats it). */
    firstCycleTotalCycles?: number;
    status?: PaypalSubscriptionStatus;
    at?: Date;
  }): PaypalSubscription {
    const plan = this.plans.get(input.planId);
    if (!plan) throw new Error(`fake PayPal: no plan ${input.planId}`);
    const first = plan.billing_cycles?.find((c) => c.sequence === 1);
    const unit = input.firstCycleUnitPrice
      ? Math.round(Number(input.firstCycleUnitPrice) * 100)
      : centsOf(first?.pricing_scheme?.fixed_price);
    const status = input.status ?? "ACTIVE";
    const at = (input.at ?? new Date()).toISOString();
    const sub: PaypalSubscription = {
      id: this.id("I"),
      status,
      plan_id: input.planId,
      quantity: String(input.quantity),
      custom_id: input.customId,
      start_time: at,
      plan_overridden: Boolean(input.firstCycleUnitPrice),
      // An overridden plan comes back inline, whole, with the override in place.
      ...(input.firstCycleUnitPrice
        ? {
            plan: {
              billing_cycles: (plan.billing_cycles ?? []).map((c) =>
                c.sequence === 1
                  ? {
                      ...c,
                      pricing_scheme: { fixed_price: money(unit) },
                      total_cycles: input.firstCycleTotalCycles ?? c.total_cycles,
                    }
                  : c,
              ),
            },
          }
        : {}),
      ...(status === "ACTIVE"
        ? {
            billing_info: {
              outstanding_balance: money(0),
              failed_payments_count: 0,
              last_payment: { amount: money(unit * input.quantity), time: at },
            },
          }
        : {}),
    };
    this.subscriptions.set(sub.id, sub);
    if (status === "ACTIVE") this.paid(sub.id, this.id("SALE"), unit * input.quantity, at);
    return sub;
  }

  /** A webhook as PayPal sends it: its body and its transmission headers, signed. */
  event(
    eventType: string,
    resource: object,
    options: { id?: string; at?: Date } = {},
  ): SignedEvent {
    const id = options.id ?? this.id("WH");
    const at = (options.at ?? new Date()).toISOString();
    // PayPal's own spacing: the server must pass these bytes on unchanged.
    const body = JSON.stringify(
      {
        id,
        event_version: "1.0",
        create_time: at,
        resource_type: eventType.startsWith("PAYMENT.SALE") ? "sale" : "subscription",
        event_type: eventType,
        summary: eventType,
        resource,
      },
      null,
      1,
    );
    // A UUID, as PayPal sends: 16 hex characters were all digits once in a few thousand runs,
    // which PayPal's own schema for verify-webhook-signature refuses (^(?!\d+$)).
    const transmissionId = randomUUID();
    return {
      id,
      body,
      headers: {
        "content-type": "application/json",
        "paypal-auth-algo": "SHA256withRSA",
        "paypal-cert-url": "https://api.sandbox.paypal.com/v1/notifications/certs/CERT-fake",
        "paypal-transmission-id": transmissionId,
        "paypal-transmission-sig": this.signatureOf(transmissionId, body),
        "paypal-transmission-time": at,
      },
    };
  }

  /**
   * A sale PayPal made for a subscription (a renewal; or its first payment, when `id` is the
   * transaction approve() recorded): the event's resource, and the payment in its transactions.
   */
  sale(subscriptionId: string, cents: number, at: Date, id = this.id("SALE")) {
    const known = (this.transactions.get(subscriptionId) ?? []).some((t) => t.id === id);
    if (!known) this.paid(subscriptionId, id, cents, at.toISOString());
    return {
      id,
      state: "completed",
      amount: { total: money(cents).value, currency: "USD" },
      billing_agreement_id: subscriptionId,
      create_time: at.toISOString(),
    };
  }
}
