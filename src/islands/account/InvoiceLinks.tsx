// The links to one invoice's documents (issue 23 item 4), for payment-completed: the PDF to keep
// and the page to read. Nothing for an order whose reference is not an invoice number (an order
// recorded before invoices were numbered).
import { parseDocumentNumber } from "../../domain/invoices/numbering.ts";

export function InvoiceLinks({ number }: { number: string }) {
  if (parseDocumentNumber(number) === null) return null;
  const base = `/api/5/invoices/${encodeURIComponent(number)}`;
  return (
    <>
      (
      <a href={`${base}.pdf`} download>
        Download the invoice (PDF)
      </a>
      {" · "}
      <a href={`${base}.html`}>View it</a>)
    </>
  );
}
