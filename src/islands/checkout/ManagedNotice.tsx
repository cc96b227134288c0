// A managed account (team member, purchase order, pilot or promo order) cannot buy here: say why
// and whom to ask, and leave a way forward.
import type { ManagedReason } from "../../domain/checkout/purchase.ts";

export function ManagedNotice({ reason }: { reason: ManagedReason }) {
  return (
    <div className="notice" data-testid="managed-account">
      <p>{reason.why}</p>
      <p>{reason.ask}</p>
      <p>
        <a href="/support" target="_blank" rel="noopener">
          Contact support
        </a>
      </p>
    </div>
  );
}
