// The server's one PayPal client: the REST calls of PayPal's Catalog Products, Subscriptions and
// Webhooks APIs this product makes (and Payments v2's refund of a subscription's payment), over
// fetch, typed by the wire format of PayPal's OpenAPI documents
// (../shared/reference/paypal-*.openapi.json). Why not @paypal/paypal-server-sdk:
// docs/decisions/0040-paypal-rest-client.md. The access token (client credentials) is cached
// until shortly before it expires. Every call that creates something sends PayPal-Request-Id, so
// a retried call (or two servers creating the same plan) gets the one PayPal made first.

/** PayPal's money object: a decimal string in the currency's units. */
export type PaypalMoney = { currency_code: string; value: string };

export type PaypalPricingScheme = { fixed_price: PaypalMoney };

export type PaypalBillingCycle = {
  frequency: { interval_unit: "DAY" | "WEEK" | "MONTH" | "YEAR"; interval_count: number };
  tenure_type: "REGULAR" | "TRIAL";
  sequence: number;
  total_cycles: number;
  pricing_scheme?: PaypalPricingScheme;
};

export type PaypalPlan = {
  id: string;
  product_id: string;
  name: string;
  status: "CREATED" | "INACTIVE" | "ACTIVE";
  description?: string;
  billing_cycles?: PaypalBillingCycle[];
  quantity_supported?: boolean;
};

export type PaypalPlanRequest = {
  product_id: string;
  name: string;
  description?: string;
  status?: "CREATED" | "INACTIVE" | "ACTIVE";
  billing_cycles: PaypalBillingCycle[];
  payment_preferences: {
    auto_bill_outstanding?: boolean;
    payment_failure_threshold?: number;
    setup_fee_failure_action?: "CONTINUE" | "CANCEL";
  };
  quantity_supported?: boolean;
};

export type PaypalSubscriptionStatus =
  | "APPROVAL_PENDING"
  | "APPROVED"
  | "ACTIVE"
  | "SUSPENDED"
  | "CANCELLED"
  | "EXPIRED";

export type PaypalSubscription = {
  id: string;
  status: PaypalSubscriptionStatus;
  plan_id?: string;
  quantity?: string;
  custom_id?: string;
  start_time?: string;
  plan_overridden?: boolean;
  /**
   * The plan inline, overrides applied (only with `fields=plan`): only its billing cycles are
   * read, and an override may leave out what it does not change (frequency, tenure, price).
   */
  plan?: { billing_cycles?: Partial<PaypalBillingCycle>[] };
  billing_info?: {
    outstanding_balance?: PaypalMoney;
    last_payment?: { amount: PaypalMoney; time: string };
    next_billing_time?: string;
    failed_payments_count?: number;
  };
};

export type PaypalReviseRequest = { plan_id?: string; quantity?: string };
export type PaypalReviseResponse = {
  plan_id?: string;
  quantity?: string;
  plan_overridden?: boolean;
  links?: { href: string; rel: string; method?: string }[];
};

export type PaypalPlanCollection = {
  plans?: PaypalPlan[];
  total_items?: number;
  total_pages?: number;
};

/** One payment of a subscription (its id is the sale, or capture, that a refund names). */
export type PaypalTransaction = {
  id: string;
  status?: "COMPLETED" | "DECLINED" | "PARTIALLY_REFUNDED" | "PENDING" | "REFUNDED";
  amount_with_breakdown: {
    gross_amount: PaypalMoney;
    fee_amount?: PaypalMoney;
    net_amount?: PaypalMoney;
  };
  time: string;
};

/**
 * Payments v2's refund of a captured payment (a subscription's payment is one): the fields of
 * @paypal/paypal-server-sdk's RefundRequest model under their wire names (the SDK's models are
 * camelCase, mapped by its own schema layer: decision 0040). No amount: the whole of what is left.
 */
export type PaypalRefundRequest = {
  amount?: PaypalMoney;
  custom_id?: string;
  invoice_id?: string;
  note_to_payer?: string;
};

/** The SDK's Refund model (the fields read here), under its wire names. */
export type PaypalRefund = {
  id: string;
  status: "CANCELLED" | "FAILED" | "PENDING" | "COMPLETED";
  amount?: PaypalMoney;
  invoice_id?: string;
  custom_id?: string;
  create_time?: string;
};

/** The headers PayPal sends with a webhook, which verify-webhook-signature needs back. */
export type PaypalTransmission = {
  authAlgo: string;
  certUrl: string;
  transmissionId: string;
  transmissionSig: string;
  transmissionTime: string;
};

export class PaypalApiError extends Error {
  readonly status: number;
  readonly name = "PaypalApiError";
  /** PayPal's error name (RESOURCE_NOT_FOUND, UNPROCESSABLE_ENTITY, ...). */
  readonly issue: string;
  constructor(status: number, issue: string, message: string) {
    super(message);
    this.status = status;
    this.issue = issue;
  }
}

export type PaypalClientOptions = {
  clientId: string;
  clientSecret: string;
  apiUrl: string;
  /** Milliseconds before a call is given up (default 20 s). */
  timeoutMs?: number;
  fetch?: typeof fetch;
};

export class PaypalClient {
  private readonly options: PaypalClientOptions;
  private token: { value: string; until: number } | null = null;

  constructor(options: PaypalClientOptions) {
    this.options = options;
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.until > Date.now()) return this.token.value;
    const { clientId, clientSecret, apiUrl } = this.options;
    const response = await this.send(`${apiUrl}/v1/oauth2/token`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "grant_type=client_credentials",
    });
    const body = (await response.json()) as { access_token?: string; expires_in?: number };
    if (!response.ok || typeof body.access_token !== "string") {
      throw new PaypalApiError(
        response.status,
        "AUTHENTICATION_FAILURE",
        "PayPal refused the client id and secret",
      );
    }
    // A minute early: a token that expires mid-call fails that call.
    const seconds = typeof body.expires_in === "number" ? body.expires_in : 300;
    this.token = { value: body.access_token, until: Date.now() + Math.max(0, seconds - 60) * 1000 };
    return body.access_token;
  }

  private async send(url: string, init: RequestInit): Promise<Response> {
    const doFetch = this.options.fetch ?? fetch;
    return doFetch(url, { ...init, signal: AbortSignal.timeout(this.options.timeoutMs ?? 20_000) });
  }

  /** One authenticated call; a body of text is sent as it is (the webhook event, unchanged). */
  private async call<T>(
    method: "GET" | "POST" | "PATCH",
    path: string,
    body?: unknown,
    requestId?: string,
  ): Promise<T> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${await this.accessToken()}`,
      accept: "application/json",
      prefer: "return=representation",
    };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (requestId) headers["paypal-request-id"] = requestId;
    const response = await this.send(`${this.options.apiUrl}${path}`, {
      method,
      headers,
      ...(body === undefined
        ? {}
        : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });
    if (response.status === 401) this.token = null;
    const text = await response.text();
    if (!response.ok) {
      let issue = `HTTP_${response.status}`;
      let message = text.slice(0, 300);
      try {
        const parsed = JSON.parse(text) as { name?: string; message?: string };
        issue = parsed.name ?? issue;
        message = parsed.message ?? message;
      } catch {
        // Not JSON: the status and the text's start say what happened.
      }
      throw new PaypalApiError(response.status, issue, `PayPal ${method} ${path}: ${message}`);
    }
    return (text === "" ? undefined : JSON.parse(text)) as T;
  }

  /** The catalogue product, or null when PayPal has none with this id. */
  async getProduct(id: string): Promise<{ id: string; name: string } | null> {
    try {
      return await this.call("GET", `/v1/catalogs/products/${encodeURIComponent(id)}`);
    } catch (error) {
      if (error instanceof PaypalApiError && error.status === 404) return null;
      throw error;
    }
  }

  createProduct(product: { id: string; name: string; description?: string }) {
    return this.call<{ id: string; name: string }>(
      "POST",
      "/v1/catalogs/products",
      { ...product, type: "SERVICE", category: "SOFTWARE" },
      `product-${product.id}`,
    );
  }

  createPlan(plan: PaypalPlanRequest, requestId: string): Promise<PaypalPlan> {
    return this.call("POST", "/v1/billing/plans", plan, requestId);
  }

  /** One page (1-based) of the plans of a catalogue product, whole (Prefer: return=representation). */
  listPlans(productId: string, page: number): Promise<PaypalPlanCollection> {
    const query = new URLSearchParams({
      product_id: productId,
      page_size: "20",
      page: String(page),
      total_required: "true",
    });
    return this.call("GET", `/v1/billing/plans?${query}`);
  }

  /**
   * The subscription with its plan inline (`fields=plan`: PayPal leaves the plan, and so the
   * billing cycles a subscription overrode, out of the answer unless asked).
   */
  getSubscription(id: string): Promise<PaypalSubscription> {
    return this.call("GET", `/v1/billing/subscriptions/${encodeURIComponent(id)}?fields=plan`);
  }

  /** Cancels at PayPal; a subscription PayPal has already ended counts as cancelled. */
  async cancelSubscription(id: string, reason: string): Promise<void> {
    try {
      await this.call("POST", `/v1/billing/subscriptions/${encodeURIComponent(id)}/cancel`, {
        reason: reason.slice(0, 128),
      });
    } catch (error) {
      if (error instanceof PaypalApiError && error.status === 422) {
        const now = await this.getSubscription(id);
        if (now.status === "CANCELLED" || now.status === "EXPIRED") return;
      }
      throw error;
    }
  }

  /** The payments of a subscription between two times (PayPal needs both). */
  async listTransactions(id: string, from: Date, to: Date): Promise<PaypalTransaction[]> {
    const query = new URLSearchParams({
      start_time: from.toISOString(),
      end_time: to.toISOString(),
    });
    const answer = await this.call<{ transactions?: PaypalTransaction[] }>(
      "GET",
      `/v1/billing/subscriptions/${encodeURIComponent(id)}/transactions?${query}`,
    );
    return answer?.transactions ?? [];
  }

  /**
   * Refunds a subscription's payment through Payments v2 (its transaction id is the capture's).
   * The request id makes a retried refund the one PayPal made first.
   */
  refundCapture(
    captureId: string,
    request: PaypalRefundRequest,
    requestId: string,
  ): Promise<PaypalRefund> {
    return this.call(
      "POST",
      `/v2/payments/captures/${encodeURIComponent(captureId)}/refund`,
      request,
      requestId,
    );
  }

  reviseSubscription(id: string, revise: PaypalReviseRequest): Promise<PaypalReviseResponse> {
    return this.call("POST", `/v1/billing/subscriptions/${encodeURIComponent(id)}/revise`, revise);
  }

  /**
   * Asks PayPal whether a webhook delivery is genuine. The event goes back exactly as it arrived
   * (its bytes spliced into the request, never parsed and re-serialised): PayPal checks the
   * signature over the body it sent.
   */
  async verifyWebhookSignature(
    webhookId: string,
    transmission: PaypalTransmission,
    rawEvent: string,
  ): Promise<boolean> {
    const head = JSON.stringify({
      auth_algo: transmission.authAlgo,
      cert_url: transmission.certUrl,
      transmission_id: transmission.transmissionId,
      transmission_sig: transmission.transmissionSig,
      transmission_time: transmission.transmissionTime,
      webhook_id: webhookId,
    });
    const body = `${head.slice(0, -1)},"webhook_event":${rawEvent}}`;
    const answer = await this.call<{ verification_status?: string }>(
      "POST",
      "/v1/notifications/verify-webhook-signature",
      body,
    );
    return answer?.verification_status === "SUCCESS";
  }
}
