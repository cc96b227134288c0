// The account's invoices and credit notes (issue 23 item 4), newest first, each downloadable as a
// PDF and readable as a web page, ten to a page (issue 34). The pages are cut here from the whole
// list the API returns; when the API pages (GET /api/5/invoices?page=), only `shown` changes.
import { useStore } from "@nanostores/react";
import { useEffect, useState } from "react";
import { formatUsd } from "../../domain/pricing/money.ts";
import { loadInvoiceDocuments, reloadAfterDetailsSaved } from "../../stores/billing.ts";
import { formatDate } from "../checkout/format-date.ts";
import { OrganisationSection } from "../checkout/OrganisationSection.tsx";
import { Busy, Problem } from "../screens/Frame.tsx";

const PAGE_SIZE = 10;

export function InvoiceList() {
  const state = useStore(loadInvoiceDocuments.$state);
  // Which page of the list is shown: a view's choice, not account state.
  const [page, setPage] = useState(0);
  useEffect(() => {
    void loadInvoiceDocuments.run();
  }, []);
  const reload = () => void loadInvoiceDocuments.run();
  const documents = state.status === "success" ? state.value.documents : [];
  const pages = Math.max(1, Math.ceil(documents.length / PAGE_SIZE));
  const current = Math.min(page, pages - 1);
  const shown = documents.slice(current * PAGE_SIZE, (current + 1) * PAGE_SIZE);
  return (
    <section aria-labelledby="invoices-title" className="card account-card">
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
              {shown.map((doc) => (
                <tr key={doc.number} data-testid="invoice-row">
                  <th scope="row">
                    <span className="invoice-number">{doc.number}</span>
                    {doc.kind === "credit_note" && (
                      <span className="invoice-note"> (credit note of {doc.refersTo})</span>
                    )}
                    {doc.creditedBy && (
                      <span className="invoice-note"> (replaced: {doc.creditedBy})</span>
                    )}
                  </th>
                  <td>{formatDate(doc.issuedAt)}</td>
                  <td className="invoice-total">{formatUsd(doc.total)}</td>
                  <td className="invoice-links">
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
      {pages > 1 && (
        <nav className="pager" aria-label="Invoice pages">
          <button
            type="button"
            className="btn secondary"
            disabled={current === 0}
            onClick={() => setPage(current - 1)}
          >
            Newer
          </button>
          <span>
            Page {current + 1} of {pages}
          </span>
          <button
            type="button"
            className="btn secondary"
            disabled={current === pages - 1}
            onClick={() => setPage(current + 1)}
          >
            Older
          </button>
        </nav>
      )}
      <OrganisationSection place="account" onSaved={reloadAfterDetailsSaved} />
    </section>
  );
}
