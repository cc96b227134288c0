// The e-mails of renewals and of the retry schedule (docs/decisions/0015). They are queued in the
// outbox inside the transaction that records what they tell, like every other e-mail.
import { cardErrorMessage } from "../../domain/errors/card-errors.ts";
import { formatUsd } from "../../domain/pricing/index.ts";
import { renewalWords } from "../../domain/renewals/renewal-words.ts";
import type { RenewalFacts } from "../db/waiting-invoices.ts";
import type { Mail } from "../mail/mailer.ts";

const day = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });
const date = (ms: number) => day.format(new Date(ms));

type Who = { email: string; firstName: string };

function mail(to: Who, subject: string, lines: string[]): Mail {
  return { to: to.email, subject, text: [`Hello ${to.firstName},`, "", ...lines].join("\n") };
}

/** The reason a charge failed, in the words the checkout uses for it (spec section 8). */
export function refusalReason(code: string): string {
  if (code === "no_payment_method") return "There is no card saved on your account.";
  // An off-session renewal whose bank wants the customer (3-D Secure, issue 20).
  if (code === "authentication_required")
    return "Your bank asks you to confirm this payment yourself: sign in and pay from your account, or save another card.";
  return cardErrorMessage(code);
}

export function renewedMail(
  to: Who,
  r: RenewalFacts & {
    /**
     * The invoice of the renewal (issue 23): this e-mail is its receipt, so it lists the
     * invoice's lines, tax and total too (services/invoices.ts receiptBreakdown).
     */
    invoice?: { number: string; url: string; breakdown: readonly string[] } | undefined;
  },
): Mail {
  const paidWith = r.processor === "paypal" ? "through PayPal" : "to your saved card";
  return mail(
    to,
    r.recovered ? "Payment received: your subscription continues" : "Your subscription renewed",
    [
      ...(r.recovered
        ? ["Thank you: your payment went through and your subscription continues.", ""]
        : []),
      `${r.planName}: ${formatUsd(r.total)} charged ${paidWith} for ${date(r.periodStart)} to ${date(r.periodEnd)}.`,
      ...(r.nextRenewal
        ? [`Next renewal: ${date(r.nextRenewal.at)}, ${renewalWords(r.nextRenewal)}.`]
        : []),
      ...(r.invoice
        ? ["", ...r.invoice.breakdown, "", `Invoice ${r.invoice.number} (PDF): ${r.invoice.url}`]
        : ["The invoice is in your account."]),
    ],
  );
}

export function renewalFailedMail(
  to: Who,
  r: { planName: string; total: number; reason: string; nextAttemptAt: number; accountUrl: string },
): Mail {
  return mail(to, "Your payment did not go through", [
    `We could not charge ${formatUsd(r.total)} for your ${r.planName} subscription. ${r.reason}`,
    "",
    `We will try again on ${date(r.nextAttemptAt)}. To keep your subscription, add a card that works before then:`,
    r.accountUrl,
  ]);
}

/**
 * An off-session renewal whose bank wants the customer (3-D Secure, issue 20): a link to the page
 * where they confirm that very payment (handlers/renewal-payment.ts).
 */
export function renewalAuthenticationMail(
  to: Who,
  r: { planName: string; total: number; nextAttemptAt: number; payUrl: string; accountUrl: string },
): Mail {
  return mail(to, "Confirm your payment to keep your subscription", [
    `We could not charge ${formatUsd(r.total)} for your ${r.planName} subscription: your bank asks you to confirm this payment yourself.`,
    "",
    "Confirm it here (it takes a minute, with your bank's usual check):",
    r.payUrl,
    "",
    `Until then your subscription keeps working. If the payment is not confirmed, we will try again on ${date(r.nextAttemptAt)}. You can also add another card from your account:`,
    r.accountUrl,
  ]);
}

export function subscriptionEndedMail(
  to: Who,
  r: {
    planName: string;
    endedAt: number;
    reason: "cancelled" | "one_time" | "lapsed";
    accountUrl: string;
  },
): Mail {
  if (r.reason === "one_time") {
    // Flex was paid once and never was a subscription (issue 33, item 7).
    return mail(to, `Your ${r.planName} pass has run out`, [
      `Your ${r.planName} pass, paid once, was valid until ${date(r.endedAt)}. It does not renew, so nothing was charged.`,
      `Your account is on the free plan now; your projects stay. To buy ${r.planName} again or choose a plan:`,
      r.accountUrl,
    ]);
  }
  const why =
    r.reason === "lapsed"
      ? `Your ${r.planName} subscription has ended: we tried three times and could not charge your payment method.`
      : r.reason === "cancelled"
        ? `Your ${r.planName} subscription ended on ${date(r.endedAt)}, as you cancelled it.`
        : `Your ${r.planName} plan ended on ${date(r.endedAt)}.`;
  return mail(to, "Your subscription has ended", [
    why,
    "Your account is on the free plan now; your projects stay. To subscribe again:",
    r.accountUrl,
  ]);
}

/** A one-time product (Flex) runs out soon: nothing renews, so say how to buy again (item 7). */
export function oneTimeEndingMail(
  to: Who,
  r: { planName: string; endsAt: number; buyUrl: string },
): Mail {
  return mail(to, `Your ${r.planName} pass runs out on ${date(r.endsAt)}`, [
    `Your ${r.planName} pass, paid once, is valid until ${date(r.endsAt)}. It does not renew and nothing will be charged.`,
    "",
    // Flex cannot be bought again while it runs (the same product is "already_subscribed").
    `To keep publishing after that day, choose a plan now, or buy ${r.planName} again once it has run out:`,
    r.buyUrl,
  ]);
}

/** Essentials cancelled (issue 33, item 8): it stays to the end of the period paid for. */
export function essentialsCancelledMail(
  to: Who,
  r: { planName: string; endsAt: number | null; renewal: string | null },
): Mail {
  return mail(to, "Essentials is cancelled", [
    r.endsAt === null
      ? "You cancelled Essentials. You keep it to the end of the period you paid for."
      : `You cancelled Essentials. You keep it until ${date(r.endsAt)}, the end of the period you paid for.`,
    r.renewal === null
      ? `Your ${r.planName} plan continues without it.`
      : `Your ${r.planName} plan then renews without it, at ${r.renewal}.`,
  ]);
}
