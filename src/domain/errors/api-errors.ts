// The server's error catalogue: every `error_code` the API answers with, its HTTP status and its
// message. Codes are permanent (clients switch on them); messages say what happened and why, then
// what to do. Messages the spec fixes (card errors, section 8 strings) are used verbatim; the spec
// shows no other server-side message, so the rest are ours.
import {
  CARD_ERROR_MESSAGES,
  type CardErrorCode,
  GENERIC_CARD_ERROR_MESSAGE,
  isCardErrorCode,
} from "./card-errors.ts";
import { MESSAGES } from "./messages.ts";

type Entry = { status: number; message: string | ((...args: never[]) => string) };

export const API_ERRORS = {
  // Request shape
  invalid_json: {
    status: 400,
    message: "The request body is not valid JSON. Send a JSON object with the fields of this call.",
  },
  invalid_request: {
    status: 400,
    message: (detail: string) => `The request is not valid: ${detail}. Correct it and try again.`,
  },
  body_too_large: {
    status: 413,
    message: (limitBytes: number) =>
      `The request body is larger than ${Math.round(limitBytes / 1024)} KB. Send a smaller body.`,
  },
  body_too_deep: {
    status: 400,
    message: (maxDepth: number) =>
      `The request body nests arrays or objects more than ${maxDepth} levels deep. Send a flatter body.`,
  },
  unsupported_media_type: {
    status: 415,
    message:
      "The request body must be JSON (application/json) or a form (application/x-www-form-urlencoded).",
  },
  not_found: { status: 404, message: "NOT FOUND" },
  // Invoices (issue 23)
  invalid_tax_id: {
    status: 400,
    message: (reason: string) =>
      `${reason} Enter the VAT id with its country prefix (such as DE123456789), or leave it empty.`,
  },
  method_not_allowed: {
    status: 405,
    message: (allowed: string) => `This address does not accept that method. Use ${allowed}.`,
  },
  unknown_method: {
    status: 400,
    message: (method: string) =>
      `The movieAPI method "${method}" does not exist. Use getInstanceInfo.`,
  },
  // Security
  cross_site: {
    status: 403,
    message:
      "Requests from other sites cannot change anything here. Use the app at its own address.",
  },
  rate_limited: {
    status: 429,
    message: (seconds: number) =>
      `Too many attempts in a short time. Wait ${seconds} second${seconds === 1 ? "" : "s"} and try again.`,
  },
  telemetry_too_large: {
    status: 413,
    message: (limitBytes: number) =>
      `This event is larger than ${Math.round(limitBytes / 1024)} KB once stored, so it was not recorded. Send fewer or shorter properties.`,
  },
  // Sessions and accounts
  not_authenticated: { status: 401, message: "You are not signed in. Sign in and try again." },
  invalid_credentials: {
    status: 401,
    message:
      "The e-mail address or password is not correct. Check them and try again, or reset your password.",
  },
  email_taken: {
    status: 409,
    message: "An account with this e-mail address already exists. Sign in, or reset your password.",
  },
  blocked_domain: {
    status: 403,
    message: "Accounts cannot use an e-mail address from this domain. Use another e-mail address.",
  },
  username_taken: {
    status: 409,
    message: "This username is already taken. Choose another one.",
  },
  credentials_managed: {
    status: 403,
    message:
      "Your organisation's single sign-on manages your e-mail address and username, so they cannot be changed here. Contact your administrator.",
  },
  current_password_required: {
    status: 400,
    message: "Enter your current password to change your e-mail address.",
  },
  wrong_password: {
    status: 403,
    message:
      "Your current password is not correct. Check it and try again, or reset your password.",
  },
  invalid_code: {
    status: 400,
    message: "This code is not valid or has expired. Ask for a new code and try again.",
  },
  email_not_verified: {
    status: 403,
    message: "Your e-mail address is not verified yet. Enter the code we sent you, then try again.",
  },
  unknown_attribute: {
    status: 400,
    message: (key: string) => `The attribute "${key}" cannot be set from the app.`,
  },
  // Products and orders
  unknown_product: {
    status: 404,
    message: (code: string) =>
      `There is no product with the code "${code}". Choose a product from the plans page.`,
  },
  product_not_purchasable: {
    status: 409,
    message: (code: string) =>
      `The product "${code}" cannot be bought directly. Choose another plan.`,
  },
  upgrade_without_product: { status: 400, message: MESSAGES.upgradeWithoutProduct },
  invalid_seats: {
    status: 400,
    message: (detail: string) => `That number of seats cannot be ordered: ${detail}.`,
  },
  invalid_add_on: {
    status: 400,
    message: (detail: string) => `That add-on cannot be ordered: ${detail}.`,
  },
  price_changed: {
    status: 409,
    message:
      "The price changed since the summary was shown. Review the new total and confirm again.",
  },
  already_subscribed: {
    status: 409,
    message:
      "You already have this plan with this number of seats, so there is nothing to buy. Choose another plan or seat count.",
  },
  seats_in_use: {
    status: 409,
    message: (needed: number) =>
      `Your team uses ${needed} seats. Remove members first, or choose a team plan with at least ${needed} seats.`,
  },
  downgrade_needs_no_payment: {
    status: 409,
    message:
      "This change takes effect when your current period ends, so nothing is paid now. Confirm it without PayPal.",
  },
  no_payment_method: {
    status: 409,
    message: "No card is saved on this account yet. Add a card, then confirm the payment.",
  },
  upgrades_disabled: {
    status: 403,
    message:
      "Upgrades are disabled for this account, for example because it is billed through a mobile app store. Manage the subscription where it was bought.",
  },
  managed_account: {
    status: 403,
    message:
      "This account is managed by your organisation or a purchase order. Ask your administrator to change the plan.",
  },
  education_email_required: {
    status: 403,
    message:
      "Education plans are for teachers and schools with a verified education e-mail address. Verify your school address, or choose another plan.",
  },
  trial_not_available: {
    status: 409,
    message: "A free trial is not available for this account. Choose a plan to continue.",
  },
  card_required_for_trial: {
    status: 409,
    message: "This trial needs a card on file. Add a card, then start the trial.",
  },
  no_subscription: {
    status: 409,
    message: "This account has no active subscription to change.",
  },
  no_essentials: {
    status: 409,
    message: "This plan does not include the essentials add-on, so there is nothing to cancel.",
  },
  not_on_trial: {
    status: 409,
    message: "This account is not on a trial, so there is no trial to cancel.",
  },
  invalid_return_url: {
    status: 400,
    message:
      "The return address (href) must be a page of this site, such as /cart#paypalCompleted, with no control characters, spaces or backslashes. Nothing was charged.",
  },
  paypal_unavailable: {
    status: 501,
    message: "PayPal is not configured on this server. Pay by card instead.",
  },
  paypal_approval_not_found: {
    status: 404,
    message: "This PayPal approval does not exist or was already used. Start the payment again.",
  },
  paypal_not_completed: {
    status: 409,
    message:
      "PayPal has not completed this subscription yet, so nothing is active and no order was written. Approve it at PayPal, or try again in a minute.",
  },
  paypal_subscription_mismatch: {
    status: 409,
    message:
      "This PayPal subscription is not the one this checkout asked for (another plan, quantity, amount or order), so no order was written. Start the payment again.",
  },
  paypal_subscriptions_only: {
    status: 409,
    message:
      "PayPal pays for subscriptions here; a single export is paid by card. Pay by card instead.",
  },
  paypal_provider_error: {
    status: 502,
    message:
      "PayPal could not be reached, so nothing was confirmed. If PayPal approved the payment, your plan appears once PayPal confirms it; otherwise try again.",
  },
  webhook_not_verified: {
    status: 400,
    message:
      "This webhook could not be verified with PayPal (its signature, its webhook id or its body did not match), so nothing was changed.",
  },
  webhook_not_applied: {
    status: 503,
    message: (reason: string) =>
      `This event was not applied now (${reason}) and nothing changed; deliver it again later.`,
  },
  paypal_change_not_supported: {
    status: 409,
    message:
      "This subscription is paid through PayPal: change it by choosing PayPal at the payment step (PayPal then replaces the old subscription), or cancel it first to pay by card.",
  },
  // Deleting or converting an account stops its billing at every provider first (issue 33).
  billing_not_stopped: {
    status: 503,
    message:
      "Your billing could not be stopped right now (the payment provider could not be reached), so nothing was changed: your account and plan are as they were. Try again in a few minutes.",
  },
  // Idempotency
  idempotency_key_required: {
    status: 400,
    message:
      "Payment calls need an Idempotency-Key header (1 to 255 visible characters), so a retry never pays twice.",
  },
  idempotency_key_reused: {
    status: 422,
    message:
      "This Idempotency-Key was already used for a different request. Use a new key for a new payment.",
  },
  account_busy: {
    status: 409,
    message:
      "Another change to this account is in progress, so nothing was done or charged. Wait a moment, then try again.",
  },
  idempotency_key_in_progress: {
    status: 409,
    message: "A request with this Idempotency-Key is still being processed. Try again in a moment.",
  },
  // Coupons, invites, instances
  coupon_not_found: {
    status: 404,
    message: "This coupon code does not exist. Check the spelling and try again.",
  },
  coupon_not_active: {
    status: 409,
    message: "This coupon is not valid at the moment: its campaign has not started or has ended.",
  },
  coupon_not_applicable: {
    status: 409,
    message: "This coupon does not apply to this account.",
  },
  no_seats: {
    status: 409,
    message:
      "This team has no free seat. Ask its owner to add a seat or remove a member, then try again.",
  },
  active_subscription: {
    status: 409,
    message:
      "You pay for a subscription of your own. Cancel it first (you keep it until the paid period ends), then join the team, so you never pay twice.",
  },
  invite_not_found: {
    status: 404,
    message: "This invitation does not exist or was withdrawn. Ask for a new invitation.",
  },
  not_enterprise: {
    status: 403,
    message: "This account is not part of a team licence.",
  },
  instance_not_found: {
    status: 404,
    message: "This team workspace does not exist.",
  },
  not_instance_owner: {
    status: 403,
    message: "Only the owner of the team workspace can do this.",
  },
  owner_cannot_leave: {
    status: 409,
    message: "The owner cannot leave the team workspace. Convert it to a free account instead.",
  },
  member_not_found: {
    status: 404,
    message:
      "This person is no longer a member of your team (they may have left already). Reload the page to see your team as it is now.",
  },
  // Payment provider
  card_error: {
    status: 402,
    message: (code: string | null) =>
      code !== null && Object.hasOwn(CARD_ERROR_MESSAGES, code)
        ? CARD_ERROR_MESSAGES[code as keyof typeof CARD_ERROR_MESSAGES]
        : GENERIC_CARD_ERROR_MESSAGE,
  },
  invalid_card: {
    status: 400,
    message: (detail: string) => `The card details are not valid: ${detail}.`,
  },
  payment_pending: {
    status: 409,
    message:
      "Your payment is being confirmed. Do not pay again: this order is charged at most once, and the page shows the result as soon as the bank has answered.",
  },
  authentication_required: {
    status: 402,
    message:
      "Your bank asks you to confirm this payment. Confirm it in the window your bank shows, or use another card.",
  },
  authentication_failed: {
    status: 402,
    message:
      "Your bank could not confirm this payment, so nothing was charged. Try again, or use another card.",
  },
  webhook_signature_invalid: {
    status: 400,
    message:
      "The webhook's signature does not match its body, or its timestamp is too old or in the future. Nothing was changed.",
  },
  webhook_event_invalid: {
    status: 400,
    message:
      "The webhook's event has no object to act on (its data is missing or empty). Nothing was changed.",
  },
  webhook_not_configured: {
    status: 404,
    message: "This server takes no webhooks from this provider (no signing secret is set).",
  },
  payment_provider_unavailable: {
    status: 503,
    message:
      "The payment provider could not be reached. Nothing was charged. Try again in a moment.",
  },
  // Anything else
  internal_error: {
    status: 500,
    message: "Something went wrong on our side. Nothing was charged twice. Try again in a moment.",
  },
} as const satisfies Record<string, Entry>;

export type ApiErrorCode = keyof typeof API_ERRORS;

export type MessageArgs<C extends ApiErrorCode> = (typeof API_ERRORS)[C]["message"] extends (
  ...args: infer A
) => string
  ? A
  : [];

/** The code of an error answer: the catalogue's codes and the card codes of `cardError`. */
export type AnyErrorCode = ApiErrorCode | CardErrorCode;

/** `C` narrows the error_code where it is known, so typed routes can check what they answer. */
export type ApiErrorBody<C extends string = string> = {
  message: string;
  error_code: C;
  /**
   * invalid_request only: what is wrong with each field, so a form can say it beside the field
   * (path joined with ".", e.g. "address.postalCode"; the message is a sentence a person can act on).
   */
  fields?: FieldProblem[];
};
export type FieldProblem = { path: string; message: string };
export type ApiError<C extends string = string> = { status: number; body: ApiErrorBody<C> };

/** Builds the `{ status, body: { message, error_code } }` answer for a catalogue code. */
export function apiError<C extends ApiErrorCode>(code: C, ...args: MessageArgs<C>): ApiError<C> {
  const entry: Entry = API_ERRORS[code];
  const message =
    typeof entry.message === "function"
      ? (entry.message as (...a: unknown[]) => string)(...args)
      : entry.message;
  return { status: entry.status, body: { message, error_code: code } };
}

/**
 * A card error answer: the error_code is the provider's code when it is one of CARD_ERROR_CODES
 * (expired_card, card_declined, insufficient_funds, ...) so the client can tell them apart, and
 * `card_error` for any other: the set of codes stays closed whatever the provider sends. The
 * message follows spec section 8 either way.
 */
export function cardError(providerCode: string | null): ApiError<CardErrorCode | "card_error"> {
  const { status, body } = apiError("card_error", providerCode);
  const code = isCardErrorCode(providerCode) ? providerCode : "card_error";
  return { status, body: { message: body.message, error_code: code } };
}
