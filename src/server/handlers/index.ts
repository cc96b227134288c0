// Every route of the server.
import type { Routes } from "../routing.ts";
import { authRoutes } from "./auth.ts";
import { devRoutes } from "./dev.ts";
import { engagementRoutes } from "./engagement.ts";
import { experimentRoutes } from "./experiments.ts";
import { healthRoutes } from "./health.ts";
import { invoiceRoutes } from "./invoices.ts";
import { paymentMethodRoutes } from "./payment-method.ts";
import { paymentProviderRoutes } from "./payment-providers.ts";
import { paymentRoutes } from "./payments.ts";
import { paypalRoutes } from "./paypal.ts";
import { paypalApprovalRoutes } from "./paypal-approval.ts";
import { paypalWebhookRoutes } from "./paypal-webhooks.ts";
import { productRoutes } from "./products.ts";
import { quotePageRoutes } from "./quotes-page.ts";
import { renewalPaymentRoutes } from "./renewal-payment.ts";
import { sandboxAuthenticationRoutes } from "./sandbox-authentication.ts";
import { standInRoutes } from "./stand-ins.ts";
import { subscriptionRoutes } from "./subscription.ts";
import { teamInviteRoutes } from "./team-invite.ts";
import { teamMemberRoutes } from "./team-members.ts";
import { userRoutes } from "./user.ts";
import { webhookRoutes } from "./webhooks.ts";

export function registerRoutes(routes: Routes): void {
  authRoutes(routes);
  userRoutes(routes);
  productRoutes(routes);
  paymentRoutes(routes);
  subscriptionRoutes(routes);
  paymentProviderRoutes(routes);
  paymentMethodRoutes(routes);
  paypalRoutes(routes);
  paypalApprovalRoutes(routes);
  sandboxAuthenticationRoutes(routes);
  renewalPaymentRoutes(routes);
  webhookRoutes(routes);
  paypalWebhookRoutes(routes);
  invoiceRoutes(routes);
  quotePageRoutes(routes);
  engagementRoutes(routes);
  experimentRoutes(routes);
  teamInviteRoutes(routes);
  teamMemberRoutes(routes);
  devRoutes(routes);
  standInRoutes(routes);
  healthRoutes(routes);
}
