// The other user-facing messages of spec section 8, verbatim, plus the validation messages of
// spec section 5 that the reset-password page shows. Dynamic messages are functions.

export const MESSAGES = {
  failedToGetProducts: "Failed to get Products",
  failToGetProducts: "Fail to get Products",
  failToGetDeleteMembers: "Fail to get Delete Members!",
  paypalInvoiceNotGenerated: "PAYPAL INVOICE WAS NOT GENERATED",
  invoiceNotGenerated: "INVOICE WAS NOT GENERATED",
  upgradeWithoutProduct: "Upgrade call without any product",
} as const;

/** Password reset page answers (spec section 8). */
export const RESET_PASSWORD_MESSAGES = {
  linkExpired: "This link has expired.",
  problem:
    "There was a problem sending your new password. Please try again. If the problem persists, please contact the provider's support.",
  successRedirect: (seconds: number) =>
    `Success! You will be redirected to login page in ${seconds} seconds`,
  successCampaign: "Success! Your password has been changed",
} as const;

/** Reset password field validation (spec section 5). */
export const PASSWORD_FIELD_MESSAGES = {
  empty: "You can't leave this empty.",
  tooShort: "Short passwords are easy to guess. Try one with at least 6 characters.",
  // The spec gives the 50-character maximum but no message for it: this one is ours.
  tooLong: "Passwords can have at most 50 characters. Try a shorter one.",
  notMatching: "Passwords do not match",
  ok: "OK",
} as const;

/** Call error normalisation (spec section 8). */
export const CALL_ERROR_MESSAGES = {
  timeout: "Api timeout response.",
  timeoutCode: "ECONNABORTED",
  noResponse: "NOT FOUND",
  unknownMethodWarning: "Api no response !!!",
  // The spec has no wording for these three (the client's own refusals); they follow the style
  // of its timeout message. Stores map them to what a person sees (src/client/error-messages.ts).
  aborted: "Api request aborted.",
  abortedCode: "ERR_CANCELED",
  invalidResponse: "Api invalid response.",
  invalidRequest: "Api invalid request.",
} as const;

/** The fixed name of production error reports (spec section 7). */
export const ERROR_REPORT_NAME = "checkout-prod";
