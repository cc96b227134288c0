// The body of payment-completed once its invoice is there (issue 34, item 4): what was bought and
// paid in words for its kind (domain/checkout/completed.ts), the next renewal, where the receipt
// went and whom the invoice is made out to (the invoice document's own buyer), and the invoice.
// Its own chunk (CompletedScreens.tsx loads it), outside the first load of /cart.
import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { afterPurchaseNote } from "../../domain/account/after-purchase.ts";
import type { InvoiceSummary } from "../../domain/account/invoice.ts";
import { completedHeadline, purchaseKind, receiptLine } from "../../domain/checkout/completed.ts";
import { formatUsd } from "../../domain/pricing/money.ts";
import { loadInvoiceDocuments } from "../../stores/billing.ts";
import { $productInfo } from "../../stores/products.ts";
import { $user } from "../../stores/user.ts";
import { InvoiceLinks } from "../account/InvoiceLinks.tsx";
import { formatDate } from "../checkout/format-date.ts";

export function PurchaseDone({ summary }: { summary: InvoiceSummary }) {
  const user = useStore($user);
  const documents = useStore(loadInvoiceDocuments.$state);
  useEffect(() => {
    void loadInvoiceDocuments.run();
  }, []);
  // What comes next, as the account page words it (domain/account/after-purchase.ts): the next
  // renewal with its tax, or a one-time purchase's last day; nothing for a single export.
  const info = useStore($productInfo);
  const next = info && purchaseKind(summary) !== "single-export" ? afterPurchaseNote(info) : null;
  const billedTo =
    documents.status === "success"
      ? (documents.value.documents.find((d) => d.number === summary.paymentInvoiceId)?.billedTo ??
        null)
      : null;
  return (
    <>
      <p role="status" data-testid="completed-headline">
        {completedHeadline(summary)}
      </p>
      {next && <p data-testid="next-renewal">{next}</p>}
      <p data-testid="receipt">
        {receiptLine({
          invoiceNumber: summary.paymentInvoiceId,
          email: user.userEmail,
          billedTo,
        })}{" "}
        Keep this page or print it for your records.
      </p>
      <dl className="invoice">
        <dt>Order</dt>
        <dd>{summary.orderId}</dd>
        <dt>Invoice</dt>
        <dd>
          {summary.paymentInvoiceId} <InvoiceLinks number={summary.paymentInvoiceId} />
        </dd>
        <dt>Paid</dt>
        <dd data-testid="paid">{formatUsd(summary.amountPaid)}</dd>
        {summary.price !== summary.amountPaid && (
          <>
            <dt>Price</dt>
            <dd data-testid="price">{formatUsd(summary.price)}</dd>
          </>
        )}
        <dt>Paid with</dt>
        <dd>{summary.paymentProcessor === "paypal" ? "PayPal" : "Card"}</dd>
        {summary.orderDuration > 0 && (
          <>
            <dt>{summary.hasFlex ? "Valid" : "Period"}</dt>
            <dd>
              {summary.orderDuration} {summary.orderDuration === 1 ? "month" : "months"} from{" "}
              {formatDate(summary.orderStartDate)}
            </dd>
          </>
        )}
      </dl>
    </>
  );
}
