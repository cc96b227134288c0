// The account's invoices and credit notes (issue 23 item 4), newest first, each downloadable as a
// PDF and readable as a web page.
import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { formatUsd } from "../../domain/pricing/money.ts";
import { loadInvoiceDocuments, reloadAfterDetailsSaved } from "../../stores/billing.ts";
import { formatDate } from "../checkout/format-date.ts";
import { OrganisationSection } from "../checkout/OrganisationSection.tsx";
import { Busy, Problem } from "../screens/Frame.tsx";

export function InvoiceList() {
  const state = useStore(loadInvoiceDocuments.$state);
  useEffect(() => {
    void loadInvoiceDocuments.run();
  }, []);
  const reload = () => void loadInvoiceDocuments.run();
  return (
    <section aria-labelledby="invoices-title" className="stack">
      <h2 id="invoices-title">Invoices</h2>
      {state.status === "started" && <Busy label="Loading your invoices…" />}
      {state.status === "failure" && <Problem failure={state.error} retry={reload} />}
      {state.status === "success" &&
        (state.value.documents.length === 0 ? (
          <p>No invoices yet.</p>
        ) : (
          <table className="invoices">
            <caption>Your invoices and credit notes</caption>
            <thead>
              <tr>
                <th scope="col">Number</th>
                <th scope="col">Date</th>
                <th scope="col">Total</th>
                <th scope="col">Documents</th>
              </tr>
            </thead>
            <tbody>
              {state.value.documents.map((doc) => (
                <tr key={doc.number} data-testid="invoice-row">
                  <th scope="row">
                    {doc.number}
                    {doc.kind === "credit_note" && ` (credit note of ${doc.refersTo})`}
                    {doc.creditedBy && ` (replaced: ${doc.creditedBy})`}
                  </th>
                  <td>{formatDate(doc.issuedAt)}</td>
                  <td>{formatUsd(doc.total)}</td>
                  <td>
                    {/* The number in the visible text too: a name that differs from what is
                        shown fails WCAG 2.5.3 (label in name). */}
                    <a href={doc.pdfUrl} download>
                      Download {doc.number} (PDF)
                    </a>{" "}
                    <a href={doc.htmlUrl}>View {doc.number}</a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      <OrganisationSection place="account" onSaved={reloadAfterDetailsSaved} />
    </section>
  );
}
