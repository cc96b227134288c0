// PayPal's own buttons (PAYPAL_CLIENT_ID configured), from PayPal's JS SDK, which
// PayPalScriptProvider loads when this chunk mounts. PayPal's button opens PayPal; the order is
// our server's (stores/paypal-buttons.ts), so the approval lands on paypalCompleted as the
// sandbox's does. A closed PayPal window or an SDK failure leaves the person here, told that
// nothing was charged, with PayPal and the card still on offer.
import {
  PayPalButtons,
  PayPalScriptProvider,
  usePayPalScriptReducer,
} from "@paypal/react-paypal-js";
import { useState } from "react";
import {
  approvePaypalOrder,
  createPaypalOrder,
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
  if (isRejected) return <Problem message={UNAVAILABLE} />;
  return (
    <>
      <div className="paypal-frame">
        <PayPalButtons
          style={BUTTON_STYLE}
          disabled={disabled}
          createOrder={() => {
            setNotice(null);
            onConfirm?.();
            return createPaypalOrder();
          }}
          onApprove={async (data) => {
            if (!approvePaypalOrder(data.orderID)) setNotice(UNAVAILABLE);
          }}
          onCancel={() => setNotice(CANCELLED)}
          onError={() => {
            // A refusal of our server (createOrder) is already shown by the form, in its words.
            if (!serverRefusedPaypal()) setNotice(UNAVAILABLE);
          }}
        />
      </div>
      {notice && <Problem message={notice} />}
    </>
  );
}

export function PaypalButtons({ clientId, ...props }: Props) {
  return (
    <PayPalScriptProvider
      options={{ clientId, currency: "USD", intent: "capture", components: "buttons" }}
    >
      <Buttons {...props} />
    </PayPalScriptProvider>
  );
}
