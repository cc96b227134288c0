// @vitest-environment jsdom
// The payment step against fakes of the providers' browser objects (neither Stripe nor PayPal
// can be reached here): a fake Stripe object in place of Stripe.js, and a fake `window.paypal`
// for the script PayPalScriptProvider adds. The API answers come from a fake fetch that records
// what was sent. What is asserted is what a person sees and what reaches our server.
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { Suspense } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { allowConsoleError } from "../../../test/setup/fail-on-console-error.ts";
import { createApiClient } from "../../client/client.ts";
import { pathOf, routedFetch, type Step } from "../../client/testing/scripted-fetch.ts";
import type { PaymentProviders } from "../../contract/payment.ts";
import type { OrderSummaryAnswer } from "../../contract/products.ts";
import { hrefFor } from "../../domain/checkout/screens.ts";
import { apiError } from "../../domain/errors/api-errors.ts";
import {
  CARD_ERROR_MESSAGES,
  GENERIC_CARD_ERROR_MESSAGE,
} from "../../domain/errors/card-errors.ts";
import { installApiClient } from "../../stores/api.ts";
import { $billingPostalCode } from "../../stores/billing-address.ts";
import { $checkout } from "../../stores/checkout.ts";
import { startPaypal } from "../../stores/checkout-payment.ts";
import { $payment } from "../../stores/payment.ts";
import { pendingChecks } from "../../stores/payment-outcome.ts";
import { forgetPaymentProviders } from "../../stores/payment-providers.ts";
import { startRouter } from "../../stores/router.ts";
import { $user, ANONYMOUS } from "../../stores/user.ts";
import { PaymentForm } from "./PaymentForm.tsx";
import { forgetSdks, sdkLoaders } from "./provider-sdks.ts";

const PRODUCT = "wv_unloct17_12m";
const SUMMARY = {
  total: 9588,
  productCode: PRODUCT,
  change: "new",
  seats: 1,
} as OrderSummaryAnswer;

type Answer = Extract<Step, { status: number }>;

const STRIPE: PaymentProviders = {
  card: { provider: "stripe", publishableKey: "pk_test_fake" },
  paypal: { provider: "none" },
};
const SANDBOX: PaymentProviders = {
  card: { provider: "sandbox" },
  paypal: { provider: "sandbox" },
};
const PAYPAL_SDK: PaymentProviders = {
  card: { provider: "sandbox" },
  paypal: { provider: "paypal", clientId: "test-client-id" },
};

const UPGRADED = {
  status: 200,
  body: {
    success: true,
    orderId: "ord_1",
    invoiceId: "in_1",
    productCode: PRODUCT,
    seats: 1,
    total: 9588,
    orderEndDate: null,
    paymentProcessor: "cc",
    scheduledChange: null,
  },
};
const TOKEN_SAVED = {
  status: 200,
  body: { success: true, paymentMethod: { processor: "cc", brand: "visa", last4: "4242" } },
};

/** The upgrade's answer when the bank wants the customer (3-D Secure) for PaymentIntent `id`. */
const bankAsks = (id: string) => ({
  status: 402,
  body: {
    message: "Your bank asks you to confirm this payment.",
    error_code: "authentication_required",
    action: { paymentId: id, clientSecret: `${id}_secret_x` },
  },
});

type TokenAnswer = { paymentMethod?: { id: string }; error?: { type: string; code?: string } };

/**
 * A fake of Stripe.js's Stripe object: elements() creates a card element that mounts an iframe
 * (Stripe's frame, whose inputs are never in our DOM) and reports ready a moment later, as the
 * real frame does; createPaymentMethod answers what the test scripted, handleNextAction is the
 * bank's step (3-D Secure).
 */
function fakeStripe(answer: () => TokenAnswer) {
  const listeners = new Map<string, Set<(event: unknown) => void>>();
  let mounted: HTMLElement | null = null;
  const card = {
    mount(node: HTMLElement) {
      const frame = document.createElement("iframe");
      frame.title = "Secure card payment input frame";
      node.append(frame);
      mounted = node;
      setTimeout(() => {
        for (const listener of listeners.get("ready") ?? []) listener({ elementType: "card" });
      }, 0);
    },
    on(event: string, listener: (event: unknown) => void) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)?.add(listener);
      return card;
    },
    off(event: string, listener: (event: unknown) => void) {
      listeners.get(event)?.delete(listener);
      return card;
    },
    update() {},
    destroy() {
      mounted?.replaceChildren();
      mounted = null;
    },
  };
  const created: string[] = [];
  const elements = {
    create(type: string) {
      created.push(type);
      return card;
    },
    getElement(kind: unknown) {
      const type =
        typeof kind === "string" ? kind : (kind as { __elementType?: string }).__elementType;
      return type === "card" && created.includes("card") ? card : null;
    },
    update() {},
  };
  return {
    created,
    card,
    elements: vi.fn(() => elements),
    createPaymentMethod: vi.fn(async (input: { type: string; card: unknown }) => {
      expect(input).toEqual({ type: "card", card });
      return answer();
    }),
    handleNextAction: vi.fn(async (_input: { clientSecret: string }) => ({})),
    // Stripe.js's shape, which react-stripe-js checks; tokens are not used any more.
    createToken: vi.fn(),
    confirmCardPayment: vi.fn(),
  };
}

let fetchFake: ReturnType<typeof routedFetch>;
let stopRouter: () => void;
const loaders = { ...sdkLoaders };

function setUp(providers: PaymentProviders, routes: Record<string, Answer[]> = {}) {
  fetchFake = routedFetch({
    "GET /api/5/payment/providers": [{ status: 200, body: providers }],
    "GET /api/2/wevideouser/products": [
      { status: 500, body: { message: "x", error_code: "internal_error" } },
    ],
    ...routes,
  });
  installApiClient(createApiClient({ fetch: fetchFake, version: "test" }));
}

/** Renders the form as the checkout screen does (the payment step waits in a Suspense). */
async function renderForm() {
  await act(async () => {
    render(
      <Suspense fallback={<p>Loading the payment form…</p>}>
        <PaymentForm summary={SUMMARY} />
      </Suspense>,
    );
  });
}

/** The calls of `method` to `path`, with their headers and their JSON bodies read. */
function sent(method: string, path: string) {
  return fetchFake.sent
    .filter((s) => s.method === method && pathOf(s) === path)
    .map((s) => ({
      headers: new Headers(s.headers),
      body: s.body === undefined ? undefined : (JSON.parse(s.body) as unknown),
    }));
}

beforeEach(() => {
  forgetPaymentProviders();
  forgetSdks();
  sessionStorage.clear();
  window.history.replaceState(null, "", hrefFor("checkout", { product: PRODUCT }, { via: "hash" }));
  stopRouter = startRouter(window);
  $user.set({ ...ANONYMOUS, isAuth: true, userHasPaymentMethodSet: false });
  $payment.setKey("orderSummary", SUMMARY);
  $checkout.set({
    paying: false,
    priceChanged: false,
    resuming: false,
    failure: null,
  });
  startPaypal.reset();
});

afterEach(() => {
  cleanup();
  stopRouter();
  Object.assign(sdkLoaders, loaders);
  for (const script of document.head.querySelectorAll("script")) script.remove();
  delete (window as { paypal?: unknown }).paypal;
});

async function stripeReady(stripe: ReturnType<typeof fakeStripe>) {
  sdkLoaders.stripeJs = vi.fn(async () => stripe as never);
  await renderForm();
  const pay = await screen.findByRole("button", { name: "Pay $95.88" });
  await waitFor(() => expect((pay as HTMLButtonElement).disabled).toBe(false));
  return pay;
}

describe("Stripe mode (a publishable key configured)", () => {
  it("shows Stripe's card element in its frame, says Stripe processes the payment, and pays with Stripe's token", async () => {
    setUp(STRIPE, {
      "POST /api/3/payment/token": [TOKEN_SAVED],
      "POST /api/3/payment/upgrade": [UPGRADED],
    });
    const stripe = fakeStripe(() => ({ paymentMethod: { id: "pm_visa_1" } }));
    const pay = await stripeReady(stripe);

    expect(sdkLoaders.stripeJs).toHaveBeenCalledWith("pk_test_fake");
    expect(stripe.created).toEqual(["card"]);
    expect(screen.getByText(/processed by Stripe/)).not.toBeNull();
    expect(screen.getByTitle("Secure card payment input frame")).not.toBeNull();
    // PCI SAQ A: no card field of our own; the only inputs are the method choices.
    expect(document.querySelectorAll("input:not([type=radio]), select, textarea")).toHaveLength(0);
    expect(screen.queryByLabelText("Card number")).toBeNull();
    // The server offers no PayPal in Stripe mode, so neither does the form.
    expect(screen.queryByRole("radio", { name: "PayPal" })).toBeNull();

    fireEvent.click(pay);
    await waitFor(() => expect(window.location.hash).toBe("#payment-completed"));
    expect(stripe.createPaymentMethod).toHaveBeenCalledTimes(1);
    const [saved] = sent("POST", "/api/3/payment/token");
    expect(saved?.body).toEqual({ token: "pm_visa_1" });
    const [upgrade] = sent("POST", "/api/3/payment/upgrade");
    expect(upgrade?.body).toMatchObject({ product: { code: PRODUCT }, expectedTotal: 9588 });
    expect(upgrade?.headers.get("Idempotency-Key")).toMatch(/.+/);
    // Nothing of the card reaches our server but Stripe's token.
    const bodies = fetchFake.sent.map((s) => (s.body ? (JSON.parse(s.body) as unknown) : null));
    expect(JSON.stringify(bodies)).not.toMatch(/4242|cvc|expMonth|expYear|"number"/i);
  });

  it.each([
    ["expired_card", CARD_ERROR_MESSAGES.expired_card],
    ["incorrect_cvc", CARD_ERROR_MESSAGES.incorrect_cvc],
    ["card_declined", CARD_ERROR_MESSAGES.card_declined],
    ["processing_error", CARD_ERROR_MESSAGES.processing_error],
    ["incorrect_zip", CARD_ERROR_MESSAGES.incorrect_zip],
    ["incorrect_number", GENERIC_CARD_ERROR_MESSAGE],
    ["insufficient_funds", GENERIC_CARD_ERROR_MESSAGE],
  ])(
    "shows section 8's message when Stripe refuses the card with %s, and charges nothing",
    async (code, message) => {
      setUp(STRIPE);
      const stripe = fakeStripe(() => ({ error: { type: "card_error", code } }));
      const pay = await stripeReady(stripe);
      fireEvent.click(pay);
      expect(await screen.findByText(message)).not.toBeNull();
      expect(sent("POST", "/api/3/payment/token")).toHaveLength(0);
      expect(sent("POST", "/api/3/payment/upgrade")).toHaveLength(0);
      // A way forward: the pay button is there again for another try.
      expect(
        (screen.getByRole("button", { name: "Pay $95.88" }) as HTMLButtonElement).disabled,
      ).toBe(false);
    },
  );

  it("shows section 8's message when the charge of Stripe's token is declined at our server", async () => {
    setUp(STRIPE, {
      "POST /api/3/payment/token": [TOKEN_SAVED],
      "POST /api/3/payment/upgrade": [
        {
          status: 402,
          body: { message: CARD_ERROR_MESSAGES.card_declined, error_code: "card_declined" },
        },
      ],
    });
    const pay = await stripeReady(fakeStripe(() => ({ paymentMethod: { id: "pm_declined" } })));
    fireEvent.click(pay);
    expect(await screen.findByText(CARD_ERROR_MESSAGES.card_declined)).not.toBeNull();
    expect(window.location.hash).toBe("#checkout");
  });

  it("shows the bank's step (3-D Secure) with Stripe.js, then asks again with the same key", async () => {
    setUp(STRIPE, {
      "POST /api/3/payment/token": [TOKEN_SAVED],
      "POST /api/3/payment/upgrade": [bankAsks("pi_1"), UPGRADED],
    });
    const stripe = fakeStripe(() => ({ paymentMethod: { id: "pm_3ds" } }));
    fireEvent.click(await stripeReady(stripe));
    await waitFor(() => expect(window.location.hash).toBe("#payment-completed"));
    expect(stripe.handleNextAction).toHaveBeenCalledWith({ clientSecret: "pi_1_secret_x" });
    const upgrades = sent("POST", "/api/3/payment/upgrade");
    expect(upgrades).toHaveLength(2);
    expect(upgrades[1]?.headers.get("Idempotency-Key")).toBe(
      upgrades[0]?.headers.get("Idempotency-Key"),
    );
  });

  it("a failed authentication leaves the checkout with its message and a way to pay again", async () => {
    setUp(STRIPE, {
      "POST /api/3/payment/token": [TOKEN_SAVED],
      "POST /api/3/payment/upgrade": [
        bankAsks("pi_2"),
        {
          status: 402,
          body: {
            message: apiError("authentication_failed").body.message,
            error_code: "authentication_failed",
          },
        },
      ],
    });
    const stripe = fakeStripe(() => ({ paymentMethod: { id: "pm_3ds" } }));
    stripe.handleNextAction.mockResolvedValueOnce({ error: { type: "card_error" } } as never);
    fireEvent.click(await stripeReady(stripe));
    expect(await screen.findByText(apiError("authentication_failed").body.message)).not.toBeNull();
    expect(window.location.hash).toBe("#checkout");
    expect((screen.getByRole("button", { name: "Pay $95.88" }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });

  it("an unknown outcome says 'being confirmed' and asks again with the same key, never a second payment", async () => {
    const timing = { ...pendingChecks };
    pendingChecks.pauseMs = 50;
    try {
      const pending = {
        status: 409,
        body: {
          message: apiError("payment_pending").body.message,
          error_code: "payment_pending",
        },
      };
      setUp(STRIPE, {
        "POST /api/3/payment/token": [TOKEN_SAVED],
        "POST /api/3/payment/upgrade": [pending, pending, UPGRADED],
      });
      fireEvent.click(await stripeReady(fakeStripe(() => ({ paymentMethod: { id: "pm_1" } }))));
      expect(await screen.findByText(/Your payment is being confirmed/)).not.toBeNull();
      await waitFor(() => expect(window.location.hash).toBe("#payment-completed"));
      const keys = sent("POST", "/api/3/payment/upgrade").map((u) =>
        u.headers.get("Idempotency-Key"),
      );
      expect(keys).toHaveLength(3);
      expect(new Set(keys).size).toBe(1);
    } finally {
      Object.assign(pendingChecks, timing);
    }
  });

  it("says Stripe could not be reached when Stripe.js does not load, and loads it again on request", async () => {
    setUp(STRIPE);
    const stripe = fakeStripe(() => ({ paymentMethod: { id: "pm_1" } }));
    sdkLoaders.stripeJs = vi
      .fn<typeof sdkLoaders.stripeJs>()
      .mockRejectedValueOnce(new Error("Failed to load Stripe.js"))
      .mockResolvedValue(stripe as never);
    await renderForm();
    expect(
      await screen.findByText(
        "The payment provider could not be reached. Nothing was charged. Try again in a moment.",
      ),
    ).not.toBeNull();
    expect((screen.getByRole("button", { name: "Pay $95.88" }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    await waitFor(() =>
      expect(
        (screen.getByRole("button", { name: "Pay $95.88" }) as HTMLButtonElement).disabled,
      ).toBe(false),
    );
    expect(sdkLoaders.stripeJs).toHaveBeenCalledTimes(2);
  });

  it("says Stripe could not be reached when Stripe.js cannot make the token", async () => {
    setUp(STRIPE);
    const pay = await stripeReady(fakeStripe(() => ({ error: { type: "api_connection_error" } })));
    fireEvent.click(pay);
    expect(
      await screen.findByText(
        "The payment provider could not be reached. Nothing was charged. Try again in a moment.",
      ),
    ).not.toBeNull();
  });
});

describe("sandbox mode (the default)", () => {
  it("shows the sandbox's card form and never loads Stripe's code", async () => {
    setUp(SANDBOX, {
      "POST /api/3/payment/sandbox/tokens": [
        { status: 200, body: { id: "tok_sandbox_1", card: {} } },
      ],
      "POST /api/3/payment/token": [TOKEN_SAVED],
      "POST /api/3/payment/upgrade": [UPGRADED],
    });
    sdkLoaders.stripeJs = vi.fn();
    sdkLoaders.stripeFields = vi.fn();
    sdkLoaders.paypalButtons = vi.fn();
    await renderForm();
    fireEvent.change(await screen.findByLabelText("Card number"), {
      target: { value: "4242 4242 4242 4242" },
    });
    fireEvent.change(screen.getByLabelText("Expiry date (MM / YY)"), { target: { value: "1230" } });
    fireEvent.change(screen.getByLabelText("Security code (CVC)"), { target: { value: "123" } });
    // The card's ZIP is the billing address's (AddressForm sets it; one field, not two).
    $billingPostalCode.set("94107");
    expect(screen.getByRole("radio", { name: "PayPal" })).not.toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Pay $95.88" }));
    await waitFor(() => expect(window.location.hash).toBe("#payment-completed"));
    expect(sent("POST", "/api/3/payment/sandbox/tokens")[0]?.body).toMatchObject({
      number: "4242424242424242",
      expMonth: 12,
      expYear: 2030,
      cvc: "123",
      postalCode: "94107",
    });
    expect(sent("POST", "/api/3/payment/token")[0]?.body).toEqual({ token: "tok_sandbox_1" });
    expect(sdkLoaders.stripeJs).not.toHaveBeenCalled();
    expect(sdkLoaders.stripeFields).not.toHaveBeenCalled();
    expect(sdkLoaders.paypalButtons).not.toHaveBeenCalled();
  });

  it("says the providers could not be asked, with a way to ask again", async () => {
    setUp(SANDBOX, {
      "GET /api/5/payment/providers": [
        { status: 503, body: { message: "Down for a moment.", error_code: "internal_error" } },
        { status: 200, body: SANDBOX },
      ],
    });
    await renderForm();
    const retry = await screen.findByRole("button", { name: "Try again" });
    await act(async () => {
      fireEvent.click(retry);
    });
    expect(await screen.findByLabelText("Card number")).not.toBeNull();
    expect(sent("GET", "/api/5/payment/providers")).toHaveLength(2);
  });
});

/**
 * A fake of PayPal's JS SDK: what the script PayPalScriptProvider adds would define
 * `window.paypal`; its Buttons render one button that runs createSubscription (whose
 * `actions.subscription.create` records what it was asked and answers PayPal's subscription id),
 * then onApprove (or onCancel), as PayPal's window would after the person's choice.
 */
function fakePaypal(outcome: "approve" | "cancel") {
  const created: unknown[] = [];
  const actions = {
    subscription: {
      create: vi.fn(async (options: unknown) => {
        created.push(options);
        return "I-FAKESUB0001";
      }),
    },
  };
  const paypal = {
    version: "5.0.0",
    created,
    Buttons: vi.fn((options: Record<string, (...args: unknown[]) => unknown>) => ({
      isEligible: () => true,
      close: async () => {},
      render: async (container: HTMLElement) => {
        const button = document.createElement("button");
        button.textContent = "PayPal (PayPal's frame)";
        button.addEventListener("click", async () => {
          let subscriptionID: string;
          try {
            subscriptionID = (await options.createSubscription?.({}, actions)) as string;
          } catch (error) {
            options.onError?.(error);
            return;
          }
          if (outcome === "cancel") options.onCancel?.({ subscriptionID });
          else await options.onApprove?.({ subscriptionID, orderID: "O-1" }, {});
        });
        container.append(button);
      },
    })),
  };
  return paypal;
}

/** Lets the SDK's script "load": defines window.paypal and fires the script's load event. */
async function loadPaypalScript(paypal: ReturnType<typeof fakePaypal>) {
  const script = await waitFor(() => {
    const found = document.head.querySelector<HTMLScriptElement>(
      'script[src^="https://www.paypal.com/sdk/js"]',
    );
    expect(found).not.toBeNull();
    return found as HTMLScriptElement;
  });
  expect(new URL(script.src).searchParams.get("client-id")).toBe("test-client-id");
  (window as { paypal?: unknown }).paypal = paypal;
  await act(async () => {
    script.dispatchEvent(new Event("load"));
  });
}

describe("PayPal's JS SDK (a client id configured)", () => {
  const APPROVAL = {
    status: 200,
    body: {
      success: true,
      approvalId: "PAYID-TEST123",
      approvalUrl: "/cart?product=wv_single_12m#paypalCompleted",
      paypal: {
        totalAmount: 9588,
        productCode: PRODUCT,
        productName: "Single",
        tier: "free",
        hasPaypalPayment: true,
        isCCRequiredTrial: false,
        planIsTrial: false,
      },
      subscription: { planId: "P-PLAN1", quantity: 1, firstCycleUnitPrice: "90.00" },
    },
  };
  const CONFIRMED = {
    status: 200,
    body: { ...APPROVAL.body, orderId: "ord_paid1" },
  };

  it("creates the subscription PayPal is asked for from our server's terms, and confirms it there", async () => {
    setUp(PAYPAL_SDK, { "POST /api/3/payment/paypalsubscription": [APPROVAL, CONFIRMED] });
    await renderForm();
    fireEvent.click(await screen.findByRole("radio", { name: "PayPal" }));
    // PayPal's buttons replace our pay button; the amount is still said.
    expect(
      await screen.findByText("Pay $95.88 with PayPal: PayPal processes the payment."),
    ).not.toBeNull();
    const paypal = fakePaypal("approve");
    await loadPaypalScript(paypal);
    fireEvent.click(await screen.findByRole("button", { name: "PayPal (PayPal's frame)" }));
    await waitFor(() => expect(sent("POST", "/api/3/payment/paypalsubscription")).toHaveLength(2));
    const [prepared, confirmed] = sent("POST", "/api/3/payment/paypalsubscription");
    expect(prepared?.body).toMatchObject({
      product: { code: PRODUCT },
      newCart: true,
      expectedTotal: 9588,
      href: hrefFor("paypalCompleted", { product: PRODUCT }, { via: "hash" }),
    });
    expect(prepared?.body).not.toHaveProperty("subscriptionId");
    // PayPal was asked for our plan, our order key and the first cycle's price.
    expect(paypal.created).toEqual([
      {
        plan_id: "P-PLAN1",
        custom_id: "PAYID-TEST123",
        quantity: "1",
        plan: {
          billing_cycles: [
            {
              sequence: 1,
              total_cycles: 1,
              pricing_scheme: { fixed_price: { value: "90.00", currency_code: "USD" } },
            },
          ],
        },
      },
    ]);
    expect(confirmed?.body).toMatchObject({
      product: { code: PRODUCT },
      newCart: true,
      subscriptionId: "I-FAKESUB0001",
      href: "/cart?product=wv_single_12m#paypalCompleted",
    });
    expect(confirmed?.headers.get("Idempotency-Key")).toMatch(/.+/);
    await waitFor(() => expect(window.location.hash).toBe("#paypalCompleted"));
    expect(new URLSearchParams(window.location.search).get("orderId")).toBe("ord_paid1");
  });

  it("stays on the checkout with the server's reason when it refuses PayPal's subscription", async () => {
    setUp(PAYPAL_SDK, {
      "POST /api/3/payment/paypalsubscription": [
        APPROVAL,
        {
          status: 409,
          body: { message: "not yet", error_code: "paypal_not_completed" },
        },
      ],
    });
    await renderForm();
    fireEvent.click(await screen.findByRole("radio", { name: "PayPal" }));
    await loadPaypalScript(fakePaypal("approve"));
    fireEvent.click(await screen.findByRole("button", { name: "PayPal (PayPal's frame)" }));
    expect(
      await screen.findByText(/PayPal has not completed this subscription yet/),
    ).not.toBeNull();
    expect(window.location.hash).toBe("#checkout");
  });

  it("leaves a way forward when the person closes PayPal, on the checkout with the choice kept", async () => {
    setUp(PAYPAL_SDK, { "POST /api/3/payment/paypalsubscription": [APPROVAL, APPROVAL] });
    await renderForm();
    fireEvent.click(await screen.findByRole("radio", { name: "PayPal" }));
    const paypal = fakePaypal("cancel");
    await loadPaypalScript(paypal);
    fireEvent.click(await screen.findByRole("button", { name: "PayPal (PayPal's frame)" }));
    expect(
      await screen.findByText(
        "You closed PayPal before approving. Nothing was charged: try PayPal again or pay by card.",
      ),
    ).not.toBeNull();
    // Nothing was confirmed: one call only, the preparation.
    expect(sent("POST", "/api/3/payment/paypalsubscription")).toHaveLength(1);
    expect(screen.getByRole("radio", { name: "Card" })).not.toBeNull();
    // Still the checkout of the plan chosen, and PayPal again asks for that plan at that price.
    expect(window.location.hash).toBe("#checkout");
    expect(new URLSearchParams(window.location.search).get("product")).toBe(PRODUCT);
    expect(screen.getByRole("radio", { name: "PayPal" })).toHaveProperty("checked", true);
    fireEvent.click(await screen.findByRole("button", { name: "PayPal (PayPal's frame)" }));
    await waitFor(() => expect(sent("POST", "/api/3/payment/paypalsubscription")).toHaveLength(2));
    const [first, again] = sent("POST", "/api/3/payment/paypalsubscription");
    expect(again?.body).toEqual(first?.body);
    expect(again?.body).toMatchObject({ product: { code: PRODUCT }, expectedTotal: 9588 });
    expect(paypal.created.map((c) => (c as { plan_id: string }).plan_id)).toEqual([
      "P-PLAN1",
      "P-PLAN1",
    ]);
  });

  it("shows our server's refusal in its words, and PayPal's window does not open", async () => {
    setUp(PAYPAL_SDK, {
      "POST /api/3/payment/paypalsubscription": [
        {
          status: 409,
          body: {
            message: "Someone is already changing this account.",
            error_code: "account_busy",
          },
        },
      ],
    });
    await renderForm();
    fireEvent.click(await screen.findByRole("radio", { name: "PayPal" }));
    const paypal = fakePaypal("approve");
    await loadPaypalScript(paypal);
    fireEvent.click(await screen.findByRole("button", { name: "PayPal (PayPal's frame)" }));
    await waitFor(() => expect(startPaypal.$state.get().status).toBe("failure"));
    expect(await screen.findByRole("alert")).not.toBeNull();
    expect(screen.queryByText(/PayPal could not be reached/)).toBeNull();
    expect(paypal.created).toEqual([]);
  });

  it("says PayPal could not be reached when its script fails to load", async () => {
    // react-paypal-js logs the failed script; the person is told in words below.
    allowConsoleError(/Failed to load the PayPal JS SDK script/);
    setUp(PAYPAL_SDK);
    await renderForm();
    fireEvent.click(await screen.findByRole("radio", { name: "PayPal" }));
    const script = await waitFor(() => {
      const found = document.head.querySelector('script[src^="https://www.paypal.com/sdk/js"]');
      expect(found).not.toBeNull();
      return found as HTMLScriptElement;
    });
    await act(async () => {
      script.dispatchEvent(new Event("error"));
    });
    expect(
      await screen.findByText(
        "PayPal could not be reached. Nothing was charged: try again, or pay by card.",
      ),
    ).not.toBeNull();
  });
});
