// Cancel Essentials and cancel trial (spec 2.1): each behind its confirmation, which says what
// happens and from when (AccountActions.tsx).
import { useStore } from "@nanostores/react";
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
      {info?.essentialsInfo?.hasEssentials ? (
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
