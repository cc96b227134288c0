// How the person pays: the saved card, a new card or PayPal, through the providers the server
// names (stores/payment-providers.ts). A new card is the sandbox's own form, or Stripe Elements'
// card element in Stripe's frame when Stripe is configured (then no card field is in this page);
// either way only a token reaches our payment calls. PayPal is the sandbox approval page, or
// PayPal's own buttons when a client id is configured. The pay button names the amount, is
// disabled while a payment runs and shows progress; a failure keeps what was typed and says what
// to do, with section 8's words for card errors.
import { useStore } from "@nanostores/react";
import {
  lazy,
  type SubmitEvent,
  Suspense,
  use,
  useCallback,
  useEffect,
  useRef,
  useState,
} from "react";
import type { PaymentProviders, SandboxCard } from "../../contract/payment.ts";
import type { OrderSummaryAnswer } from "../../contract/products.ts";
import { cardDigits, cardProblems, parseExpiry } from "../../domain/checkout/card-number.ts";
import { stateMissingProblem } from "../../domain/checkout/zip-states.ts";
import { formatUsd } from "../../domain/pricing/money.ts";
import {
  $billingPostalCode,
  $billingProblem,
  $billingRegion,
  $billingStateProblem,
  addressSettled,
} from "../../stores/billing-address.ts";
import { sandboxTokenizer, type Tokenizer } from "../../stores/card-token.ts";
import { $checkout } from "../../stores/checkout.ts";
import { payByCard, startPaypal } from "../../stores/checkout-payment.ts";
import { $payment, submitAddress } from "../../stores/payment.ts";
import { forgetPaymentProviders, paymentProviders } from "../../stores/payment-providers.ts";
import { $paypalReturn, reportPaypalReturn } from "../../stores/paypal-return.ts";
import { $paypalWindowOpen } from "../../stores/paypal-sandbox.ts";
import { $user } from "../../stores/user.ts";
import { type FieldErrors, focusFirstProblem } from "../forms/field-errors.tsx";
import { Problem } from "../screens/Frame.tsx";
import { preloadSdks, retryStripe, sdkLoaders, stripeFor } from "./provider-sdks.ts";
import { SandboxAuthentication } from "./SandboxAuthentication.tsx";
import { SandboxCardFields } from "./SandboxCardFields.tsx";

const StripeCardFields = lazy(() =>
  sdkLoaders.stripeFields().then((m) => ({ default: m.StripeCardFields })),
);
const PaypalButtons = lazy(() =>
  sdkLoaders.paypalButtons().then((m) => ({ default: m.PaypalButtons })),
);

type Method = "saved" | "card" | "paypal";

/** A card's mark for its tile (drawn here: no image is fetched). */
function CardMark() {
  return (
    <svg className="pm-mark" viewBox="0 0 32 22" aria-hidden="true" focusable="false">
      <rect x="0.5" y="0.5" width="31" height="21" rx="3" fill="#fff" stroke="currentColor" />
      <rect x="1" y="5" width="30" height="4" fill="currentColor" />
      <rect x="4" y="14" width="10" height="3" rx="1" fill="currentColor" opacity="0.5" />
    </svg>
  );
}

/** PayPal's mark for its tile: its two overlapping P's in its colours. */
function PaypalMark() {
  return (
    <svg className="pm-mark" viewBox="0 0 22 26" aria-hidden="true" focusable="false">
      <path d="M6 1h8a6 6 0 0 1 0 12H9l-1.6 9H3z" fill="#003087" />
      <path d="M9 5h7a5 5 0 0 1 0 10h-4l-1.5 9H6.5z" fill="#009cde" opacity="0.85" />
    </svg>
  );
}

function field(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
}

function cardFrom(form: FormData): SandboxCard {
  const expiry = parseExpiry(field(form, "expiry"));
  return {
    number: cardDigits(field(form, "cardNumber")),
    expMonth: expiry?.month ?? 0,
    expYear: expiry?.year ?? 0,
    cvc: field(form, "cvc"),
    // The billing address's code: one field, not two (issue 22, item 7).
    postalCode: $billingPostalCode.get(),
  };
}

/** The card fields' names for the paths of the sandbox token call's `fields`. */
const CARD_FIELD_OF: Record<string, string> = {
  number: "cardNumber",
  expMonth: "expiry",
  expYear: "expiry",
  cvc: "cvc",
};

/** The problems a failed payment names field by field (a mistyped number, a past date). */
function cardFieldErrors(failure: { fields?: { path: string; message: string }[] } | null) {
  const out: FieldErrors = {};
  for (const { path, message } of failure?.fields ?? []) {
    const name = CARD_FIELD_OF[path];
    if (name) out[name] = message;
  }
  return out;
}

/** The field a refusal of the charge is about, by its code (section 8). */
const FOCUS_FOR: Partial<Record<string, string>> = {
  incorrect_cvc: "card-cvc",
  expired_card: "card-expiry",
  incorrect_zip: "address-postal",
};

const POSTAL_PROBLEM =
  "Enter the ZIP or postal code of your billing address: it is also the card's.";

type Props = {
  summary: OrderSummaryAnswer | null;
  /** Called as the person confirms (single exports tell the hub). */
  onConfirm?: () => void;
};

export function PaymentForm(props: Props) {
  // Bumped to ask for the providers again after the request failed.
  const [, setAttempt] = useState(0);
  // Suspends (the screen shows "Loading the payment form…") until the server names its providers.
  const providers = use(paymentProviders());
  if (!providers.ok) {
    return (
      <Problem
        failure={providers.error}
        retry={() => {
          forgetPaymentProviders();
          setAttempt((n) => n + 1);
        }}
      />
    );
  }
  return <PaymentMethods {...props} providers={providers.value} />;
}

/** Stripe's card element, with its box's height kept while Stripe.js and the frame load. */
function StripeCard({
  publishableKey,
  onTokenizer,
}: {
  publishableKey: string;
  onTokenizer: (tokenizer: Tokenizer | null) => void;
}) {
  // Elements keeps the Stripe object it was first given: a retry mounts a new one (the key).
  const [loaded, setLoaded] = useState(() => ({ attempt: 0, stripe: stripeFor(publishableKey) }));
  return (
    <fieldset className="stack">
      <legend>Card</legend>
      <p className="note">
        Payments are processed by Stripe: your card details go straight to Stripe, never through our
        servers.
      </p>
      <span>Card number, expiry date, CVC and ZIP or postal code</span>
      <Suspense fallback={<div className="card-frame" aria-busy="true" />}>
        <StripeCardFields
          key={loaded.attempt}
          stripe={loaded.stripe}
          onTokenizer={onTokenizer}
          onRetry={() =>
            setLoaded(({ attempt }) => ({
              attempt: attempt + 1,
              stripe: retryStripe(publishableKey),
            }))
          }
        />
      </Suspense>
    </fieldset>
  );
}

function PaymentMethods({
  summary,
  onConfirm,
  providers,
}: Props & { providers: PaymentProviders }) {
  const user = useStore($user);
  const checkout = useStore($checkout);
  const paypal = useStore(startPaypal.$state);
  // Back from PayPal's approval without a payment (cancelled, or the price changed): PayPal stays
  // picked, the hub hears it once, and the form says that nothing was charged.
  const paypalReturn = useStore($paypalReturn);
  const paypalWindow = useStore($paypalWindowOpen);
  useEffect(() => {
    if (paypalReturn === "cancelled" || paypalReturn === "price_changed") reportPaypalReturn();
  }, [paypalReturn]);
  // Which method is picked is a view choice, not business state.
  const [method, setMethod] = useState<Method>(
    paypalReturn === "cancelled" || paypalReturn === "price_changed"
      ? "paypal"
      : user.userHasPaymentMethodSet
        ? "saved"
        : "card",
  );
  // Stripe mode: the card element's token maker, once Stripe.js and its frame are ready.
  const tokenizer = useRef<Tokenizer | null>(null);
  const [stripeReady, setStripeReady] = useState(false);
  const onTokenizer = useCallback((next: Tokenizer | null) => {
    tokenizer.current = next;
    setStripeReady(next !== null);
  }, []);
  useEffect(() => preloadSdks(providers), [providers]);
  // What the card fields' own checks found before sending.
  const [cardErrors, setCardErrors] = useState<FieldErrors>({});
  const formRef = useRef<HTMLFormElement>(null);
  // A refused card's field gets the focus, so the person lands on what to fix: the field it
  // names, else the one the refusal is about (CVC, expiry, ZIP), else the card number (a decline:
  // another card), else the message itself (Stripe's fields are in Stripe's frame).
  const chargeProblem = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const failed = checkout.failure;
    const errors = cardFieldErrors(failed);
    if (Object.keys(errors).length > 0) focusFirstProblem(formRef.current, errors);
    else if (failed?.status === 402)
      (
        document.getElementById(FOCUS_FOR[failed.code ?? ""] ?? "card-number") ??
        chargeProblem.current
      )?.focus();
  }, [checkout.failure]);
  // A press that waited for the address's save, whose new summary changed the total.
  const [repriced, setRepriced] = useState(false);
  const waiting = useRef(false);

  const { card } = providers;
  const paypalOffered = providers.paypal.provider !== "none";
  const paypalClientId = providers.paypal.provider === "paypal" ? providers.paypal.clientId : null;
  const downgrade = summary?.change === "downgrade";
  const busy = checkout.paying || paypal.status === "started";
  const newCard = !downgrade && method === "card";
  const cardNotReady = newCard && card.provider === "stripe" && !stripeReady;
  const paypalButtons = !downgrade && method === "paypal" && paypalClientId !== null;

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    // With PayPal's buttons, PayPal's own button starts the payment.
    if (!summary || busy || cardNotReady || paypalButtons || waiting.current) return;
    const form = event.currentTarget;
    const data = new FormData(form);
    // Pressed while leaving the address (the ZIP typed last): its save and the new summary come
    // first. The press is not lost: it pays the total on screen, or, when the save changed it,
    // shows the new total and asks again; never a total the person did not see (issue 34).
    waiting.current = true;
    await addressSettled();
    waiting.current = false;
    if (submitAddress.$state.get().status === "failure") return;
    const now = $payment.get().orderSummary;
    if (now && now.total !== summary.total) {
      setRepriced(true);
      return;
    }
    setRepriced(false);
    // A state (or region) left on "Choose…" of an address being given (its ZIP typed) is said
    // beside it, whatever pays (issue 33, item 6). With nothing typed, the address the account
    // saved is the one the server prices with.
    const region = $billingRegion.get();
    const addressGiven = $billingPostalCode.get() !== "";
    const stateMissing = !downgrade && addressGiven && region !== null && region.state === "";
    $billingStateProblem.set(stateMissing && region ? stateMissingProblem(region.country) : null);
    const sandboxCard = newCard && card.provider !== "stripe";
    if (sandboxCard) {
      // What can be checked before sending is said beside each field (issue 22, item 6).
      const found: FieldErrors = cardProblems(
        {
          number: field(data, "cardNumber"),
          expiry: field(data, "expiry"),
          cvc: field(data, "cvc"),
        },
        new Date(),
      );
      const postalMissing = $billingPostalCode.get() === "";
      $billingProblem.set(postalMissing ? POSTAL_PROBLEM : null);
      setCardErrors(found);
      if (stateMissing || postalMissing) {
        document.getElementById(stateMissing ? "address-state" : "address-postal")?.focus();
        return;
      }
      if (Object.keys(found).length > 0) {
        focusFirstProblem(form, found);
        return;
      }
    }
    if (stateMissing) {
      document.getElementById("address-state")?.focus();
      return;
    }
    onConfirm?.();
    if (method === "paypal" && !downgrade) {
      void startPaypal.run();
      return;
    }
    const tokenize = !newCard
      ? null
      : card.provider === "stripe"
        ? tokenizer.current
        : sandboxTokenizer(cardFrom(data));
    void payByCard(tokenize);
  };
  const label = !summary
    ? "Pay"
    : downgrade
      ? "Confirm the change"
      : method === "paypal"
        ? `Pay ${formatUsd(summary.total)} with PayPal`
        : `Pay ${formatUsd(summary.total)}`;
  const failure = checkout.failure ?? (paypal.status === "failure" ? paypal.error : null);
  // A refused card names its field (a mistyped number says so, not "declined").
  const failedFields = cardFieldErrors(failure);
  const errors = Object.keys(cardErrors).length > 0 ? cardErrors : failedFields;
  const failureSaid = Object.keys(failedFields).length > 0;
  // A refusal of the charge (402: the card's section-8 codes, or the bank's authentication) is
  // said beside the card fields; other failures under Pay.
  const chargeFailure =
    failure?.status === 402 && !failureSaid && method !== "paypal" ? failure : null;
  return (
    <form
      ref={formRef}
      className="stack"
      onSubmit={(event) => void onSubmit(event)}
      aria-label="Payment"
      noValidate
    >
      {!downgrade && (
        <fieldset>
          <legend>Payment method</legend>
          {user.userHasPaymentMethodSet && (
            <label>
              <input
                type="radio"
                name="method"
                checked={method === "saved"}
                onChange={() => setMethod("saved")}
              />
              <CardMark />
              The card on your account
            </label>
          )}
          <label>
            <input
              type="radio"
              name="method"
              checked={method === "card"}
              onChange={() => setMethod("card")}
            />
            <CardMark />
            {user.userHasPaymentMethodSet ? "A new card" : "Card"}
          </label>
          {paypalOffered && (
            <label>
              <input
                type="radio"
                name="method"
                checked={method === "paypal"}
                onChange={() => setMethod("paypal")}
              />
              <PaypalMark />
              PayPal
            </label>
          )}
        </fieldset>
      )}
      {newCard &&
        (card.provider === "stripe" ? (
          <StripeCard publishableKey={card.publishableKey} onTokenizer={onTokenizer} />
        ) : (
          <SandboxCardFields errors={errors} />
        ))}
      {/* The charge's own refusal (declined, wrong CVC or ZIP), beside the card fields. */}
      {chargeFailure && (
        <div className="charge-problem" ref={chargeProblem} tabIndex={-1}>
          <Problem failure={chargeFailure} />
        </div>
      )}
      {card.provider !== "stripe" && <SandboxAuthentication />}
      {(checkout.priceChanged || repriced) && (
        <p role="alert" className="problem">
          The price changed since you saw it. Check the new total above and confirm again.
        </p>
      )}
      {checkout.resuming && <p role="status">Finishing the payment you started…</p>}
      {paypalReturn === "cancelled" && (
        <p role="status" className="problem">
          You cancelled the payment at PayPal. Nothing was charged: pay with PayPal again or by
          card.
        </p>
      )}
      {paypalReturn === "price_changed" && (
        <p role="status" className="problem">
          The price changed before PayPal's approval, so nothing was charged. Check the total and
          pay again.
        </p>
      )}
      {paypalWindow && (
        <p role="status">
          PayPal is open in another window: finish there, and this page continues.
        </p>
      )}
      {paypalButtons && summary ? (
        <>
          <p className="note">
            Pay {formatUsd(summary.total)} with PayPal: PayPal processes the payment.
          </p>
          <Suspense fallback={<div className="paypal-frame" aria-busy="true" />}>
            <PaypalButtons clientId={paypalClientId} disabled={busy} onConfirm={onConfirm} />
          </Suspense>
        </>
      ) : (
        <button
          type="submit"
          className="btn block"
          disabled={!summary || busy || cardNotReady}
          aria-busy={busy}
        >
          {busy ? (
            <>
              <span className="spinner" aria-hidden="true" /> Paying…
            </>
          ) : (
            label
          )}
        </button>
      )}
      <p className="terms-line">
        By {downgrade ? "confirming" : "paying"} you agree to the{" "}
        <a href="/terms-of-use" target="_blank" rel="noopener">
          terms of use
        </a>{" "}
        and the{" "}
        <a href="/privacy" target="_blank" rel="noopener">
          privacy policy
        </a>
        .
      </p>
      {failure && !failureSaid && !chargeFailure && <Problem failure={failure} />}
    </form>
  );
}
