// The bank's step of a payment (3-D Secure): when the server answers 402
// authentication_required with an `action`, the payment step that knows the provider shows the
// bank's page (Stripe.js's handleNextAction in Stripe mode), and the checkout then asks the
// server again with the same Idempotency-Key: the server reads the payment as it is now, and
// writes the order only if it succeeded (docs/decisions/0037). No provider code here: the
// payment step registers what runs the step.

export type PaymentAction = { paymentId: string; clientSecret: string; url?: string | undefined };

/** Runs the bank's step; resolves when the person finished, failed or closed it. */
export type Authenticator = (action: PaymentAction) => Promise<void>;

let current: Authenticator | null = null;

/** The payment step's authenticator (null when it unmounts). */
export function setAuthenticator(authenticator: Authenticator | null): void {
  current = authenticator;
}

/** Shows the bank's step; false when no payment step can show it (asked again later). */
export async function authenticatePayment(action: PaymentAction): Promise<boolean> {
  if (current === null) return false;
  try {
    await current(action);
  } catch {
    // Closed or broken: the server tells the outcome when asked again.
  }
  return true;
}
