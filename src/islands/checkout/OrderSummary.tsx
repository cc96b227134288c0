// The order summary of /api/4/payment/summary (spec 3.5), line by line, before anything is paid:
// plan, seats, add-ons, proration credit, tax and the total due today. A downgrade says plainly
// that nothing is charged now and from when the new plan applies; seats or essentials added to the
// running period say that they renew with it, on its date. The total is announced politely
// when it changes; the block keeps its place while a new summary loads.
import { useState } from "react";
import type { OrderSummaryAnswer } from "../../contract/products.ts";
import { formatUsd } from "../../domain/pricing/money.ts";
import { termLabel, termMonthsFromCode } from "../../domain/pricing/terms.ts";
import { formatDate } from "./format-date.ts";

export function OrderSummary({
  summary,
  planName,
  recurring,
}: {
  summary: OrderSummaryAnswer;
  planName: string;
  recurring: boolean;
}) {
  const downgrade = summary.change === "downgrade" && summary.startsAt !== null;
  const term = termLabel(termMonthsFromCode(summary.productCode));
  const renewal = summary.newSubscription;
  const total = formatUsd(downgrade ? 0 : summary.total);
  // Phones show the total and this button first; the lines open on request. Wide screens hide
  // the button and always show the lines (cart.css), so this state only matters on phones.
  const [open, setOpen] = useState(false);
  return (
    <div className="summary-panel" data-collapsed={open ? undefined : ""}>
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
                <th scope="row">Sales tax</th>
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
            {formatDate(summary.addition.periodEnd)}, at{" "}
            {formatUsd(renewal.recurringBasePrice + renewal.extraSeatsRecurringPrice)} every {term}.
          </p>
        )}
        {summary.addition === null && !downgrade && recurring && renewal.firstTermDiscount > 0 && (
          <p className="note">
            First {term} discount: {formatUsd(renewal.firstTermDiscount)}. Then{" "}
            {formatUsd(renewal.recurringBasePrice)} every {term}
            {renewal.extraSeatsRecurringPrice > 0
              ? `, plus ${formatUsd(renewal.extraSeatsRecurringPrice)} for extra seats`
              : ""}
            .
          </p>
        )}
        {summary.addition === null &&
          !downgrade &&
          recurring &&
          renewal.firstTermDiscount === 0 && (
            <p className="note">Renews every {term} until you cancel.</p>
          )}
      </div>
    </div>
  );
}

/** The summary's place when it fails (SummaryProblem.tsx), loaded with this chunk. */
export { SummaryProblem } from "./SummaryProblem.tsx";
