// Cancel Essentials and cancel trial (spec 2.1): each behind its confirmation, which says what
// happens and from when (AccountActions.tsx).
import { useStore } from "@nanostores/react";
import { formatDay } from "../../domain/account/format-day.ts";
import { $lastDone } from "../../stores/account-actions.ts";
import { $productInfo } from "../../stores/products.ts";
import { $user } from "../../stores/user.ts";
import { Frame } from "../screens/Frame.tsx";
import { ActionDone, ConfirmAction } from "./AccountActions.tsx";

export function CancelEssentialsScreen({ title }: { title: string }) {
  const info = useStore($productInfo);
  const done = useStore($lastDone);
  return (
    <Frame title={title}>
      <ActionDone />
      {info?.essentialsInfo?.hasEssentials && info.essentialsInfo.endsAt !== null ? (
        // Cancelled already: it stays to the end of the period paid for (issue 33, item 8).
        done !== "cancelEssentials" && (
          <p data-testid="essentials-until">
            Essentials is cancelled. You keep it until {formatDay(info.essentialsInfo.endsAt)}; your
            plan then renews without it.
          </p>
        )
      ) : info?.essentialsInfo?.hasEssentials ? (
        <ConfirmAction action="cancelEssentials" />
      ) : (
        done !== "cancelEssentials" && <p>Your plan does not include Essentials.</p>
      )}
    </Frame>
  );
}

export function CancelTrialScreen({ title }: { title: string }) {
  const user = useStore($user);
  const done = useStore($lastDone);
  return (
    <Frame title={title}>
      <ActionDone />
      {user.isTrial ? (
        <ConfirmAction action="cancelTrial" />
      ) : (
        done !== "cancelTrial" && <p>You have no trial to cancel.</p>
      )}
    </Frame>
  );
}
