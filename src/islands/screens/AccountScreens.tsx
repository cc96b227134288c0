// Account screens: seats, essentials, cancellations, and the screens that explain why a purchase
// cannot happen here (upgrades disabled, expired account, education e-mail). Each says what will
// happen before the person confirms; the account flows fill in the rest.

import { useStore } from "@nanostores/react";
import { type SubmitEvent, useEffect } from "react";
import { managedReason } from "../../domain/checkout/purchase.ts";
import { hrefFor } from "../../domain/checkout/screens.ts";
import { formatUsd } from "../../domain/pricing/money.ts";
import { termLabel, termMonthsFromCode } from "../../domain/pricing/terms.ts";
import { $productInfo } from "../../stores/products.ts";
import { $query, navigate } from "../../stores/router.ts";
import { $user, loadContext } from "../../stores/user.ts";
import { ManagedNotice } from "../checkout/ManagedNotice.tsx";
import { Frame } from "./Frame.tsx";

/**
 * Additional seats (spec 2.1): a team's owner chooses the seats in total and goes on to the
 * checkout, which prices the added seats (prorated) before anything is paid. A team member is
 * told why they cannot and whom to ask; an account without a team is offered the Business plan.
 */
export function SeatsScreen({ title }: { title: string }) {
  const user = useStore($user);
  // The seats may have changed since start-up (seats bought a moment ago): read them again.
  useEffect(() => {
    void loadContext.run();
  }, []);
  const managed = managedReason(user);
  const total = user.currentSeats || user.maxSeats;
  if (managed) {
    return (
      <Frame title={title}>
        <ManagedNotice reason={managed} />
      </Frame>
    );
  }
  if (!user.isEnterpriseAdmin || total <= 0) {
    return (
      <Frame title={title}>
        <p>Seats come with the Business plan: 3 are included and you can add more.</p>
        <a className="btn" href={hrefFor("checkout", { p: "buy", product: "wv_bizoct17_12m" })}>
          See the Business plan
        </a>
      </Frame>
    );
  }
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const seats = new FormData(event.currentTarget).get("seats");
    navigate(hrefFor("checkout", { p: "buy", product: user.productCode, seats: String(seats) }));
  };
  return (
    <Frame title={title}>
      <p data-testid="seat-usage">
        Your team uses {user.usedSeats} of its {total} seats.
      </p>
      <form className="stack" onSubmit={onSubmit}>
        <label htmlFor="seats-total">Seats in total</label>
        <input
          id="seats-total"
          name="seats"
          type="number"
          inputMode="numeric"
          min={total + 1}
          step={1}
          defaultValue={total + 1}
          required
          aria-describedby="seats-total-help"
        />
        <p id="seats-total-help" className="note">
          The next step shows what the added seats cost for the rest of your billing period, before
          you pay.
        </p>
        <button type="submit" className="btn">
          Continue
        </button>
      </form>
    </Frame>
  );
}

export function EssentialsScreen({ title }: { title: string }) {
  const info = useStore($productInfo);
  const essentials = info?.essentialsInfo;
  return (
    <Frame title={title}>
      {essentials?.hasEssentials ? (
        <p>Your plan includes Essentials.</p>
      ) : essentials?.upgradePlan ? (
        <>
          <p data-testid="essentials-offer">
            Add Essentials for {formatUsd(essentials.essentialsPrice)} per{" "}
            {termLabel(termMonthsFromCode(essentials.upgradePlan))}: your plan then costs{" "}
            {formatUsd(essentials.newTotalPrice)}. The next step shows what is due today.
          </p>
          <a
            className="btn"
            href={hrefFor("checkout", {
              p: "buy",
              product: essentials.upgradePlan,
              essential: true,
            })}
          >
            Add Essentials
          </a>
        </>
      ) : (
        <p>Essentials is not available with your plan.</p>
      )}
    </Frame>
  );
}

/** Cancel Essentials and cancel trial: src/islands/account/CancelScreens.tsx, loaded on demand. */
export { CancelEssentialsScreen, CancelTrialScreen } from "../account/lazy.tsx";

function ExplainScreen({
  title,
  text,
  action,
}: {
  title: string;
  text: string;
  /** The way forward this page offers besides support. */
  action?: { href: string; label: string };
}) {
  return (
    <Frame title={title}>
      <p>{text}</p>
      <p>
        {action && (
          <>
            <a className="btn" href={action.href}>
              {action.label}
            </a>{" "}
          </>
        )}
        <a className={action ? "" : "btn"} href="/support">
          Contact support
        </a>
      </p>
    </Frame>
  );
}

/** The expired-account page (spec 2.2): what happened, and the plans a click away. */
export function ExpiredAccountScreen({ title }: { title: string }) {
  return (
    <ExplainScreen
      title={title}
      text="Your account has expired. Choose a plan to keep your projects."
      action={{ href: hrefFor("plans"), label: "See the plans" }}
    />
  );
}

/**
 * Upgrades disabled (spec 2.5 and 6): the account's upgrades are turned off, or its subscription
 * is billed by a mobile app store or a wallet, where it must be changed instead.
 */
export function UpgradesDisabledScreen({ title }: { title: string }) {
  const user = useStore($user);
  const store = user.itunesSubscription
    ? "the App Store"
    : user.androidSubscription
      ? "Google Play"
      : null;
  return (
    <Frame title={title}>
      <p data-testid="upgrades-disabled">
        {store
          ? `Your subscription is billed through ${store}, so it cannot be changed here. Change or cancel it in ${store}.`
          : "Upgrades are turned off for this account, so its plan cannot be changed here."}
      </p>
      <a className="btn" href="/support">
        Contact support
      </a>
    </Frame>
  );
}

/**
 * The invalid education e-mail page (spec 2.2 and 2.5): education plans and the education trial
 * need a school address that its owner has verified. An unverified address is verified with the
 * code we mail; any other address cannot be used for them.
 */
export function InvalidEmailScreen({ title }: { title: string }) {
  const user = useStore($user);
  const query = useStore($query);
  const what = query.p === "trial" ? "The education trial needs" : "Education plans need";
  return (
    <Frame title={title}>
      <p data-testid="invalid-email">
        {what} a school e-mail address that you have verified.{" "}
        {user.emailVerified
          ? `${user.userEmail} is not a school address we know.`
          : `${user.userEmail} is not verified yet.`}
      </p>
      <p className="actions">
        {!user.emailVerified && (
          <a
            className="btn"
            href={hrefFor(
              "email-activation",
              // Once verified, back to the education purchase or trial this page stands for.
              {
                redirect:
                  query.p &&
                  hrefFor(
                    "checkout",
                    { p: query.p, product: query.product, plan: query.plan, tier: query.tier },
                    { via: "hash" },
                  ),
              },
              { via: "hash" },
            )}
          >
            Verify my e-mail address
          </a>
        )}
        <a className="btn secondary" href={hrefFor("plans")}>
          See the other plans
        </a>
        <a href="/support">Contact support</a>
      </p>
    </Frame>
  );
}

// Rare states of the whole app (CheckoutApp.tsx), loaded only when shown.
export function UnsupportedBrowserScreen() {
  return (
    <Frame title="Your browser is not supported">
      <p>
        The screen recorder needs a recent Chrome, Firefox, Opera or Edge. Update your browser, or
        open this page in one of them.
      </p>
    </Frame>
  );
}

export function BlockedScreen() {
  return (
    <Frame title="This e-mail domain cannot be used">
      <p>Accounts cannot use an e-mail address from this domain. Use another e-mail address.</p>
    </Frame>
  );
}
