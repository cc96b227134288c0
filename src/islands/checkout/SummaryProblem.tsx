// The order summary's place when the server refuses to price the order: its refusal with "Try
// again", or, for seats past what is sold online, one sentence with the quote link (issue 34,
// item 5), since the refusal's text names a path and trying again cannot help; and an order the
// account already has (Back after paying for it) says so and leads to the account, with no "Try
// again" that cannot help either. Loaded only when a summary fails, outside the first load.
import { useStore } from "@nanostores/react";
import type { ApiFailure } from "../../client/client.ts";
import { minimumSeats, quoteHref } from "../../domain/checkout/purchase.ts";
import { seatsToQuote } from "../../domain/checkout/quote-needed.ts";
import { hrefFor } from "../../domain/checkout/screens.ts";
import { formatCount } from "../../domain/pricing/money.ts";
import { $checkoutPlan, $seats, $seatsProblem, refreshSummary } from "../../stores/checkout.ts";
import { Problem } from "../screens/Frame.tsx";

export function SummaryProblem({ failure }: { failure: ApiFailure }) {
  const seats = useStore($seats);
  const fieldProblem = useStore($seatsProblem);
  const plan = useStore($checkoutPlan);

  const quote = seatsToQuote({
    errorCode: failure.code,
    fieldProblem,
    seats,
    minimum: plan ? minimumSeats(plan) : null,
  });
  if (failure.code === "already_subscribed") {
    // An alert, not a status: it also answers a press of Pay that another tab's payment beat
    // (the summary priced again says the plan is bought), and that press must be told why.
    return (
      <div className="notice success" role="alert" data-testid="already-yours">
        <p>This plan is yours already: there is nothing more to pay.</p>
        <a className="btn" href={hrefFor("home")}>
          Go to your account
        </a>
      </div>
    );
  }
  if (quote === null) return <Problem failure={failure} retry={() => void refreshSummary()} />;
  return (
    <p className="notice" data-testid="seats-quote">
      {formatCount(quote)} seats are more than an online order takes: we make a quote for them
      instead. <a href={quoteHref(quote)}>Ask for a quote for {quote} seats</a>
    </p>
  );
}
