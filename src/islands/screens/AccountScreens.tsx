// Account screens: seats, essentials, cancellations, and the screens that explain why a purchase
// cannot happen here (upgrades disabled, expired account, education e-mail). Each says what will
// happen before the person confirms; the account flows fill in the rest.

import { useStore } from "@nanostores/react";
import { hrefFor } from "../../domain/checkout/routes.ts";
import { formatUsd } from "../../domain/pricing/money.ts";
import { $productInfo } from "../../stores/products.ts";
import { $user } from "../../stores/user.ts";
import { Frame } from "./Frame.tsx";

export function SeatsScreen({ title }: { title: string }) {
  const user = useStore($user);
  return (
    <Frame title={title}>
      <p>
        Your team uses {user.usedSeats} of {user.maxSeats || user.currentSeats} seats.
      </p>
      <a className="btn" href={hrefFor("checkout", { p: "buy", product: user.productCode })}>
        Choose the number of seats
      </a>
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
          <p>Add Essentials for {formatUsd(essentials.essentialsPrice)} per term.</p>
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

export function ExplainScreen({
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

/** The pages that explain why the person cannot go on here, and what they can do instead. */
export function ExplainPage({
  title,
  page,
}: {
  title: string;
  page: "upgrades-disabled" | "invalid-email" | "expired-account";
}) {
  switch (page) {
    case "upgrades-disabled":
      return (
        <ExplainScreen
          title={title}
          text="Upgrades are disabled for this account, for example because it is billed through a mobile app store. Manage the subscription where it was bought."
        />
      );
    // Spec 2.5: an invalid or unverified education e-mail that may not go through lands here.
    case "invalid-email":
      return (
        <ExplainScreen
          title={title}
          text="Education plans need a verified school e-mail address. Verify your school address, sign in with it, or contact support."
          action={{
            href: hrefFor("email-activation", undefined, { via: "hash" }),
            label: "Verify my e-mail address",
          }}
        />
      );
    case "expired-account":
      return (
        <ExplainScreen
          title={title}
          text="Your account has expired. Choose a plan to keep your projects."
          action={{ href: hrefFor("plans"), label: "See the plans" }}
        />
      );
  }
}
