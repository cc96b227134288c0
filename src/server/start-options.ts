// What startServer() (main.ts) takes and answers: the options a caller (tests, scripts/serve.ts)
// passes, and the running server it gets back. Kept apart from main.ts so that the start-up
// sequence reads on its own.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Catalog } from "../domain/catalog/catalog-schema.ts";
import type { App } from "./app.ts";
import type { HumanVerifier } from "./auth/human-check.ts";
import type { PasswordHasher, PasswordWorkLimits } from "./auth/passwords.ts";
import type { Clock } from "./clock.ts";
import type { Config } from "./config.ts";
import type { AppDeps, StaticHandler } from "./context.ts";
import type { Db } from "./db/db.ts";
import type { Logger } from "./log.ts";
import type { MailTransport } from "./mail/mailer.ts";
import type { PaymentProvider } from "./payments/provider.ts";
import type { PlanSyncReport } from "./services/paypal-plans.ts";
import type { ReconcileSchedule } from "./services/reconcile-schedule.ts";
import type { RenewalWorker } from "./services/renewals.ts";

export type StartOptions = {
  /** Overrides PORT and HOST of the environment. */
  port?: number;
  host?: string;
  staticHandler?: StaticHandler;
  notFound?: (req: IncomingMessage, res: ServerResponse) => void;
  /** The environment (defaults to process.env). */
  env?: Record<string, string | undefined>;
  clock?: Clock;
  log?: Logger;
  catalog?: Catalog;
  /** Replaces the provider chosen by PAYMENTS (tests pass a fake). */
  payments?: (deps: { db: Db; clock: Clock; config: Config }) => PaymentProvider;
  /**
   * An open database to run on instead of DATA_DIR's or DATABASE_URL's (tests: PGlite), with the
   * key of its stored secrets. It is migrated at start, and closed with the server.
   */
  database?: { db: Db; secret: Buffer; label: string };
  /** How long a pending Idempotency-Key is its server's without a renewal (PostgreSQL). */
  idempotencyLeaseMs?: number;
  mailTransport?: MailTransport | null;
  /** Multiplies every rate limit (tests raise it). */
  rateLimitScale?: number;
  passwordCost?: number;
  /** Replaces the scrypt hasher built from passwordCost (tests count its work). */
  passwords?: PasswordHasher;
  /** Bounds on concurrent and waiting password work (auth/passwords.ts; default: by cores). */
  passwordWork?: Partial<PasswordWorkLimits>;
  /** The reset page's human check; a real provider's verifier replaces the sandbox's. */
  humanCheck?: HumanVerifier;
  /**
   * Check every answer against its contract entry (schema and error codes). Default: on in a
   * local run (a developer sees a wrong answer at once), off in a deployment; tests turn it on.
   */
  validateResponses?: boolean;
  /** Print the banner with the demo accounts (default: true unless a logger is given). */
  quiet?: boolean;
  /**
   * Close cleanly on SIGTERM and SIGINT, then exit (default: when started as a program, that is
   * without a logger or environment passed in, as scripts/serve.ts does).
   */
  handleSignals?: boolean;
  /**
   * The renewal worker: false turns it off (tests that move the clock without wanting renewals);
   * intervalMs overrides RENEWAL_INTERVAL_SECONDS (0: only when the clock moves or it is kicked).
   */
  renewals?: false | { intervalMs?: number; id?: string };
  /**
   * Find or make the PayPal plan of every catalogue price at start when PAYPAL_* are set
   * (services/paypal-plans.ts; default true). Tests that count PayPal calls turn it off.
   */
  paypalPlans?: boolean;
  /**
   * The scheduled reconciliation of Stripe's payments (PAYMENTS=stripe only): false turns it
   * off; intervalMs overrides RECONCILE_INTERVAL_SECONDS (0: only when the clock moves).
   */
  reconcile?: false | { intervalMs?: number };
};

export type RunningServer = {
  url: string;
  port: number;
  server: Server;
  app: App;
  deps: AppDeps;
  /** The renewal worker (services/renewals.ts), or null when it is off. */
  renewals: RenewalWorker | null;
  /** The start's PayPal plan sync (its report; null when off or when it failed: logged). */
  paypalPlans: Promise<PlanSyncReport | null>;
  /** The scheduled reconciliation (services/reconcile-schedule.ts), or null when it is off. */
  reconcile: ReconcileSchedule | null;
  close(): Promise<void>;
};
