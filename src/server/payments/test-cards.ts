// Stripe's documented test card numbers (https://docs.stripe.com/testing), so that each card error
// of spec section 8 can be produced on purpose in the sandbox. `attach` failures happen when the
// card is saved (as Stripe declines them when attaching to a customer); `charge` failures happen
// when it is charged.
import { brandOf, luhnValid } from "../../domain/checkout/card-number.ts";

export type TestCard = { brand: string; attachError: string | null; chargeError: string | null };

const TEST_CARDS: Record<string, TestCard> = {
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
  // 4000 0025 0000 3155: authenticated once, when the card is saved; its payments, off-session
  // ones included, then succeed.
  "4000002500003155": {
    brand: "visa",
    attachError: null,
    chargeError: "authenticate_once",
  },
  // 4000 0027 6000 3184: authentication when saved and on every payment, off-session ones
  // included ("regardless of how the card is set up").
  "4000002760003184": {
    brand: "visa",
    attachError: null,
    chargeError: "authenticate_every",
  },
  // 4000 0082 6000 3178: authentication when saved and on every payment; once authenticated the
  // payment is declined (insufficient_funds).
  "4000008260003178": {
    brand: "visa",
    attachError: null,
    chargeError: "authenticate_then_insufficient_funds",
  },
};

/**
 * What an authentication card does, as Stripe's test card does: `onSetup` whether saving it asks
 * the customer (a SetupIntent's step), `onPayment` whether each payment asks, on-session or not
 * (off-session, Stripe's answer is authentication_required and the payment waits for the
 * customer), `afterAuthentication` a payment's outcome once the customer completed the step
 * (null: succeeded).
 */
export type Authentication = {
  onSetup: boolean;
  onPayment: boolean;
  afterAuthentication: string | null;
};

const AUTHENTICATION: Record<string, Authentication> = {
  // 3155: authenticated once, when saved for later use; its payments then need no step.
  authenticate_once: { onSetup: true, onPayment: false, afterAuthentication: null },
  // 3184 and 3178: Stripe's SetupIntent asks too, and every payment asks again.
  authenticate_every: { onSetup: true, onPayment: true, afterAuthentication: null },
  authenticate_then_insufficient_funds: {
    onSetup: true,
    onPayment: true,
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
