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
};

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
