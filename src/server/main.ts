// Start-up: configuration, database and migrations, payment provider, seed, HTTP server.
// `npm start` runs scripts/serve.ts, which calls startServer() with the static site's handler;
// `node src/server/main.ts` runs the API alone.
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createApp } from "./app.ts";
import { sandboxHumanVerifier } from "./auth/human-check.ts";
import {
  boundedHasher,
  DEFAULT_COST,
  defaultPasswordWorkLimits,
  scryptHasher,
} from "./auth/passwords.ts";
import { loadCatalog } from "./catalog.ts";
import { DAY_MS, isSettableClock, runningClock, systemClock } from "./clock.ts";
import { getConfig } from "./config.ts";
import type { AppDeps } from "./context.ts";
import type { Db } from "./db/db.ts";
import { IdempotencyKeys } from "./db/idempotency.ts";
import { Events } from "./db/outbox.ts";
import { Secrets } from "./db/secrets.ts";
import { Sessions } from "./db/sessions.ts";
import { devClockRoutes } from "./handlers/dev-clock.ts";
import { registerRoutes } from "./handlers/index.ts";
import { DatabaseRateStore, MemoryRateStore, RateLimiter } from "./http/rate-limit.ts";
import { consoleLogger } from "./log.ts";
import { Mailer } from "./mail/mailer.ts";
import { createSmtpTransport } from "./mail/smtp-transport.ts";
import { ConfigError, openDatabase, redactUrl } from "./open-database.ts";
import { PaypalClient } from "./payments/paypal-client.ts";
import { createSandboxProvider } from "./payments/sandbox.ts";
import { createStripeProvider, stripeClient } from "./payments/stripe.ts";
import { PeriodicPass } from "./periodic-pass.ts";
import { DEMO_PASSWORD, seedDemoAccounts } from "./seed.ts";
import { IdempotencyService } from "./services/idempotency.ts";
import { numberWaiting } from "./services/invoice-numbering.ts";
import { sweepPaypalOrphans } from "./services/paypal-orphans.ts";
import { describePlanSync, type PlanSyncReport, syncPaypalPlans } from "./services/paypal-plans.ts";
import { ReconcileSchedule } from "./services/reconcile-schedule.ts";
import { RenewalWorker } from "./services/renewals.ts";
import type { RunningServer, StartOptions } from "./start-options.ts";
import { StartupError } from "./startup-error.ts";

// Callers (tests, scripts) import start-up's whole surface from here.
export type { RunningServer, StartOptions };
export { ConfigError, openDatabase, redactUrl, StartupError };

/**
 * Stops start-up: thrown to a caller (tests), or, started as a program (npm start), printed
 * without a stack, as the message names what to fix, and the process exits 1.
 */
function refuseToStart(error: StartupError, programMode: boolean): never {
  if (!programMode) throw error;
  console.error(`server: ${error.message}`);
  process.exit(1);
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const env = { ...(options.env ?? process.env) };
  if (options.port !== undefined) env.PORT = String(options.port);
  if (options.host !== undefined) env.HOST = options.host;
  const programMode =
    options.handleSignals ?? (options.log === undefined && options.env === undefined);
  const parsed = getConfig(env);
  if (!parsed.ok) refuseToStart(new ConfigError(parsed.errors), programMode);
  const config = parsed.config;
  const clock =
    options.clock ??
    (config.clock.settable ? runningClock(config.clock.startMs ?? Date.now()) : systemClock);
  const log = options.log ?? consoleLogger;
  const catalog = options.catalog ?? loadCatalog();

  let opened: { db: Db; secret: Buffer; label: string };
  try {
    opened = await openDatabase(config, options, clock.now());
  } catch (error) {
    if (error instanceof StartupError) refuseToStart(error, programMode);
    throw error;
  }
  const { db, secret, label: dataLabel } = opened;
  const passwordCost = options.passwordCost ?? DEFAULT_COST;

  const payments =
    options.payments?.({ db, clock, config }) ??
    (config.payments === "stripe" && config.stripe
      ? createStripeProvider({
          secretKey: config.stripe.secretKey,
          apiUrl: config.stripe.apiUrl,
          log: (line) => log.warn(line),
        })
      : createSandboxProvider(db, clock));
  const paypal = config.paypal
    ? new PaypalClient({
        clientId: config.paypal.clientId,
        clientSecret: config.paypal.clientSecret,
        apiUrl: config.paypal.apiUrl,
      })
    : null;
  const transport =
    options.mailTransport !== undefined
      ? options.mailTransport
      : config.smtp
        ? createSmtpTransport(config.smtp.url)
        : null;
  const mailer = new Mailer({
    db,
    clock,
    log,
    transport,
    from: config.smtp?.from ?? "Checkout <no-reply@localhost>",
  });

  const deps: AppDeps = {
    config,
    db,
    clock,
    log,
    catalog,
    payments,
    paypal,
    mailer,
    // Servers on one PostgreSQL database share their buckets; one SQLite server keeps its own.
    limiter: new RateLimiter(
      clock,
      options.rateLimitScale ?? 1,
      db.dialect === "postgres" ? new DatabaseRateStore(db) : new MemoryRateStore(),
    ),
    idempotency: new IdempotencyService(db, clock, randomUUID(), {
      ...(options.idempotencyLeaseMs !== undefined ? { leaseMs: options.idempotencyLeaseMs } : {}),
    }),
    secret,
    // Every hash of every request goes through one bounded queue; the excess answers 429.
    passwords: boundedHasher(options.passwords ?? scryptHasher(passwordCost), {
      ...defaultPasswordWorkLimits(),
      ...options.passwordWork,
    }),
    humanCheck: options.humanCheck ?? sandboxHumanVerifier,
    validateResponses: options.validateResponses ?? config.local,
    background: new Set(),
    staticHandler: options.staticHandler ?? null,
    notFound: options.notFound ?? null,
  };

  const renewalOptions = options.renewals;
  const renewals =
    renewalOptions === false || (renewalOptions === undefined && config.renewalIntervalMs === 0)
      ? null
      : new RenewalWorker(
          { db, clock, log, catalog, payments, mailer, config, secret },
          {
            intervalMs: renewalOptions?.intervalMs ?? config.renewalIntervalMs,
            ...(renewalOptions?.id ? { id: renewalOptions.id } : {}),
          },
        );

  const reconcileOptions = options.reconcile;
  const reconcileIntervalMs = reconcileOptions
    ? (reconcileOptions.intervalMs ?? config.reconcileIntervalMs)
    : config.reconcileIntervalMs;
  const reconcile =
    config.payments !== "stripe" ||
    config.stripe === null ||
    reconcileOptions === false ||
    (reconcileOptions === undefined && reconcileIntervalMs === 0)
      ? null
      : new ReconcileSchedule(
          {
            db,
            clock,
            log,
            mailer,
            config,
            stripe: stripeClient(config.stripe.secretKey, config.stripe.apiUrl),
          },
          { intervalMs: reconcileIntervalMs },
        );

  // One hash before anything listens: the dummy hash of unknown addresses is ready, and the
  // bound on password work knows how long a hash takes here before the first flood.
  // (A hasher passed in by a test is left alone: tests count its work.)
  if (!options.passwords) await deps.passwords.verifyDummy("warm-up");

  const seeded =
    config.seed && config.payments === "sandbox"
      ? await seedDemoAccounts(db, { catalog, now: clock.now(), secret, passwordCost })
      : [];

  // Invoices a crash left waiting between their charge's commit and their numbering get their
  // numbers and receipts before anything listens (decision 0062). A failure is logged: the
  // renewal worker's rounds and the next charge's pass number them too.
  await numberWaiting(deps).catch((error: unknown) =>
    log.error("invoices: numbering the waiting invoices at start failed", error),
  );

  const app = createApp(deps);
  registerRoutes(app.routes);
  if (config.clock.settable && isSettableClock(clock)) {
    devClockRoutes(app.routes, { clock, renewals });
  }
  await app.fastify.listen({ port: config.port, host: config.host });
  const server = app.fastify.server;
  const port = (server.address() as AddressInfo).port;
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`;

  mailer.start();
  mailer.kick();
  renewals?.start();
  reconcile?.start();
  // Passes (periodic-pass.ts) rather than bare timers, so that close() waits for a running one
  // before it closes the database: expired rows, hourly.
  const cleanup = new PeriodicPass({
    pass: async () => {
      const now = clock.now();
      await Promise.all([
        db.transaction((tx) => Sessions.deleteExpired(tx, now)),
        db.transaction((tx) => Secrets.deleteExpired(tx, now - DAY_MS)),
        db.transaction((tx) => IdempotencyKeys.deleteOlderThan(tx, now - DAY_MS)),
        db.transaction((tx) => Events.deleteOlderThan(tx, now - 30 * DAY_MS)),
        // Every window is 15 minutes at most: an hour-old bucket is full again.
        deps.limiter.store.sweep(now - 60 * 60 * 1000),
      ]);
    },
    fallback: undefined,
    failure: "cleanup failed",
    log,
    intervalMs: 60 * 60 * 1000,
  });
  cleanup.start();
  // PayPal approvals whose confirm call never came (services/paypal-orphans.ts).
  const orphanSweep = paypal
    ? new PeriodicPass({
        pass: () => sweepPaypalOrphans({ db, catalog, clock, log, paypal, mailer, config }),
        fallback: null,
        failure: "paypal sweep failed",
        log,
        intervalMs: 5 * 60 * 1000,
      })
    : null;
  orphanSweep?.start();
  // The PayPal plan of every catalogue price, in the background: a purchase before it is done
  // (or after it failed, PayPal unreachable) finds or makes its own plan the same way.
  const paypalPlans: Promise<PlanSyncReport | null> =
    paypal && (options.paypalPlans ?? true)
      ? syncPaypalPlans({ db, catalog, clock, log, paypal }).then(
          (report) => {
            log.info(describePlanSync(report, false).join("\n"));
            return report;
          },
          (error: unknown) => {
            log.warn(
              `paypal plans: not synchronised at start (${String(error)}); made on first use`,
            );
            return null;
          },
        )
      : Promise.resolve(null);
  deps.background.add(paypalPlans);
  void paypalPlans.then(() => deps.background.delete(paypalPlans));

  if (!(options.quiet ?? options.log !== undefined)) {
    const lines = [
      `server: API and site at ${url}/ (payments: ${config.payments}, data: ${dataLabel})`,
      ...(seeded.length > 0
        ? [
            `server: created demo accounts, all with the password "${DEMO_PASSWORD}":`,
            ...seeded.map((a) => `  ${a.email.padEnd(34)} ${a.role}`),
          ]
        : []),
      ...(config.local ? [`server: sandbox mailbox at ${url}/dev/mailbox (local runs only)`] : []),
      ...(config.clock.settable
        ? [
            `server: settable clock at ${new Date(clock.now()).toISOString()}: GET or POST ${url}/dev/clock`,
          ]
        : []),
    ];
    log.info(lines.join("\n"));
  }

  let closing: Promise<void> | null = null;
  const running: RunningServer = {
    url,
    port,
    server,
    app,
    deps,
    renewals,
    paypalPlans,
    reconcile,
    close() {
      closing ??= (async () => {
        // Open connections are closed too (forceCloseConnections, app.ts).
        await app.fastify.close();
        await Promise.allSettled([...deps.background]);
        await renewals?.stop();
        await reconcile?.stop();
        await cleanup.stop();
        await orphanSweep?.stop();
        await mailer.stop();
        await db.close();
      })();
      return closing;
    },
  };
  if (programMode) {
    const stop = () => {
      running.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
  }
  return running;
}

async function runAlone(): Promise<void> {
  try {
    await startServer({ handleSignals: true });
  } catch (error) {
    if (error instanceof StartupError) refuseToStart(error, true);
    throw error;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runAlone();
}
