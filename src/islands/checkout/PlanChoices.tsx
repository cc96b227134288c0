// What the person chooses at checkout: monthly or annual, the essentials add-on, and seats for
// multi-user plans (Business: 3 included, each extra seat at the seat price; Schools: at least 30,
// priced by seat bands, above the top band a quote). Every choice is priced by the server.
import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import type { PlanOption } from "../../contract/products.ts";
import { hasBothModes, minimumSeats, modeOf } from "../../domain/checkout/purchase.ts";
import { formatUsd } from "../../domain/pricing/money.ts";
import { termLabel, termMonthsFromCode } from "../../domain/pricing/terms.ts";
import {
  $checkoutPlan,
  $seats,
  $seatsProblem,
  choosePlan,
  enterSeats,
} from "../../stores/checkout.ts";

export function PlanChoices({ plan: shown, plans }: { plan: PlanOption; plans: PlanOption[] }) {
  // The choices are controlled inputs: they read the plan in the same render as the press that
  // changes it (useStore), not in the screen's deferred transition (useLoadedStore), or React
  // puts a box back as it was until the transition comes, and the press looks lost.
  const plan = useStore($checkoutPlan) ?? shown;
  const seats = useStore($seats);
  const seatsProblem = useStore($seatsProblem);
  // A problem belongs to the field on screen: a new field starts from the URL's seats.
  useEffect(() => () => $seatsProblem.set(null), []);
  const min = minimumSeats(plan);
  const both = hasBothModes(plans, plan);
  const mode = modeOf(plan);
  const hasEssentials = plan.essentialsUpgrade !== null || plan.essentialsDowngrade !== null;

  return (
    <div className="stack">
      {both && (
        <fieldset>
          <legend>Billing period</legend>
          <label>
            <input
              type="radio"
              name="mode"
              checked={mode === "monthly"}
              onChange={() => choosePlan({ mode: "monthly" })}
            />
            Monthly
          </label>
          <label>
            <input
              type="radio"
              name="mode"
              checked={mode === "annual"}
              onChange={() => choosePlan({ mode: "annual" })}
            />
            Annual
          </label>
        </fieldset>
      )}
      {hasEssentials && (
        <label>
          <input
            type="checkbox"
            checked={plan.essentials}
            onChange={(event) => choosePlan({ essentials: event.currentTarget.checked })}
          />
          Add Essentials (
          {formatUsd(plan.essentialsUpgrade?.essentialsPrice ?? plan.essentialsPrice)} per{" "}
          {termLabel(termMonthsFromCode(plan.code))})
        </label>
      )}
      {min !== null && seats !== undefined && (
        <div className="stack">
          <label htmlFor="checkout-seats">Seats</label>
          <input
            id="checkout-seats"
            type="number"
            inputMode="numeric"
            autoComplete="off"
            min={min}
            step={1}
            defaultValue={seats}
            aria-describedby={
              seatsProblem ? "checkout-seats-problem checkout-seats-help" : "checkout-seats-help"
            }
            aria-invalid={seatsProblem !== null}
            onChange={(event) => enterSeats(event.currentTarget.value)}
          />
          {seatsProblem && (
            <p id="checkout-seats-problem" className="field-error" role="alert">
              {seatsProblem}
            </p>
          )}
          <p id="checkout-seats-help" className="note">
            {plan.seatPrice >= 0
              ? `${min} seats included; each extra seat ${formatUsd(plan.seatPrice)} per ${termLabel(termMonthsFromCode(plan.code))}.`
              : `At least ${min} seats; the price per seat falls as you add seats.`}
          </p>
          {/* Seats past an online order: the summary's place says so, with the quote link
              (SummaryProblem.tsx). */}
        </div>
      )}
    </div>
  );
}
