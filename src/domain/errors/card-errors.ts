// Card errors of spec section 8. The codes are the payment provider's (Stripe's) decline codes;
// the messages are shown to the customer verbatim. Any code not listed gets the generic message.

export const CARD_ERROR_MESSAGES = {
  expired_card: "The card you provided is expired. Please try again with a valid card.",
  incorrect_cvc:
    "You did not enter the correct CVC code for your card. The CVC code is the three or four digit number on the back of the card.",
  card_declined:
    "Your card was declined. Please reach out to your card provider for more information.",
  processing_error: "Oops, something went wrong. Please try again",
  incorrect_zip: "The ZIP (US) or postal (elsewhere) code provided failed validation",
} as const;

export type KnownCardErrorCode = keyof typeof CARD_ERROR_MESSAGES;

/**
 * Every card code the API answers as its error_code (a closed set, so the browser can switch on
 * it exhaustively): the spec's five, the decline the sandbox produces on purpose
 * (insufficient_funds, shown with the generic message), and `card_error` for any other or
 * missing provider code (see `cardError` in api-errors.ts).
 */
export const CARD_ERROR_CODES = [
  "expired_card",
  "incorrect_cvc",
  "card_declined",
  "processing_error",
  "incorrect_zip",
  "insufficient_funds",
] as const satisfies readonly string[];

export type CardErrorCode = (typeof CARD_ERROR_CODES)[number];

export function isCardErrorCode(code: unknown): code is CardErrorCode {
  return typeof code === "string" && (CARD_ERROR_CODES as readonly string[]).includes(code);
}

/** The message for a card error code that is not in the table ("any other"). */
export const GENERIC_CARD_ERROR_MESSAGE = "Card declined. Please update card and try again.";

function isKnownCardErrorCode(code: unknown): code is KnownCardErrorCode {
  return typeof code === "string" && Object.hasOwn(CARD_ERROR_MESSAGES, code);
}

/** The customer-facing message for a card error code, including unknown and missing codes. */
export function cardErrorMessage(code: string | null | undefined): string {
  return isKnownCardErrorCode(code) ? CARD_ERROR_MESSAGES[code] : GENERIC_CARD_ERROR_MESSAGE;
}
