// Account screens: seats, essentials, cancellations, and the screens that explain why a purchase
// cannot happen here (upgrades disabled, expired account, education e-mail). Each says what will
// happen before the person confirms; the account flows fill in the rest.

import { useStore } from "@nanostores/react";
import { hrefFor } from "../../domain/checkout/routes.ts";
import { formatUsd } from "../../domain/pricing/money.ts";
import { cancelEssentials } from "../../stores/payment.ts";
import { $productInfo } from "../../stores/products.ts";
import { $user, cancelTrial } from "../../stores/user.ts";
import { Busy, Frame, Problem } from "./Frame.tsx";

function formatDate(ms: number | null): string {
  return ms === null
    ? "the end of your paid period"
    : new Date(ms).toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });
}

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

export function CancelEssentialsScreen({ title }: { title: string }) {
  const state = useStore(cancelEssentials.$state);
  const user = useStore($user);
  return (
    <Frame title={title}>
      <p>
        Essentials ends with this change; your plan stays until {formatDate(user.orderEndDate)}.
      </p>
      {state.status === "success" ? (
        <p role="status">Essentials is cancelled.</p>
      ) : (
        <button
          type="button"
          className="btn"
          disabled={state.status === "started"}
          onClick={() => cancelEssentials.run()}
        >
          Cancel Essentials
        </button>
      )}
      {state.status === "started" && <Busy label="Cancelling…" />}
      {state.status === "failure" && <Problem failure={state.error} />}
    </Frame>
  );
}

export function CancelTrialScreen({ title }: { title: string }) {
  const state = useStore(cancelTrial.$state);
  const user = useStore($user);
  return (
    <Frame title={title}>
      <p>
        {user.isTrial
          ? `Your trial has ${user.remainingTrialDays ?? 0} days left. Cancelling ends it now and keeps your free account.`
          : "You have no trial to cancel."}
      </p>
      {state.status === "success" ? (
        <p role="status">Your trial is cancelled.</p>
      ) : (
        user.isTrial && (
          <button
            type="button"
            className="btn"
            disabled={state.status === "started"}
            onClick={() => cancelTrial.run(false)}
          >
            Cancel my trial
          </button>
        )
      )}
      {state.status === "failure" && <Problem failure={state.error} />}
    </Frame>
  );
}

export function ExplainScreen({ title, text }: { title: string; text: string }) {
  return (
    <Frame title={title}>
      <p>{text}</p>
      <a className="btn" href="/support">
        Contact support
      </a>
    </Frame>
  );
}
