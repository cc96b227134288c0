// The order summary of /api/4/payment/summary (spec 3.5), line by line, before anything is paid:
// plan, seats, add-ons, proration credit, tax and the total due today. A downgrade says plainly
// that nothing is charged now and from when the new plan applies; a new subscription says what it
// renews at and from when ("then $95.88 every year from December 7, 2027"); seats or essentials added to the
// running period say that they renew with it, on its date. The total is announced politely
// when it changes; the block keeps its place while a new summary loads.
import { useState } from "react";
import type { OrderSummaryAnswer, PlanOption } from "../../contract/products.ts";
import { formatUsd } from "../../domain/pricing/money.ts";
import { termLabel, termMonthsFromCode } from "../../domain/pricing/terms.ts";
import { renewalWords } from "../../domain/renewals/renewal-words.ts";
import { formatDate } from "./format-date.ts";

export function OrderSummary({
  summary,
  plan,
}: {
  summary: OrderSummaryAnswer;
  /** The plan bought (null while the plans are not loaded): its name, description, recurrence. */
  plan: PlanOption | null;
}) {
  const planName = plan?.name ?? summary.productCode;
  const description = plan?.subTitle;
  const recurring = plan?.recurring ?? false;
  const downgrade = summary.change === "downgrade" && summary.startsAt !== null;
  const term = termLabel(termMonthsFromCode(summary.productCode));
  const renewal = summary.newSubscription;
  const total = formatUsd(downgrade ? 0 : summary.total);
  // What a new subscription renews at, and from when: the one renewal amount the server priced
  // (domain/renewals/next-renewal.ts), tax included, the same figure the completed page, the
  // account page and the renewal charge name (issue 33 item 9, issue 34 item 2).
  const then = summary.addition === null && !downgrade && recurring ? summary.renewal : null;
  // Phones show the total and this button first; the lines open on request. Wide screens hide
  // the button and always show the lines (cart.css), so this state only matters on phones.
  const [open, setOpen] = useState(false);
  return (
    <div className="summary-panel" data-collapsed={open ? undefined : ""}>
      {/* What is bought: its mark, its name as the heading, one line of description. */}
      <div className="order-head">
        <span className="plan-mark" aria-hidden="true" />
        <div>
          <h2>{planName}</h2>
          {description && <p className="order-desc">{description}</p>}
        </div>
      </div>
      <button
        type="button"
        className="summary-toggle"
        aria-expanded={open}
        aria-controls="order-summary-lines"
        onClick={() => setOpen(!open)}
      >
        <span>{open ? "Hide order summary" : "Show order summary"}</span>
        <span>
          Total due today{" "}
          <strong data-testid="compact-total" aria-live={open ? undefined : "polite"}>
            {total}
          </strong>
        </span>
      </button>
      <div className="order-summary" id="order-summary-lines">
        <table>
          <caption>Order summary</caption>
          <tbody>
            {summary.lines.map((line) => (
              <tr key={`${line.kind}-${line.label}`}>
                <th scope="row">{line.label}</th>
                <td>{formatUsd(line.amount)}</td>
              </tr>
            ))}
            {summary.salesTax > 0 && (
              <tr>
                <th scope="row">{summary.taxLabel}</th>
                <td>{formatUsd(summary.salesTax)}</td>
              </tr>
            )}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total due today</th>
              <td data-testid="total" aria-live="polite">
                {total}
              </td>
            </tr>
          </tfoot>
        </table>
        {downgrade && summary.startsAt !== null && (
          <p className="note" data-testid="scheduled-change">
            Nothing is charged today. Your plan changes to {planName} on{" "}
            {formatDate(summary.startsAt)}, at the end of your paid period; from then you pay{" "}
            {formatUsd(summary.total)} every {term}.
          </p>
        )}
        {summary.coupon?.note && (
          <p className="note" data-testid="coupon-note">
            {summary.coupon.note}
          </p>
        )}
        {summary.addition !== null && (
          <p className="note" data-testid="addition-renewal">
            Charged today for the rest of your billing period. Your subscription renews as before on{" "}
            {formatDate(summary.addition.periodEnd)}
            {/* The one renewal amount, with its tax (domain/renewals/next-renewal.ts). */}
            {summary.renewal ? `, at ${renewalWords(summary.renewal)}` : ""}.
          </p>
        )}
        {summary.addition === null && !downgrade && recurring && renewal.firstTermDiscount > 0 && (
          <p className="note">
            First {term} discount: {formatUsd(renewal.firstTermDiscount)}.
          </p>
        )}
      </div>
      {then && (
        <p className="then-line" data-testid="renewal-line">
          then {renewalWords(then, formatDate(then.at))}
        </p>
      )}
    </div>
  );
}

/** The summary's place when it fails (SummaryProblem.tsx), loaded with this chunk. */
export { SummaryProblem } from "./SummaryProblem.tsx";
