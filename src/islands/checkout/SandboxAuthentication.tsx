// The bank's step in sandbox mode (docs/decisions/0037): when a purchase with one of Stripe's
// authentication cards answers 402 authentication_required, the checkout asks the payment step's
// authenticator (stores/payment-authentication.ts); this one offers the sandbox's authentication
// page (server: handlers/sandbox-authentication.ts) in a window of its own, opened from the
// person's click so that no popup blocker stops it. The step is over when that window says so or
// is closed, or when the person cancels here. As with Stripe's own step, closing it without an
// answer fails the authentication (the page is told so), so the next try is a new payment; the
// checkout then asks the server, which alone knows whether the payment succeeded. Part of the
// payment step's lazy chunk.
import { useEffect, useRef, useState } from "react";
import { type PaymentAction, setAuthenticator } from "../../stores/payment-authentication.ts";

export function SandboxAuthentication() {
  const [url, setUrl] = useState<string | null>(null);
  const finish = useRef<(() => void) | null>(null);
  const abandon = useRef<(() => Promise<void>) | null>(null);
  const [blocked, setBlocked] = useState(false);

  useEffect(() => {
    setAuthenticator(
      (action: PaymentAction) =>
        new Promise<void>((resolve) => {
          if (!action.url) {
            resolve();
            return;
          }
          // Abandoned: the step fails (a no-op when it was answered already).
          abandon.current = async () => {
            const target = new URL(action.url ?? "", location.href);
            await fetch(target.pathname, {
              method: "POST",
              body: new URLSearchParams({
                payment: action.paymentId,
                action: "fail",
              }),
            }).catch(() => undefined);
            finish.current?.();
          };
          finish.current = () => {
            finish.current = null;
            abandon.current = null;
            setUrl(null);
            setBlocked(false);
            resolve();
          };
          setUrl(action.url);
        }),
    );
    return () => {
      setAuthenticator(null);
      finish.current?.();
    };
  }, []);

  if (url === null) return null;
  const open = () => {
    const step = window.open(url, "sandbox-authentication", "popup,width=480,height=640");
    if (!step) {
      setBlocked(true);
      return;
    }
    const done = (answered: boolean) => {
      window.removeEventListener("message", onMessage);
      clearInterval(watch);
      void (answered ? finish.current?.() : abandon.current?.());
    };
    const onMessage = (event: MessageEvent) => {
      if (event.origin === location.origin && event.data?.source === "sandbox-authentication") {
        done(true);
      }
    };
    window.addEventListener("message", onMessage);
    // Closed without an answer: abandoned, which fails the step as Stripe's does.
    const watch = setInterval(() => {
      if (step.closed) done(false);
    }, 300);
  };
  return (
    <fieldset className="stack">
      <legend>Payment authentication</legend>
      <p role="status">Your bank asks you to confirm this payment.</p>
      {blocked && (
        <p className="problem">Your browser blocked the bank's window: allow it, then try again.</p>
      )}
      <p>
        <button type="button" className="btn" onClick={open}>
          Open your bank's page
        </button>{" "}
        <button type="button" className="btn secondary" onClick={() => void abandon.current?.()}>
          Cancel
        </button>
      </p>
    </fieldset>
  );
}
