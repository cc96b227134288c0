// Schema migrations, versioned in code and applied in order at start-up. A migration is never
// edited once released: add a new one. Types stay within what PostgreSQL also accepts (INTEGER
// for booleans and millisecond times, TEXT for JSON).
import type { DatabaseSync } from "node:sqlite";

export type Migration = { version: number; name: string; sql: string };

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "accounts, sessions and secrets",
    sql: `
      CREATE TABLE users (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        email TEXT NOT NULL UNIQUE,
        username TEXT NOT NULL UNIQUE,
        first_name TEXT NOT NULL,
        last_name TEXT NOT NULL,
        password_hash TEXT NOT NULL,
        email_verified INTEGER NOT NULL DEFAULT 0,
        activation_required INTEGER NOT NULL DEFAULT 0,
        domain_status TEXT,
        created_at INTEGER NOT NULL,
        last_visit INTEGER,
        locale TEXT NOT NULL DEFAULT 'en_US',
        properties TEXT NOT NULL DEFAULT '{}',
        privacy TEXT NOT NULL DEFAULT '{}',
        session_properties TEXT NOT NULL DEFAULT '{}',
        country TEXT,
        state_code TEXT,
        address TEXT,
        instance_id INTEGER,
        enterprise_role TEXT,
        member_state TEXT,
        sso_type TEXT,
        itunes_subscription INTEGER NOT NULL DEFAULT 0,
        android_subscription INTEGER NOT NULL DEFAULT 0,
        google_wallet_subscription INTEGER NOT NULL DEFAULT 0,
        disable_account_upgrades INTEGER NOT NULL DEFAULT 0,
        price_testing_group TEXT,
        price_testing_group_value TEXT,
        price_campaign_key TEXT,
        payment_customer TEXT,
        card_brand TEXT,
        card_last4 TEXT,
        paypal_subscription_id TEXT,
        previous_trial_owner INTEGER NOT NULL DEFAULT 0,
        previous_trial_product TEXT,
        applied_coupon TEXT
      );
      CREATE TABLE sessions (
        id_hash TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX sessions_user ON sessions(user_id);
      CREATE TABLE secrets (
        hash TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        used_at INTEGER,
        attempts INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX secrets_user_kind ON secrets(user_id, kind);
    `,
  },
  {
    version: 2,
    name: "subscriptions, instances and invitations",
    sql: `
      CREATE TABLE instances (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL UNIQUE,
        owner_user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
        product_code TEXT NOT NULL,
        max_seats INTEGER NOT NULL,
        coupon TEXT UNIQUE,
        license_pricing_structure TEXT,
        created_at INTEGER NOT NULL,
        disbanded_at INTEGER
      );
      CREATE TABLE subscriptions (
        user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        product_code TEXT NOT NULL,
        order_state TEXT NOT NULL,
        prev_order_state TEXT,
        order_id TEXT,
        order_start INTEGER,
        order_end INTEGER,
        term_months INTEGER,
        seats INTEGER NOT NULL DEFAULT 1,
        paid_cents INTEGER NOT NULL DEFAULT 0,
        payment_processor TEXT,
        covid_promotion INTEGER NOT NULL DEFAULT 0,
        expired_flag INTEGER NOT NULL DEFAULT 0,
        cc_required_for_trial INTEGER NOT NULL DEFAULT 0,
        upcoming_purchase_order INTEGER NOT NULL DEFAULT 0,
        export_credits INTEGER NOT NULL DEFAULT 0,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE invites (
        code TEXT PRIMARY KEY,
        instance_id INTEGER NOT NULL REFERENCES instances(id) ON DELETE CASCADE,
        inviter_user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
        email TEXT,
        created_at INTEGER NOT NULL,
        accepted_at INTEGER,
        accepted_by INTEGER
      );
    `,
  },
  {
    version: 3,
    name: "orders, idempotency and the payment ledgers",
    sql: `
      CREATE TABLE orders (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        user_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        product_code TEXT NOT NULL,
        product_name TEXT NOT NULL,
        seats INTEGER NOT NULL,
        add_ons TEXT NOT NULL DEFAULT '[]',
        sub_total INTEGER NOT NULL,
        sales_tax INTEGER NOT NULL,
        total INTEGER NOT NULL,
        list_price INTEGER NOT NULL,
        prorate_amount INTEGER NOT NULL DEFAULT 0,
        currency TEXT NOT NULL DEFAULT 'USD',
        processor TEXT,
        charge_ref TEXT,
        invoice_id TEXT UNIQUE,
        period_start INTEGER NOT NULL,
        period_end INTEGER,
        term_months INTEGER NOT NULL,
        coupon TEXT,
        idempotency_key TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX orders_user ON orders(user_id, created_at);
      CREATE TABLE idempotency_keys (
        user_id INTEGER NOT NULL,
        key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        state TEXT NOT NULL,
        owner TEXT NOT NULL,
        status INTEGER,
        response TEXT,
        created_at INTEGER NOT NULL,
        completed_at INTEGER,
        PRIMARY KEY (user_id, key)
      );
      CREATE TABLE card_tokens (
        id TEXT PRIMARY KEY,
        number_hash TEXT NOT NULL,
        brand TEXT NOT NULL,
        last4 TEXT NOT NULL,
        exp_month INTEGER NOT NULL,
        exp_year INTEGER NOT NULL,
        attach_error TEXT,
        charge_error TEXT,
        created_at INTEGER NOT NULL,
        used_at INTEGER
      );
      CREATE TABLE sandbox_customers (
        id TEXT PRIMARY KEY,
        token_id TEXT NOT NULL,
        email TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE sandbox_charges (
        idempotency_key TEXT PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        customer_id TEXT NOT NULL,
        amount INTEGER NOT NULL,
        currency TEXT NOT NULL,
        description TEXT NOT NULL,
        error_code TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE paypal_approvals (
        id TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL,
        product_code TEXT NOT NULL,
        seats INTEGER NOT NULL,
        add_ons TEXT NOT NULL,
        coupon TEXT,
        total INTEGER NOT NULL,
        return_url TEXT NOT NULL,
        state TEXT NOT NULL,
        order_id TEXT,
        created_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 4,
    name: "outbox and events",
    sql: `
      CREATE TABLE outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        recipient TEXT NOT NULL,
        subject TEXT NOT NULL,
        body TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        sent_at INTEGER,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT
      );
      CREATE TABLE events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        user_id INTEGER,
        payload TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX events_kind ON events(kind, created_at);
    `,
  },
  {
    version: 5,
    name: "account locks and scheduled plan changes",
    sql: `
      CREATE TABLE account_locks (
        user_id INTEGER PRIMARY KEY,
        holder TEXT NOT NULL,
        acquired_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      ALTER TABLE subscriptions ADD COLUMN pending_product_code TEXT;
      ALTER TABLE subscriptions ADD COLUMN pending_seats INTEGER;
      ALTER TABLE subscriptions ADD COLUMN pending_at INTEGER;
    `,
  },
  {
    version: 6,
    name: "renewals: anchored periods and one claim per period",
    sql: `
      ALTER TABLE subscriptions ADD COLUMN period_anchor INTEGER;
      ALTER TABLE subscriptions ADD COLUMN period_index INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE subscriptions ADD COLUMN recurring_campaign TEXT;
      UPDATE subscriptions SET period_anchor = order_start WHERE period_anchor IS NULL;
      CREATE INDEX subscriptions_order_end ON subscriptions(order_end);
      CREATE TABLE renewals (
        id TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL,
        period_anchor INTEGER NOT NULL,
        period_index INTEGER NOT NULL,
        period_start INTEGER NOT NULL,
        period_end INTEGER NOT NULL,
        product_code TEXT NOT NULL,
        seats INTEGER NOT NULL,
        sub_total INTEGER NOT NULL,
        sales_tax INTEGER NOT NULL,
        amount INTEGER NOT NULL,
        processor TEXT NOT NULL,
        state TEXT NOT NULL,
        attempts INTEGER NOT NULL,
        next_attempt_at INTEGER NOT NULL,
        worker TEXT,
        order_id TEXT,
        last_error TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        UNIQUE (user_id, period_anchor, period_index)
      );
      CREATE INDEX renewals_user ON renewals(user_id, state);
    `,
  },
  {
    // 8: version 7 is taken on the PostgreSQL branch (leases and claims). Versions are applied
    // by whether they are recorded, not by the highest one, so the two may land in any order.
    version: 8,
    name: "orders record the catalogue version and price set they were priced with",
    sql: `
      ALTER TABLE orders ADD COLUMN catalog_version TEXT;
      ALTER TABLE orders ADD COLUMN price_set TEXT;
    `,
  },
];

/** Applies the migrations not applied yet, each in its own transaction. Returns the versions applied. */
export function migrate(db: DatabaseSync, now: number, migrations = MIGRATIONS): number[] {
  db.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
  );
  const applied = new Set(
    (db.prepare("SELECT version FROM schema_migrations").all() as { version: number }[]).map(
      (row) => row.version,
    ),
  );
  const done: number[] = [];
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (applied.has(migration.version)) continue;
    db.exec("BEGIN IMMEDIATE");
    try {
      db.exec(migration.sql);
      db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(
        migration.version,
        migration.name,
        now,
      );
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw new Error(
        `Migration ${migration.version} (${migration.name}) failed: ${String(error)}`,
      );
    }
    done.push(migration.version);
  }
  return done;
}
