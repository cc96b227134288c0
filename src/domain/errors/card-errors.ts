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

/** The message for a card error code that is not in the table ("any other"). */
export const GENERIC_CARD_ERROR_MESSAGE = "Card declined. Please update card and try again.";

export function isKnownCardErrorCode(code: unknown): code is KnownCardErrorCode {
  return typeof code === "string" && Object.hasOwn(CARD_ERROR_MESSAGES, code);
}

/** The customer-facing message for a card error code, including unknown and missing codes. */
export function cardErrorMessage(code: string | null | undefined): string {
  return isKnownCardErrorCode(code) ? CARD_ERROR_MESSAGES[code] : GENERIC_CARD_ERROR_MESSAGE;
}
