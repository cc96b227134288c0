// After a purchase or a new account: payment-completed and paypalCompleted show the invoice
// summary of spec 3.6; the account-completed screens say what the person has now and where to go.

import { useStore } from "@nanostores/react";
import { lazy, Suspense, useEffect } from "react";
import { hrefFor } from "../../domain/checkout/screens.ts";
import { loadInvoice } from "../../stores/invoice.ts";
import { $payment } from "../../stores/payment.ts";
import { $paypalReturn, reportPaypalReturn } from "../../stores/paypal-return.ts";
import { $productInfo } from "../../stores/products.ts";
import { $user } from "../../stores/user.ts";
import { formatDate } from "../checkout/format-date.ts";
import { DashboardLink } from "../chrome/HubLinks.tsx";
import { Busy, Frame, Problem } from "./Frame.tsx";

const CANCELLED_TITLE = "PayPal payment cancelled";

// What was bought, paid and mailed, in words for each kind of purchase: its own chunk, loaded
// once the invoice is there, so the first load of /cart stays within its budget.
const PurchaseDone = lazy(() =>
  import("./PurchaseDone.tsx").then((m) => ({ default: m.PurchaseDone })),
);

export function PaymentCompletedScreen({
  title,
  processor,
}: {
  title: string;
  processor: "cc" | "paypal";
}) {
  const state = useStore(loadInvoice.$state);
  const { invoice } = useStore($payment);
  const paypal = useStore($paypalReturn);
  const cancelled = processor === "paypal" && paypal === "cancelled";
  useEffect(() => {
    // A cancelled PayPal payment is not "complete", in the tab's title either (issue 22, item 8).
    if (cancelled) document.title = `${CANCELLED_TITLE} · Checkout`;
  }, [cancelled]);
  useEffect(() => {
    if (processor === "paypal") reportPaypalReturn();
    if (!cancelled) void loadInvoice.run(processor);
  }, [processor, cancelled]);
  if (cancelled) {
    return (
      <Frame title={CANCELLED_TITLE}>
        <p>You cancelled the payment at PayPal. Nothing was charged.</p>
        <a className="btn" href={hrefFor("plans")}>
          Back to the plans
        </a>
      </Frame>
    );
  }
  const summary = state.status === "success" ? invoice : null;
  return (
    <Frame title={title}>
      {state.status === "started" && <Busy label="Loading your invoice…" />}
      {state.status === "failure" && (
        <Problem failure={state.error} retry={() => loadInvoice.run(processor)} />
      )}
      {summary && (
        <Suspense fallback={<Busy label="Loading your invoice…" />}>
          <PurchaseDone summary={summary} />
        </Suspense>
      )}
      <DashboardLink className="btn">Go to the editor</DashboardLink>
    </Frame>
  );
}

export function AccountReadyScreen({ title, text }: { title: string; text: string }) {
  return (
    <Frame title={title}>
      <p>{text}</p>
      <DashboardLink className="btn">Start editing</DashboardLink>
    </Frame>
  );
}

/**
 * After a trial starts (edutrial-account-completed for the education trial, biztrial- for the
 * others: docs/decisions/0021-trial-landing.md): which trial the account has and until when, read
 * from the account itself, so a reload shows the same; and, while the account awaits activation,
 * the way to activate it.
 */
export function TrialReadyScreen({ title }: { title: string }) {
  const user = useStore($user);
  const info = useStore($productInfo);
  return (
    <Frame title={title}>
      {user.isTrial && info && user.orderEndDate !== null ? (
        <p data-testid="trial-status">
          Your {info.subscriptionName} runs until {formatDate(user.orderEndDate)}
          {user.remainingTrialDays !== null ? ` (${user.remainingTrialDays} days)` : ""}. When it
          ends on {formatDate(user.orderEndDate)}, your account moves to the free plan unless you
          choose a plan; nothing is charged.
        </p>
      ) : (
        <p>Your account has no trial running. Choose a plan to keep going.</p>
      )}
      {user.activationRequired && (
        <p>
          We sent a code to {user.userEmail}.{" "}
          <a href={hrefFor("email-activation", undefined, { via: "hash" })}>
            Activate your account
          </a>{" "}
          to keep your work.
        </p>
      )}
      <DashboardLink className="btn">Start editing</DashboardLink>
    </Frame>
  );
}
