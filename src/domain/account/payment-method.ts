// Payment method and processor (spec sections 3.6 and 4).

export type PaymentProcessor = "paypal" | "cc";

/** PayPal or credit card, from the subscription ids or an explicit paymentMethod. */
export function paymentMethodOf(facts: {
  paypalSubscriptionId?: string | null;
  stripeId?: string | null;
  paymentMethod?: string | null;
}): PaymentProcessor | null {
  const explicit = facts.paymentMethod?.toLowerCase();
  if (explicit === "paypal") return "paypal";
  if (explicit === "cc" || explicit === "card" || explicit === "creditcard") return "cc";
  if (facts.paypalSubscriptionId) return "paypal";
  if (facts.stripeId) return "cc";
  return null;
}
