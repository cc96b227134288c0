// The signed-in person's account on the home page: plan, status and the end of the paid period,
// each cancellation and team action the account allows (issue 10), behind its confirmation, and
// the form that edits the person's details.
import { useStore } from "@nanostores/react";
import { formatDay } from "../../domain/account/cancellation.ts";
import { statusWords } from "../../domain/account/plan-words.ts";
import { $availableActions } from "../../stores/account-actions.ts";
import { $accountPlan } from "../../stores/account-plan.ts";
import { $user } from "../../stores/user.ts";
import { ActionDone, ConfirmAction } from "./AccountActions.tsx";
import { EditDetails } from "./EditDetails.tsx";
import { InvoiceList } from "./InvoiceList.tsx";

export function AccountPanel() {
  const user = useStore($user);
  const actions = useStore($availableActions);
  const plan = useStore($accountPlan);
  const end = formatDay(user.orderEndDate);
  return (
    <section aria-labelledby="account-title">
      <h2 id="account-title">Your account</h2>
      <dl className="account-facts">
        <dt>E-mail</dt>
        <dd>{user.userEmail}</dd>
        <dt>Plan</dt>
        <dd data-testid="account-plan">{plan?.plan ?? "Your plan"}</dd>
        <dt>Status</dt>
        <dd data-testid="account-status">{plan?.status ?? statusWords(user.orderState)}</dd>
        {plan?.validUntil ? (
          <>
            <dt>Valid until</dt>
            <dd data-testid="account-valid-until">{plan.validUntil}</dd>
          </>
        ) : plan?.renewsOn ? (
          <>
            <dt>Renews on</dt>
            <dd data-testid="account-renews-on">{plan.renewsOn}</dd>
            {plan.renewalAmount && (
              <>
                <dt>Renewal amount</dt>
                <dd data-testid="account-renewal-amount">{plan.renewalAmount}</dd>
              </>
            )}
          </>
        ) : (
          end &&
          user.productCode !== "wv_free" && (
            <>
              <dt>{user.orderState === "automatic" ? "Renews on" : "Ends on"}</dt>
              <dd>{end}</dd>
            </>
          )
        )}
        {plan?.essentialsUntil && (
          <>
            <dt>Essentials</dt>
            <dd data-testid="account-essentials-until">{plan.essentialsUntil}</dd>
          </>
        )}
        {user.enterpriseMemberInstance && (
          <>
            <dt>Team</dt>
            <dd data-testid="account-team">
              {user.enterpriseMemberInstance} ({user.isEnterpriseAdmin ? "owner" : "member"})
            </dd>
          </>
        )}
      </dl>
      <ActionDone />
      {actions.length > 0 && (
        <ul className="plain stack">
          {actions.map((action) => (
            <li key={action}>
              <ConfirmAction action={action} />
            </li>
          ))}
        </ul>
      )}
      <EditDetails />
      <InvoiceList />
    </section>
  );
}
