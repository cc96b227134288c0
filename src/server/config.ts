// The server's configuration: one pure function of the environment, validated by zod
// (config-env.ts). A bad value stops start-up with a message that names the variable (main.ts
// prints it).
import { EnvSchema } from "./config-env.ts";
import { isLoopbackHost, isLoopbackUrl } from "./local-run.ts";

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL (DATABASE_URL); null: the SQLite database in dataDir. */
  database: { url: string; poolSize: number } | null;
  /** SERVER_SECRET, decoded (with DATABASE_URL); null: the secret file in dataDir. */
  serverSecret: Buffer | null;
  payments: "sandbox" | "stripe";
  stripe: {
    secretKey: string;
    publishableKey: string;
    apiUrl: string | null;
    webhookSecret: string | null;
  } | null;
  /** Set when the checkout loads Stripe Elements (its pages then allow Stripe's origins). */
  stripePublishableKey: string | null;
  /** PayPal's Subscriptions API (PAYPAL_*): set when this server sells through PayPal. */
  paypal: {
    clientId: string;
    clientSecret: string;
    webhookId: string;
    environment: "sandbox" | "live";
    /** PAYPAL_API_URL (tests), else PayPal's own address for the environment. */
    apiUrl: string;
  } | null;
  hubOrigins: string[];
  /** The public origin, for links in e-mails and the same-origin check. */
  publicBaseUrl: string;
  smtp: { url: string; from: string } | null;
  deploymentEnv: string;
  /**
   * Addresses and CIDR ranges (or `loopback`) of the reverse proxies in front of the server: only
   * from them are X-Forwarded-For and X-Forwarded-Proto read (http/client-address.ts).
   */
  trustedProxies: string[];
  /** Create the demo accounts on first start (sandbox only). */
  seed: boolean;
  /**
   * A local run (local-run.ts): the listen address and the public base URL are loopback. Only
   * then do the development conveniences exist (the mailbox, the PayPal stand-in, /dev/).
   */
  local: boolean;
  /**
   * A local run's settable clock (CLOCK=settable, or CLOCK_START given): it starts at startMs (or
   * the real time) and POST /dev/clock moves it. Never outside a local run.
   */
  clock: { settable: boolean; startMs: number | null };
  /** How often the renewal worker runs (RENEWAL_INTERVAL_SECONDS); 0: not on this server. */
  renewalIntervalMs: number;
  /** How often Stripe's payments are reconciled (RECONCILE_INTERVAL_SECONDS); 0: not on this server. */
  reconcileIntervalMs: number;
  /** The seller every invoice names (SELLER_*; a placeholder company in a local run). */
  seller: Seller;
};

export type Seller = { name: string; address: string[]; country: string; taxId: string };

/** A local run's seller: plainly a placeholder, in Ireland so that EU VAT rules can be tried. */
export const LOCAL_SELLER: Seller = {
  name: "Video Editor Demo Ltd (local run)",
  address: ["1 Example Quay", "Dublin D02 X000"],
  country: "IE",
  taxId: "IE6388047V",
};

export type ConfigResult = { ok: true; config: Config } | { ok: false; errors: string[] };

export function getConfig(env: Record<string, string | undefined>): ConfigResult {
  // Empty variables count as unset, as in most deployment tools.
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ""),
  );
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? "environment");
        const value = cleaned[name];
        const shown =
          value === undefined || /KEY|SMTP_URL|DATABASE_URL|SECRET/.test(name)
            ? ""
            : ` (got "${value}")`;
        return `${name} ${issue.message}${shown}`;
      }),
    };
  }
  const e = parsed.data;
  const publicBaseUrl = e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`;
  const local = isLoopbackHost(e.HOST) && isLoopbackUrl(publicBaseUrl);
  return {
    ok: true,
    config: {
      port: e.PORT,
      host: e.HOST,
      dataDir: e.DATA_DIR,
      database: e.DATABASE_URL ? { url: e.DATABASE_URL, poolSize: e.DATABASE_POOL_SIZE } : null,
      serverSecret: e.SERVER_SECRET ? Buffer.from(e.SERVER_SECRET, "base64url") : null,
      payments: e.PAYMENTS,
      stripe:
        e.STRIPE_SECRET_KEY && e.STRIPE_PUBLISHABLE_KEY
          ? {
              secretKey: e.STRIPE_SECRET_KEY,
              publishableKey: e.STRIPE_PUBLISHABLE_KEY,
              apiUrl: e.STRIPE_API_URL ?? null,
              webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? null,
            }
          : null,
      stripePublishableKey: e.STRIPE_PUBLISHABLE_KEY ?? null,
      paypal:
        e.PAYPAL_CLIENT_ID && e.PAYPAL_CLIENT_SECRET && e.PAYPAL_WEBHOOK_ID
          ? {
              clientId: e.PAYPAL_CLIENT_ID,
              clientSecret: e.PAYPAL_CLIENT_SECRET,
              webhookId: e.PAYPAL_WEBHOOK_ID,
              environment: e.PAYPAL_ENVIRONMENT,
              apiUrl:
                e.PAYPAL_API_URL ??
                (e.PAYPAL_ENVIRONMENT === "live"
                  ? "https://api-m.paypal.com"
                  : "https://api-m.sandbox.paypal.com"),
            }
          : null,
      hubOrigins: e.HUB_ORIGINS,
      publicBaseUrl,
      smtp: e.SMTP_URL ? { url: e.SMTP_URL, from: e.SMTP_FROM } : null,
      deploymentEnv: e.DEPLOYMENT_ENV,
      trustedProxies: e.TRUSTED_PROXIES,
      seed: local && (e.SEED ?? e.PAYMENTS === "sandbox"),
      local,
      clock: {
        settable:
          local &&
          (e.CLOCK === "settable" || (e.CLOCK === undefined && e.CLOCK_START !== undefined)),
        startMs: e.CLOCK_START ?? null,
      },
      renewalIntervalMs: e.RENEWAL_INTERVAL_SECONDS * 1000,
      reconcileIntervalMs: e.RECONCILE_INTERVAL_SECONDS * 1000,
      seller: {
        name: e.SELLER_NAME ?? LOCAL_SELLER.name,
        address: e.SELLER_ADDRESS
          ? e.SELLER_ADDRESS.split(";")
              .map((line) => line.trim())
              .filter((line) => line.length > 0)
          : LOCAL_SELLER.address,
        country: e.SELLER_COUNTRY ?? LOCAL_SELLER.country,
        taxId: e.SELLER_TAX_ID ?? LOCAL_SELLER.taxId,
      },
    },
  };
}
