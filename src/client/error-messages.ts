// What a person is shown for each error code of the API (STYLE.md point 9). The switch is
// exhaustive over the contract's closed set: a new code on the server is a compile error here
// until it has a message. Wording: the spec's where it has one (section 8: card errors,
// 'Upgrade call without any product', 'NOT FOUND'), else the server's catalogue
// (src/domain/errors/api-errors.ts), never a schema library's default text. Browser-safe.

import { MAX_BODY_BYTES, MAX_JSON_DEPTH } from "../contract/constants.ts";
import { type ErrorCode, isErrorCode } from "../contract/errors.ts";
import {
  API_ERRORS,
  CALL_ERROR_MESSAGES,
  CARD_ERROR_MESSAGES,
  GENERIC_CARD_ERROR_MESSAGE,
  MESSAGES,
} from "../domain/errors/index.ts";
import type { ApiFailure } from "./call-types.ts";

/** Reached only if a value escapes its type; the `never` parameter makes a missed case a compile error. */
export function unreachable(value: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`);
}

/**
 * The message for an error code. `serverMessage` is the message the answer carried: it is used
 * only for the codes whose catalogue message names specifics the client cannot know (the seats
 * a plan needs, the seconds to wait), and those messages are the server's catalogue or pricing
 * module's, not a library's.
 */
export function errorMessage(code: ErrorCode, serverMessage: string): string {
  switch (code) {
    // Spec section 8, verbatim.
    case "expired_card":
    case "incorrect_cvc":
    case "card_declined":
    case "processing_error":
    case "incorrect_zip":
      return CARD_ERROR_MESSAGES[code];
    // "Any other" card error; details of a refused card (which may be the provider's own text)
    // are not shown either.
    case "insufficient_funds":
    case "card_error":
    case "invalid_card":
      return GENERIC_CARD_ERROR_MESSAGE;
    case "upgrade_without_product":
      return MESSAGES.upgradeWithoutProduct;
    case "not_found":
      return CALL_ERROR_MESSAGES.noResponse;
    // The catalogue's fixed messages.
    case "invalid_json":
    case "unsupported_media_type":
    case "cross_site":
    case "not_authenticated":
    case "invalid_credentials":
    case "email_taken":
    case "blocked_domain":
    case "username_taken":
    case "credentials_managed":
    case "current_password_required":
    case "wrong_password":
    case "invalid_code":
    case "email_not_verified":
    case "price_changed":
    case "already_subscribed":
    case "downgrade_needs_no_payment":
    case "no_payment_method":
    case "upgrades_disabled":
    case "managed_account":
    case "trial_not_available":
    case "education_email_required":
    case "card_required_for_trial":
    case "no_subscription":
    case "no_essentials":
    case "not_on_trial":
    case "invalid_return_url":
    case "paypal_unavailable":
    case "paypal_approval_not_found":
    case "paypal_not_completed":
    case "paypal_subscription_mismatch":
    case "paypal_subscriptions_only":
    case "paypal_provider_error":
    case "paypal_change_not_supported":
    case "billing_not_stopped":
    case "webhook_not_verified":
    case "idempotency_key_required":
    case "idempotency_key_reused":
    case "account_busy":
    case "idempotency_key_in_progress":
    case "coupon_not_found":
    case "coupon_not_active":
    case "coupon_not_applicable":
    case "no_seats":
    case "active_subscription":
    case "invite_not_found":
    case "not_enterprise":
    case "instance_not_found":
    case "not_instance_owner":
    case "owner_cannot_leave":
    case "member_not_found":
    case "payment_provider_unavailable":
    case "payment_pending":
    case "authentication_required":
    case "authentication_failed":
    case "webhook_signature_invalid":
    case "webhook_event_invalid":
    case "webhook_not_configured":
    case "internal_error":
      return API_ERRORS[code].message;
    // Catalogue messages built from limits the contract knows.
    case "body_too_large":
      return API_ERRORS.body_too_large.message(MAX_BODY_BYTES);
    case "body_too_deep":
      return API_ERRORS.body_too_deep.message(MAX_JSON_DEPTH);
    // The detail of a refused request is the schema's own text: not shown. The forms check
    // their fields first with the spec's messages (section 5), so this is rare.
    case "invalid_request":
      return API_ERRORS.invalid_request.message("some fields are missing or have the wrong form");
    // Catalogue messages with specifics only the server knows: the message it sent.
    case "method_not_allowed":
    case "unknown_method":
    case "rate_limited":
    case "telemetry_too_large":
    case "unknown_attribute":
    case "unknown_product":
    case "product_not_purchasable":
    case "invalid_seats":
    case "invalid_add_on":
    case "seats_in_use":
    case "webhook_not_applied":
    case "invalid_tax_id":
      return serverMessage;
    default:
      return unreachable(code);
  }
}

/**
 * The message for a failed call: the code's message when the answer carried a code of the
 * contract, else the normalised message of spec section 8 ('Api timeout response.',
 * 'NOT FOUND', the body's message, or the HTTP status text).
 */
export function failureMessage(failure: ApiFailure): string {
  const code = failure.code ?? (isErrorCode(failure.errorCode) ? failure.errorCode : undefined);
  return code === undefined ? failure.message : errorMessage(code, failure.message);
}
