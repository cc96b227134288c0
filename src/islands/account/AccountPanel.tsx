// The signed-in person's account as a customer portal (issue 34, item 3; UX.md "The account page
// is a customer portal"): what they have (the plan card: name, status badge, next renewal, the one
// next step), their team's seats, their add-ons, their details and documents, and, apart at the
// bottom, what cannot be undone, each behind its confirmation (issue 10). Loaded on demand
// (lazy.tsx), so none of it weighs on the checkout's JavaScript budget; its styles are
// src/styles/account.css.
import { useStore } from "@nanostores/react";
import { useEffect, useRef } from "react";
import type { AccountAction } from "../../domain/account/cancellation.ts";
import { canDeleteAccount, formatDay } from "../../domain/account/cancellation.ts";
import { planCard } from "../../domain/account/plan-card.ts";
import { hrefFor } from "../../domain/checkout/screens.ts";
import {
  $accountFacts,
  $availableActions,
  $lastDone,
  $lastDoneText,
} from "../../stores/account-actions.ts";
import { $paymentMethod, loadPaymentMethod } from "../../stores/account-payment-method.ts";
import { $accountPlan } from "../../stores/account-plan.ts";
import { $inviteLink, showInviteLink } from "../../stores/account-team.ts";
import { $productInfo } from "../../stores/products.ts";
import { $user } from "../../stores/user.ts";
import { Problem } from "../screens/Frame.tsx";
import { ActionDone, ConfirmAction } from "./AccountActions.tsx";
import { EditDetails } from "./EditDetails.tsx";
import { InvoiceList } from "./InvoiceList.tsx";
import { TeamMembers } from "./TeamMembers.tsx";
import { UpdateCard } from "./UpdateCard.tsx";

/** Actions that change an add-on, shown with it; every other action cannot be undone. */
const ADD_ON_ACTIONS: ReadonlySet<AccountAction> = new Set(["cancelEssentials"]);

export function AccountPanel() {
  const user = useStore($user);
  const facts = useStore($accountFacts);
  const actions = useStore($availableActions);
  const done = useStore($lastDone);
  if (done === "deleteAccount") return <Farewell />;
  if (!user.isAuth) return null;
  const undoable = actions.filter((a) => ADD_ON_ACTIONS.has(a));
  // Deleting the account comes last: the most lasting of what cannot be undone.
  const lasting: AccountAction[] = [
    ...actions.filter((a) => !ADD_ON_ACTIONS.has(a)),
    ...(canDeleteAccount(facts) ? (["deleteAccount"] as const) : []),
  ];
  return (
    <div className="account">
      <PlanCard />
      <ActionDone />
      <TeamCard />
      <PaymentMethodCard />
      <AddOnsCard actions={undoable} />
      <div className="card account-card">
        <EditDetails />
      </div>
      <InvoiceList />
      {lasting.length > 0 && (
        <section className="account-danger" aria-labelledby="danger-title">
          <h2 id="danger-title">What cannot be undone</h2>
          <p className="note">Each of these asks you to confirm and says what happens, and when.</p>
          <ul className="plain stack">
            {lasting.map((action) => (
              <li key={action}>
                <ConfirmAction action={action} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

/** After deleting the account: signed out, told that billing stopped, with a way on. */
function Farewell() {
  const text = useStore($lastDoneText);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="card account-card" aria-labelledby="farewell-title">
      <h2 id="farewell-title" tabIndex={-1} ref={heading}>
        Your account is deleted
      </h2>
      <p className="notice success" role="status">
        {text}
      </p>
      <a className="btn secondary" href={hrefFor("plans")}>
        See the plans
      </a>
    </section>
  );
}

function PlanCard() {
  const user = useStore($user);
  const plan = useStore($accountPlan);
  const info = useStore($productInfo);
  const card = planCard({
    productCode: user.productCode,
    freeProduct: info?.FreeProduct ?? "wv_free",
    planName: plan?.name ?? "Your plan",
    orderState: user.orderState,
    orderEndDate: user.orderEndDate,
    isTrial: user.isTrial,
    remainingTrialDays: user.remainingTrialDays,
    isExpired: user.isExpiredAccount || user.isExpiredTrial,
    isMember: user.isUserEnterpriseMember && !user.isEnterpriseAdmin,
    teamName: user.enterpriseMemberInstance,
    itunesSubscription: user.itunesSubscription,
    androidSubscription: user.androidSubscription,
    isManaged: user.isManagedAccount && !user.isUserEnterpriseMember,
    oneTime: plan?.validUntil != null,
  });
  const free = user.productCode === (info?.FreeProduct ?? "wv_free");
  const store = user.itunesSubscription || user.androidSubscription;
  const end = formatDay(user.orderEndDate);
  return (
    <section className="card account-card plan-card" aria-labelledby="plan-title">
      <div className="plan-card__head">
        <h2 id="plan-title">Your plan</h2>
        <span
          className={card.tone === "info" ? "badge" : `badge ${card.tone}`}
          data-testid="account-status"
        >
          {card.badge}
        </span>
      </div>
      <p className="plan-card__name" data-testid="account-plan">
        {plan?.plan ?? "Your plan"}
      </p>
      <dl className="account-facts">
        <dt>E-mail</dt>
        <dd>{user.userEmail}</dd>
        {plan?.validUntil ? (
          <>
            <dt>Valid until</dt>
            <dd data-testid="account-valid-until">{plan.validUntil}</dd>
          </>
        ) : plan?.renewsOn && !store ? (
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
          !free &&
          !store && (
            <>
              <dt>{user.orderState === "automatic" ? "Renews on" : "Ends on"}</dt>
              <dd>{end}</dd>
            </>
          )
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
      {user.itunesSubscription && (
        <p className="note">Change or cancel this plan in the App Store, where it is billed.</p>
      )}
      {user.androidSubscription && (
        <p className="note">Change or cancel this plan in Google Play, where it is billed.</p>
      )}
      {card.action && (
        <a className="btn" href={hrefFor("plans")}>
          {card.action}
        </a>
      )}
    </section>
  );
}

/** A team owner's seats and the way to add more (the Add seats screen, spec 2.1). */
function TeamCard() {
  const user = useStore($user);
  const invite = useStore($inviteLink);
  const paid = user.currentSeats || user.maxSeats;
  if (!user.isEnterpriseAdmin || paid <= 0) return null;
  return (
    <section className="card account-card" aria-labelledby="team-title">
      <h2 id="team-title">Your team</h2>
      <p data-testid="account-seats">
        {user.usedSeats} of {paid} seats used
      </p>
      <div className="actions">
        <a className="btn secondary" href={hrefFor("additional-seats")}>
          Add seats
        </a>
        {!invite && (
          <button type="button" className="btn secondary" onClick={() => void showInviteLink()}>
            Show the invite link
          </button>
        )}
      </div>
      {invite && "path" in invite && (
        <p data-testid="invite-link">
          Invite link (anyone with it can join while a seat is free):{" "}
          <a href={invite.path}>{`${location.origin}${invite.path}`}</a>
        </p>
      )}
      {invite && "failure" in invite && <Problem failure={invite.failure} />}
      <TeamMembers team={user.enterpriseMemberInstance} />
    </section>
  );
}

/** How renewals are paid: the saved card or PayPal (an app store bills its own plans). */
function PaymentMethodCard() {
  const user = useStore($user);
  const method = useStore($paymentMethod);
  const store = user.itunesSubscription || user.androidSubscription;
  useEffect(() => {
    if (!store) void loadPaymentMethod();
  }, [store]);
  if (store || !method) return null;
  return (
    <section className="card account-card" aria-labelledby="payment-method-title">
      <h2 id="payment-method-title">Payment method</h2>
      <p data-testid="account-payment-method">
        {method.label ?? "No payment method saved. One is saved with your next purchase."}
      </p>
      {/* PayPal's subscriptions are paid from the PayPal account; a card is changed here. */}
      {method.kind === "card" && <UpdateCard />}
    </section>
  );
}

function AddOnsCard({ actions }: { actions: AccountAction[] }) {
  const info = useStore($productInfo);
  const user = useStore($user);
  const plan = useStore($accountPlan);
  if (!info?.essentialsInfo.hasEssentials) return null;
  const until = formatDay(user.orderEndDate);
  return (
    <section className="card account-card" aria-labelledby="addons-title">
      <h2 id="addons-title">Add-ons</h2>
      {plan?.essentialsUntil ? (
        // Cancelled: it stays for the period paid for (issue 33, item 8).
        <p>
          Essentials: cancelled.{" "}
          <span data-testid="account-essentials-until">{plan.essentialsUntil}</span>.
        </p>
      ) : (
        <p data-testid="account-essentials">
          Essentials: active{until ? `, with your plan until ${until}` : ""}
        </p>
      )}
      {actions.map((action) => (
        <ConfirmAction key={action} action={action} />
      ))}
    </section>
  );
}
