// The payment store of spec 3.8 and its operations of section 4: save a card, pay, PayPal, free
// trial, essentials and subscription cancellation, invoices, the order summary, the address form
// and coupons. Effects follow section 4 exactly; failures are stored per feature (section 8).
import { map } from "nanostores";
import type { ApiFailure, ApiResult } from "../api/client.ts";
import type { OrderSummaryAnswer } from "../api/contract/products.ts";
import { routes as endpoints } from "../api/contract/routes.ts";
import { type InvoiceSummary, invoiceSummary } from "../domain/account/invoice.ts";
import { MESSAGES } from "../domain/errors/messages.ts";
import { api, newIdempotencyKey } from "./api.ts";
import { operation } from "./operation.ts";
import { loadProducts } from "./products.ts";
import { reporter } from "./telemetry.ts";

export type PaymentState = {
  token: string | null;
  /** The last payment error, with a marker that tells two identical failures apart. */
  error: (ApiFailure & { marker: string }) | null;
  paymentSuccess: boolean;
  paymentPayPalSuccess: boolean;
  freeTrialSuccess: boolean;
  invoice: InvoiceSummary | null;
  invoiceLoading: boolean;
  orderSummary: OrderSummaryAnswer | null;
  orderSummaryError: ApiFailure | null;
  addressFormSuccess: boolean;
  couponInstanceName: string | null;
  couponReason: string | null;
};

export const $payment = map<PaymentState>({
  token: null,
  error: null,
  paymentSuccess: false,
  paymentPayPalSuccess: false,
  freeTrialSuccess: false,
  invoice: null,
  invoiceLoading: false,
  orderSummary: null,
  orderSummaryError: null,
  addressFormSuccess: false,
  couponInstanceName: null,
  couponReason: null,
});

function patch(fields: Partial<PaymentState>): void {
  $payment.set({ ...$payment.get(), ...fields });
}

function paymentError(error: ApiFailure): PaymentState["error"] {
  return { ...error, marker: newIdempotencyKey() };
}

export type PurchaseInput = {
  product: { code?: string } | null | undefined;
  seats?: number;
  addOns?: string[];
  coupon?: string;
  expectedTotal?: number;
};

/** Spec 5: an upgrade call without a product is refused here, with a warning and a report. */
function missingProduct(): ApiResult<never> {
  console.warn(MESSAGES.upgradeWithoutProduct);
  reporter.report(new Error(MESSAGES.upgradeWithoutProduct), { kind: "manual" });
  return {
    ok: false,
    error: {
      kind: "invalid-request",
      message: MESSAGES.upgradeWithoutProduct,
      status: 400,
      code: "upgrade_without_product",
    },
  };
}

export const savePaymentToken = operation(
  "paymentToken",
  (token: string, key: string = newIdempotencyKey()) =>
    api().call(endpoints.paymentToken, { body: { token }, idempotencyKey: key }),
  {
    onSuccess(_, [token]) {
      patch({ token });
    },
    onFailure(error) {
      patch({ error: paymentError(error) });
    },
  },
);

export const pay = operation(
  "payment",
  async (input: PurchaseInput, key: string = newIdempotencyKey()) => {
    if (!input.product?.code) return missingProduct();
    return api().call(endpoints.upgrade, {
      body: { ...input, product: { code: input.product.code }, newCart: true },
      idempotencyKey: key,
    });
  },
  {
    onStart() {
      patch({ error: null, paymentSuccess: false });
    },
    onSuccess() {
      patch({ paymentSuccess: true });
      void loadProducts.run();
    },
    onFailure(error) {
      patch({ error: paymentError(error) });
    },
  },
);

export const payWithPaypal = operation(
  "paypalPayment",
  async (input: PurchaseInput & { href: string }, key: string = newIdempotencyKey()) => {
    if (!input.product?.code) return missingProduct();
    return api().call(endpoints.paypalSubscription, {
      body: { ...input, product: { code: input.product.code }, newCart: true },
      idempotencyKey: key,
    });
  },
  {
    onSuccess() {
      patch({ paymentPayPalSuccess: true });
    },
    onFailure(error) {
      patch({ error: paymentError(error) });
    },
  },
);

export const startFreeTrial = operation(
  "freeTrial",
  (vertical: string, instanceName: string | null, key: string = newIdempotencyKey()) =>
    api().call(endpoints.activateFreeTrial, {
      body: { vertical, instanceName },
      idempotencyKey: key,
    }),
  {
    onSuccess() {
      patch({ freeTrialSuccess: true });
    },
  },
);

export const cancelEssentials = operation("cancelEssentials", () =>
  api().call(endpoints.deleteEssentials),
);

export const cancelSubscription = operation("cancelSubscription", () =>
  api().call(endpoints.cancelSubscription),
);

/** The last invoice: an invoice must have a number or id, an empty PayPal list fails (spec 5). */
export const loadInvoice = operation(
  "invoice",
  async (processor: "cc" | "paypal") => {
    const endpoint = processor === "paypal" ? endpoints.paypalInvoices : endpoints.invoices;
    const result = await api().call(endpoint, { params: { page: 1 } });
    if (!result.ok) return result;
    const summary = invoiceSummary(result.value, processor);
    if (!summary.ok) {
      return {
        ok: false as const,
        error: { kind: "http" as const, message: summary.message, status: 404 },
      };
    }
    return { ok: true as const, value: summary.value, status: result.status };
  },
  {
    onStart() {
      patch({ invoiceLoading: true });
    },
    onSuccess(invoice) {
      patch({ invoice, invoiceLoading: false });
    },
    onFailure() {
      patch({ invoiceLoading: false });
    },
  },
);

export const loadOrderSummary = operation(
  "orderSummary",
  (input: { targetProduct: string; seats?: number; addOns?: string[]; coupon?: string }) =>
    api().call(endpoints.orderSummary, { body: input }),
  {
    onSuccess(summary) {
      patch({ orderSummary: summary, orderSummaryError: null });
    },
    onFailure(error) {
      patch({ orderSummary: null, orderSummaryError: error });
    },
  },
);

export const submitAddress = operation(
  "addressForm",
  (address: { country: string; state?: string; postalCode?: string; name?: string }) =>
    api().call(endpoints.address, { body: address }),
  {
    onSuccess() {
      patch({ addressFormSuccess: true });
    },
  },
);

/** Address-form success "can be cleared explicitly" (spec 4). */
export function clearAddressFormSuccess(): void {
  patch({ addressFormSuccess: false });
  submitAddress.reset();
}

export const verifyCoupon = operation(
  "verifyCoupon",
  (code: string) => api().call(endpoints.verifyCoupon, { params: { code }, body: {} }),
  {
    onStart() {
      patch({ couponInstanceName: null });
    },
    onSuccess(answer) {
      patch({ couponInstanceName: answer.instanceName });
    },
  },
);

export const applyCoupon = operation(
  "applyCoupon",
  (code: string) => api().call(endpoints.applyCoupon, { params: { code }, body: {} }),
  {
    onSuccess(answer) {
      patch({ couponReason: answer.reason });
    },
  },
);
