// The environment's schema (zod): every variable the server reads, its default and the message a
// bad value gets. config.ts turns the parsed environment into the server's Config.
import { z } from "zod";
import { isProxyEntry } from "./http/client-address.ts";
import { isLoopbackHost, isLoopbackUrl } from "./local-run.ts";
import { parseSmtpUrl } from "./mail/smtp-url.ts";

const origin = z.string().refine(
  (value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "https:" || url.protocol === "http:") && url.origin === value;
    } catch {
      return false;
    }
  },
  { message: "must be an origin such as https://hub.example.com (no path, no trailing slash)" },
);

/** HMAC-SHA-256 keys shorter than its 32-byte output weaken it (as data-folder.ts's secret). */
const MIN_SECRET_BYTES = 32;

const serverSecret = z
  .string()
  .regex(/^[A-Za-z0-9_-]+={0,2}$/, {
    message: 'must be base64url text (only A-Z, a-z, 0-9, "-" and "_")',
  })
  .refine((value) => Buffer.from(value, "base64url").length >= MIN_SECRET_BYTES, {
    message: `must decode to at least ${MIN_SECRET_BYTES} bytes: generate one with \`node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"\``,
  });

const databaseUrl = z.string().refine(
  (value) => {
    try {
      const url = new URL(value);
      return url.protocol === "postgres:" || url.protocol === "postgresql:";
    } catch {
      return false;
    }
  },
  { message: "must be a PostgreSQL URL such as postgres://user:password@host:5432/database" },
);

const flag = z
  .enum(["true", "false", "1", "0"], { message: "must be true or false" })
  .transform((v) => v === "true" || v === "1");

export const EnvSchema = z
  .object({
    PORT: z.coerce
      .number({ message: "must be a port number" })
      .int({ message: "must be a whole number" })
      .min(0, { message: "must be between 0 and 65535" })
      .max(65535, { message: "must be between 0 and 65535" })
      .default(4321),
    HOST: z.string().min(1).default("127.0.0.1"),
    DATA_DIR: z.string().min(1, { message: "must not be empty" }).default(".data"),
    /** PostgreSQL instead of the SQLite file in DATA_DIR (docs/decisions/0014). */
    DATABASE_URL: databaseUrl.optional(),
    DATABASE_POOL_SIZE: z.coerce
      .number({ message: "must be a number" })
      .int({ message: "must be a whole number" })
      .min(1, { message: "must be between 1 and 100" })
      .max(100, { message: "must be between 1 and 100" })
      .default(10),
    /** The key of stored secrets, shared by every server on one PostgreSQL database. */
    SERVER_SECRET: serverSecret.optional(),
    PAYMENTS: z
      .enum(["sandbox", "stripe"], { message: "must be sandbox or stripe" })
      .default("sandbox"),
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/, {
        message: "must be a Stripe secret key (sk_test_… or sk_live_…)",
      })
      .optional(),
    STRIPE_PUBLISHABLE_KEY: z
      .string()
      .regex(/^pk_(test|live)_[A-Za-z0-9]+$/, {
        message: "must be a Stripe publishable key (pk_test_… or pk_live_…)",
      })
      .optional(),
    /** The signing secret of the webhook endpoint (Stripe's dashboard, or `stripe listen`). */
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_[A-Za-z0-9]+$/, { message: "must be a webhook signing secret (whsec_…)" })
      .optional(),
    /** Where the Stripe SDK sends requests; only for tests and local fakes. */
    STRIPE_API_URL: z.url({ message: "must be a URL" }).optional(),
    PAYPAL_CLIENT_ID: z.string().min(1).max(200).optional(),
    PAYPAL_CLIENT_SECRET: z.string().min(1).max(500).optional(),
    /** The id of the webhook PayPal's dashboard gave for /api/5/webhooks/paypal. */
    PAYPAL_WEBHOOK_ID: z.string().min(1).max(100).optional(),
    PAYPAL_ENVIRONMENT: z
      .enum(["sandbox", "live"], { message: "must be sandbox or live" })
      .default("sandbox"),
    /** Where the PayPal client sends requests; only for tests and local fakes. */
    PAYPAL_API_URL: z.url({ message: "must be a URL" }).optional(),
    HUB_ORIGINS: z
      .string()
      .default("")
      .transform((s) =>
        s
          .split(",")
          .map((part) => part.trim())
          .filter((part) => part.length > 0),
      )
      .pipe(z.array(origin)),
    PUBLIC_BASE_URL: origin.optional(),
    /** The seller on every invoice (issue 23): required outside a local run. */
    SELLER_NAME: z.string().min(2, { message: "must name the company that sells" }).optional(),
    /** Address lines, separated by ";" (the country is SELLER_COUNTRY). */
    SELLER_ADDRESS: z
      .string()
      .min(3, { message: "must be the seller's postal address" })
      .optional(),
    SELLER_COUNTRY: z
      .string()
      .regex(/^[A-Z]{2}$/, { message: "must be a two-letter country code such as IE" })
      .optional(),
    SELLER_TAX_ID: z.string().min(3, { message: "must be the seller's VAT or tax id" }).optional(),
    // The transport reads it with the same parser: TLS required unless ?tls=none (without
    // credentials) says otherwise; see mail/smtp-url.ts.
    SMTP_URL: z
      .string()
      .superRefine((value, ctx) => {
        const parsed = parseSmtpUrl(value);
        if (!parsed.ok) ctx.addIssue({ code: "custom", message: parsed.message });
      })
      .optional(),
    SMTP_FROM: z.string().min(3).default("Checkout <no-reply@localhost>"),
    DEPLOYMENT_ENV: z.string().min(1).default("local"),
    /** Reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed. */
    TRUSTED_PROXIES: z
      .string()
      .default("")
      .transform((s) =>
        s
          .split(",")
          .map((part) => part.trim())
          .filter((part) => part.length > 0),
      )
      .pipe(
        z.array(
          z.string().refine(isProxyEntry, {
            message:
              "must list proxy addresses separated by commas: IP addresses, CIDR ranges such as 10.0.0.0/8 or fd00::/8, or loopback",
          }),
        ),
      ),
    SEED: flag.optional(),
    /** settable: the clock starts at CLOCK_START and POST /dev/clock moves it (local runs only). */
    CLOCK: z.enum(["system", "settable"], { message: "must be system or settable" }).optional(),
    CLOCK_START: z.iso
      .datetime({
        offset: true,
        message: "must be an ISO 8601 time with a zone, such as 2026-01-15T12:00:00Z",
      })
      .transform((value) => Date.parse(value))
      .optional(),
    /** How often the renewal worker looks for ended periods; 0 turns it off on this server. */
    RENEWAL_INTERVAL_SECONDS: z.coerce
      .number({ message: "must be a number of seconds" })
      .int({ message: "must be a whole number of seconds" })
      .min(0, { message: "must be between 0 and 86400" })
      .max(86_400, { message: "must be between 0 and 86400" })
      .default(60),
    /**
     * How often (PAYMENTS=stripe) this server reconciles Stripe's payments with the orders
     * (services/stripe-reconcile.ts); 0 turns it off on this server.
     */
    RECONCILE_INTERVAL_SECONDS: z.coerce
      .number({ message: "must be a number of seconds" })
      .int({ message: "must be a whole number of seconds" })
      .min(0, { message: "must be between 0 and 86400" })
      .max(86_400, { message: "must be between 0 and 86400" })
      .default(900),
  })
  .superRefine((env, ctx) => {
    // Development conveniences exist only in a local run (local-run.ts); asking for them
    // elsewhere stops start-up instead of quietly exposing a mailbox or test payments.
    if (!isLoopbackHost(env.HOST) && !env.PUBLIC_BASE_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["PUBLIC_BASE_URL"],
        message: `is required when HOST is not a loopback address (HOST is "${env.HOST}"): set it to the public origin, such as https://checkout.example.com`,
      });
    }
    const publicUrl = env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`;
    if (!isLoopbackUrl(publicUrl) || !isLoopbackHost(env.HOST)) {
      if (env.PAYMENTS !== "stripe") {
        ctx.addIssue({
          code: "custom",
          path: ["PAYMENTS"],
          message: `must be stripe outside a local run: sandbox payments, the sandbox mailbox and the PayPal stand-in exist only when HOST and PUBLIC_BASE_URL are loopback addresses (PUBLIC_BASE_URL is "${publicUrl}")`,
        });
      }
      for (const key of ["CLOCK", "CLOCK_START"] as const) {
        if (key === "CLOCK" ? env.CLOCK === "settable" : env.CLOCK_START !== undefined) {
          ctx.addIssue({
            code: "custom",
            path: [key],
            message: `cannot be set outside a local run: a settable clock exists only when HOST and PUBLIC_BASE_URL are loopback addresses (PUBLIC_BASE_URL is "${publicUrl}")`,
          });
        }
      }
      if (env.SEED === true) {
        ctx.addIssue({
          code: "custom",
          path: ["SEED"],
          message: `cannot be true outside a local run: demo accounts with a published password exist only when HOST and PUBLIC_BASE_URL are loopback addresses (PUBLIC_BASE_URL is "${publicUrl}")`,
        });
      }
    }
    if (!isLoopbackUrl(publicUrl) || !isLoopbackHost(env.HOST)) {
      // An invoice without the seller's name, address and tax id is no invoice a finance office
      // accepts (issue 23); the local run's placeholder seller must never reach a customer.
      for (const key of [
        "SELLER_NAME",
        "SELLER_ADDRESS",
        "SELLER_COUNTRY",
        "SELLER_TAX_ID",
      ] as const) {
        if (env[key] === undefined) {
          ctx.addIssue({
            code: "custom",
            path: [key],
            message:
              "is required outside a local run: every invoice names the seller (SELLER_NAME, SELLER_ADDRESS, SELLER_COUNTRY, SELLER_TAX_ID)",
          });
        }
      }
    }
    if (env.CLOCK === "system" && env.CLOCK_START !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["CLOCK_START"],
        message: "needs CLOCK=settable (or CLOCK unset): the system clock cannot start elsewhere",
      });
    }
    if (env.DATABASE_URL && !env.SERVER_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["SERVER_SECRET"],
        message:
          "is required with DATABASE_URL: every server on one database needs the same key for sessions, reset links, e-mail codes and card fingerprints (32 random bytes or more, base64url)",
      });
    }
    if (env.SERVER_SECRET && !env.DATABASE_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["SERVER_SECRET"],
        message:
          "is only used with DATABASE_URL: with the SQLite database the secret is the file server-secret in DATA_DIR",
      });
    }
    // PayPal is all or nothing: buttons without the secret could not be verified on the server,
    // and a secret without the webhook id could not hear renewals and cancellations.
    const paypalKeys = ["PAYPAL_CLIENT_ID", "PAYPAL_CLIENT_SECRET", "PAYPAL_WEBHOOK_ID"] as const;
    if (paypalKeys.some((key) => env[key])) {
      for (const key of paypalKeys) {
        if (!env[key])
          ctx.addIssue({
            code: "custom",
            path: [key],
            message: `is required with ${paypalKeys.filter((k) => env[k]).join(" and ")} (PayPal needs all three)`,
          });
      }
    }
    if (env.PAYMENTS === "stripe") {
      for (const key of ["STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY"] as const) {
        if (!env[key])
          ctx.addIssue({
            code: "custom",
            path: [key],
            message: "is required when PAYMENTS=stripe",
          });
      }
    }
  });
