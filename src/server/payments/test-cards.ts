// Stripe's documented test card numbers (https://docs.stripe.com/testing), so that each card error
// of spec section 8 can be produced on purpose in the sandbox. `attach` failures happen when the
// card is saved (as Stripe declines them when attaching to a customer); `charge` failures happen
// when it is charged.
import { brandOf, luhnValid } from "../../domain/checkout/card-number.ts";

export type TestCard = { brand: string; attachError: string | null; chargeError: string | null };

export const TEST_CARDS: Record<string, TestCard> = {
  "4242424242424242": { brand: "visa", attachError: null, chargeError: null },
  "4000056655665556": { brand: "visa", attachError: null, chargeError: null },
  "5555555555554444": { brand: "mastercard", attachError: null, chargeError: null },
  "2223003122003222": { brand: "mastercard", attachError: null, chargeError: null },
  "378282246310005": { brand: "amex", attachError: null, chargeError: null },
  "6011111111111117": { brand: "discover", attachError: null, chargeError: null },
  "4000000000000002": { brand: "visa", attachError: "card_declined", chargeError: null },
  "4000000000009995": { brand: "visa", attachError: "insufficient_funds", chargeError: null },
  "4000000000000069": { brand: "visa", attachError: "expired_card", chargeError: null },
  "4000000000000127": { brand: "visa", attachError: "incorrect_cvc", chargeError: null },
  "4000000000000119": { brand: "visa", attachError: "processing_error", chargeError: null },
  "4000000000000036": { brand: "visa", attachError: "incorrect_zip", chargeError: null },
  // Attaching succeeds, every charge is declined.
  "4000000000000341": { brand: "visa", attachError: null, chargeError: "card_declined" },
  // Stripe's authentication (3-D Secure) cards. The behaviour is kept in the token's chargeError
  // column (the sandbox's own books, see AUTHENTICATION below): a purchase answers "the bank asks
  // to confirm" and the sandbox's authentication page (/dev/sandbox/authenticate) plays the bank.
  // 4000 0025 0000 3155: authenticated once on a purchase; off-session payments then succeed.
  "4000002500003155": {
    brand: "visa",
    attachError: null,
    chargeError: "authenticate_once",
  },
  // 4000 0027 6000 3184: authentication on every payment, off-session ones included.
  "4000002760003184": {
    brand: "visa",
    attachError: null,
    chargeError: "authenticate_every",
  },
  // 4000 0082 6000 3178: authentication succeeds, then the payment is declined (insufficient_funds).
  "4000008260003178": {
    brand: "visa",
    attachError: null,
    chargeError: "authenticate_then_insufficient_funds",
  },
};

/**
 * What an authentication card does: `onSession` whether a purchase asks the customer, `offSession`
 * the answer of a payment without the customer (null: it succeeds; a section-8 code otherwise,
 * `authentication_required` when the bank wants the customer), `afterAuthentication` the
 * payment's outcome once the customer completed the step (null: succeeded).
 */
export type Authentication = {
  offSession: string | null;
  afterAuthentication: string | null;
};

export const AUTHENTICATION: Record<string, Authentication> = {
  authenticate_once: { offSession: null, afterAuthentication: null },
  authenticate_every: {
    offSession: "authentication_required",
    afterAuthentication: null,
  },
  authenticate_then_insufficient_funds: {
    offSession: "authentication_required",
    afterAuthentication: "insufficient_funds",
  },
};

/** The authentication behaviour a stored chargeError names, or null for an ordinary card. */
export function authenticationOf(chargeError: string | null): Authentication | null {
  return chargeError !== null && Object.hasOwn(AUTHENTICATION, chargeError)
    ? (AUTHENTICATION[chargeError] ?? null)
    : null;
}

/**
 * What the sandbox does with a card number. As in Stripe's test mode, a valid number that is not
 * a test card is declined; an invalid one is refused outright.
 */
export function classifyCard(number: string): TestCard | null {
  const known = TEST_CARDS[number];
  if (known) return known;
  if (!luhnValid(number)) return null;
  return { brand: brandOf(number), attachError: "card_declined", chargeError: null };
}
