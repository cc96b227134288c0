// The payment store of spec 3.8 and its operations of section 4: save a card, pay, PayPal, free
// trial, essentials and subscription cancellation, invoices, the order summary, the address form
// and coupons. Effects follow section 4 exactly; failures are stored per feature (section 8).
import { map } from "nanostores";
import type { ApiFailure, ApiResult } from "../client/client.ts";
import { endpoints } from "../contract/endpoints.ts";
import type { PurchaseBody } from "../contract/payment.ts";
import type { OrderSummaryAnswer } from "../contract/products.ts";
import type { InvoiceSummary } from "../domain/account/invoice.ts";
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

export function patchPayment(fields: Partial<PaymentState>): void {
  $payment.set({ ...$payment.get(), ...fields });
}

function paymentError(error: ApiFailure): PaymentState["error"] {
  return { ...error, marker: newIdempotencyKey() };
}

/** What the checkout asks to buy: the contract's purchase body (the store sets `newCart`). */
export type PurchaseInput = Omit<PurchaseBody, "newCart">;

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
      patchPayment({ token });
    },
    onFailure(error) {
      patchPayment({ error: paymentError(error) });
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
      patchPayment({ error: null, paymentSuccess: false });
    },
    onSuccess() {
      patchPayment({ paymentSuccess: true });
      void loadProducts.run();
    },
    onFailure(error) {
      patchPayment({ error: paymentError(error) });
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
      patchPayment({ paymentPayPalSuccess: true });
    },
    onFailure(error) {
      patchPayment({ error: paymentError(error) });
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
      patchPayment({ freeTrialSuccess: true });
    },
  },
);

export const cancelEssentials = operation("cancelEssentials", () =>
  api().call(endpoints.deleteEssentials),
);

export const cancelSubscription = operation("cancelSubscription", () =>
  api().call(endpoints.cancelSubscription),
);

export const loadOrderSummary = operation(
  "orderSummary",
  (input: { targetProduct: string; seats?: number; addOns?: string[]; coupon?: string }) =>
    api().call(endpoints.orderSummary, { body: input }),
  {
    onSuccess(summary) {
      patchPayment({ orderSummary: summary, orderSummaryError: null });
    },
    onFailure(error) {
      patchPayment({ orderSummary: null, orderSummaryError: error });
    },
  },
);

export const submitAddress = operation(
  "addressForm",
  (address: { country: string; state?: string; postalCode?: string; name?: string }) =>
    api().call(endpoints.address, { body: address }),
  {
    onSuccess() {
      patchPayment({ addressFormSuccess: true });
    },
  },
);

/** Address-form success "can be cleared explicitly" (spec 4). */
export function clearAddressFormSuccess(): void {
  patchPayment({ addressFormSuccess: false });
  submitAddress.reset();
}

export const verifyCoupon = operation(
  "verifyCoupon",
  (code: string) => api().call(endpoints.verifyCoupon, { params: { code }, body: {} }),
  {
    onStart() {
      patchPayment({ couponInstanceName: null });
    },
    onSuccess(answer) {
      patchPayment({ couponInstanceName: answer.instanceName });
    },
  },
);

/** Takes the applied coupon off the account (issue 18, item 10). */
export const removeCoupon = operation("removeCoupon", () => api().call(endpoints.removeCoupon));

export const applyCoupon = operation(
  "applyCoupon",
  (code: string) => api().call(endpoints.applyCoupon, { params: { code }, body: {} }),
  {
    onSuccess(answer) {
      patchPayment({ couponReason: answer.reason });
    },
  },
);
