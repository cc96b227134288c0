// PayPal's own buttons (PAYPAL_* configured), from PayPal's JS SDK, which PayPalScriptProvider
// loads when this chunk mounts, for subscriptions (vault, intent=subscription). PayPal's button
// opens PayPal in its own popup, so it works inside the hub's frame too; the subscription is
// prepared and confirmed by our server (stores/paypal-buttons.ts), and an approval lands on
// paypalCompleted as the sandbox's does. A closed PayPal window or an SDK failure leaves the
// person here, with plan, period, seats and address kept, told that nothing was charged.

import { useStore } from "@nanostores/react";
import {
  PayPalButtons,
  PayPalScriptProvider,
  usePayPalScriptReducer,
} from "@paypal/react-paypal-js";
import { useState } from "react";
import {
  $paypalConfirmError,
  approvePaypalSubscription,
  createPaypalSubscription,
  paypalCancelled,
  type SubscriptionActions,
  serverRefusedPaypal,
} from "../../stores/paypal-buttons.ts";
import { Problem } from "../screens/Frame.tsx";

const BUTTON_STYLE = { layout: "horizontal", height: 45, tagline: false } as const;

const CANCELLED =
  "You closed PayPal before approving. Nothing was charged: try PayPal again or pay by card.";
const UNAVAILABLE = "PayPal could not be reached. Nothing was charged: try again, or pay by card.";

type Props = {
  clientId: string;
  /** A payment is running (this tab): PayPal's button is disabled. */
  disabled: boolean;
  /** Called as the person confirms (single exports tell the hub). */
  onConfirm?: () => void;
};

function Buttons({ disabled, onConfirm }: Omit<Props, "clientId">) {
  const [{ isRejected }] = usePayPalScriptReducer();
  // What happened at PayPal's end: a view message, not business state.
  const [notice, setNotice] = useState<string | null>(null);
  const refused = useStore($paypalConfirmError);
  if (isRejected) return <Problem message={UNAVAILABLE} />;
  return (
    <>
      <div className="paypal-frame">
        <PayPalButtons
          style={BUTTON_STYLE}
          disabled={disabled}
          createSubscription={(_data, actions) => {
            setNotice(null);
            onConfirm?.();
            return createPaypalSubscription(actions as unknown as SubscriptionActions);
          }}
          onApprove={async (data) => {
            if (!data.subscriptionID) setNotice(UNAVAILABLE);
            else await approvePaypalSubscription(data.subscriptionID);
          }}
          onCancel={() => {
            paypalCancelled();
            setNotice(CANCELLED);
          }}
          onError={() => {
            // A refusal of our server (createOrder) is already shown by the form, in its words.
            if (!serverRefusedPaypal()) setNotice(UNAVAILABLE);
          }}
        />
      </div>
      {(refused ?? notice) && <Problem message={(refused ?? notice) as string} />}
    </>
  );
}

export function PaypalButtons({ clientId, ...props }: Props) {
  return (
    <PayPalScriptProvider
      options={{
        clientId,
        currency: "USD",
        intent: "subscription",
        vault: true,
        components: "buttons",
      }}
    >
      <Buttons {...props} />
    </PayPalScriptProvider>
  );
}
