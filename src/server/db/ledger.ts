// The sandbox payment provider's own books: card tokens from the local card form, customers with
// a card attached, card setups the bank asks to confirm, and charges keyed by the provider
// idempotency key (as Stripe keeps them). In production these live at the provider, not here
// (PayPal's approvals: paypal-approvals.ts). Kysely's typed builder (decision 0082).
import type { Insertable, Selectable } from "kysely";
import type { Db, Queryable, SqlValue } from "./db.ts";
import type {
  CardTokensTable,
  SandboxChargesTable,
  SandboxSetupsTable,
} from "./schema-payments.ts";

export type CardToken = {
  id: string;
  numberHash: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  attachError: string | null;
  chargeError: string | null;
  createdAt: number;
  usedAt: number | null;
};

export type SandboxCharge = {
  idempotencyKey: string;
  id: string;
  customerId: string;
  amount: number;
  currency: string;
  description: string;
  errorCode: string | null;
  createdAt: number;
};

function cardTokenOf(r: Selectable<CardTokensTable>): CardToken {
  return {
    id: r.id,
    numberHash: r.number_hash,
    brand: r.brand,
    last4: r.last4,
    expMonth: r.exp_month,
    expYear: r.exp_year,
    attachError: r.attach_error,
    chargeError: r.charge_error,
    createdAt: r.created_at,
    usedAt: r.used_at,
  };
}

export const CardTokens = {
  async insert(q: Queryable, t: Omit<CardToken, "usedAt">): Promise<void> {
    await q.kysely
      .insertInto("card_tokens")
      .values({
        id: t.id,
        number_hash: t.numberHash,
        brand: t.brand,
        last4: t.last4,
        exp_month: t.expMonth,
        exp_year: t.expYear,
        attach_error: t.attachError,
        charge_error: t.chargeError,
        created_at: t.createdAt,
      })
      .execute();
  },
  async get(q: Queryable, id: string): Promise<CardToken | null> {
    const r = await q.kysely
      .selectFrom("card_tokens")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirst();
    return r ? cardTokenOf(r) : null;
  },
  /** Tokens are single use; false when it was used already. */
  async use(q: Queryable, id: string, now: number): Promise<boolean> {
    const r = await q.kysely
      .updateTable("card_tokens")
      .set({ used_at: now })
      .where("id", "=", id)
      .where("used_at", "is", null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },
};

export const SandboxCustomers = {
  async upsert(
    q: Queryable,
    c: { id: string; tokenId: string; email: string; now: number },
  ): Promise<void> {
    await q.kysely
      .insertInto("sandbox_customers")
      .values({ id: c.id, token_id: c.tokenId, email: c.email, created_at: c.now })
      .onConflict((o) =>
        o.column("id").doUpdateSet((e) => ({ token_id: e.ref("excluded.token_id") })),
      )
      .execute();
  },
  async tokenOf(q: Queryable, customerId: string): Promise<string | null> {
    const r = await q.kysely
      .selectFrom("sandbox_customers")
      .select("token_id")
      .where("id", "=", customerId)
      .executeTakeFirst();
    return r?.token_id ?? null;
  },
  /** The customer's saved card forgotten: a charge then finds no card (the provider's detach). */
  async remove(q: Queryable, customerId: string): Promise<void> {
    await q.kysely.deleteFrom("sandbox_customers").where("id", "=", customerId).execute();
  },
};

function chargeRow(c: SandboxCharge): Insertable<SandboxChargesTable> {
  return {
    idempotency_key: c.idempotencyKey,
    id: c.id,
    customer_id: c.customerId,
    amount: c.amount,
    currency: c.currency,
    description: c.description,
    error_code: c.errorCode,
    created_at: c.createdAt,
  };
}

function sandboxChargeOf(r: Selectable<SandboxChargesTable>): SandboxCharge {
  return {
    idempotencyKey: r.idempotency_key,
    id: r.id,
    customerId: r.customer_id,
    amount: r.amount,
    currency: r.currency,
    description: r.description,
    errorCode: r.error_code,
    createdAt: r.created_at,
  };
}

/** A sandbox charge waiting for the customer's authentication (its error_code while it waits). */
export const AWAITING_AUTHENTICATION = "requires_action";

/** A sandbox charge cancelled while it waited (Stripe's `canceled` PaymentIntent): never paid. */
export const CANCELLED_CHARGE = "canceled";

/**
 * A card being saved whose bank asks to confirm it (the sandbox's SetupIntent): saved on the
 * customer only once the step succeeded, when the same save is asked again with its key.
 */
export type SandboxSetup = {
  idempotencyKey: string;
  id: string;
  customerId: string;
  tokenId: string;
  state: "requires_action" | "succeeded" | "failed";
  createdAt: number;
};

function sandboxSetupOf(r: Selectable<SandboxSetupsTable>): SandboxSetup {
  return {
    idempotencyKey: r.idempotency_key,
    id: r.id,
    customerId: r.customer_id,
    tokenId: r.token_id,
    state: r.state as SandboxSetup["state"],
    createdAt: r.created_at,
  };
}

const setups = (q: Queryable) => q.kysely.selectFrom("sandbox_setups").selectAll();

export const SandboxSetups = {
  async byKey(q: Queryable, idempotencyKey: string): Promise<SandboxSetup | null> {
    const r = await setups(q).where("idempotency_key", "=", idempotencyKey).executeTakeFirst();
    return r ? sandboxSetupOf(r) : null;
  },
  async byId(q: Queryable, id: string): Promise<SandboxSetup | null> {
    const r = await setups(q).where("id", "=", id).executeTakeFirst();
    return r ? sandboxSetupOf(r) : null;
  },
  async insert(q: Queryable, s: SandboxSetup): Promise<void> {
    await q.kysely
      .insertInto("sandbox_setups")
      .values({
        idempotency_key: s.idempotencyKey,
        id: s.id,
        customer_id: s.customerId,
        token_id: s.tokenId,
        state: s.state,
        created_at: s.createdAt,
      })
      .execute();
  },
  /** Ends the step once: false when it was settled already. */
  async settle(q: Queryable, id: string, state: "succeeded" | "failed"): Promise<boolean> {
    const r = await q.kysely
      .updateTable("sandbox_setups")
      .set({ state })
      .where("id", "=", id)
      .where("state", "=", "requires_action")
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },
};

const charges = (q: Queryable) => q.kysely.selectFrom("sandbox_charges").selectAll();

export const SandboxCharges = {
  /**
   * What a charge asked under `idempotencyKey` for `customerId` starts from, in one statement:
   * the charge recorded under that key already (null: none), and the charge error the
   * customer's saved card answers with (null: none; undefined: no card saved).
   */
  async beforeCharge(
    q: Queryable,
    idempotencyKey: string,
    customerId: string,
  ): Promise<{ previous: SandboxCharge | null; chargeError: string | null | undefined }> {
    const asked = q.kysely
      .selectNoFrom((e) => [
        e.val(idempotencyKey).as("idempotency_key"),
        e.val(customerId).as("customer_id"),
      ])
      .as("asked");
    const card = q.kysely
      .selectFrom("sandbox_customers")
      .innerJoin("card_tokens", "card_tokens.id", "sandbox_customers.token_id")
      .select(["sandbox_customers.id as customer", "card_tokens.charge_error"])
      .as("card");
    const r = await q.kysely
      .selectFrom(asked)
      .leftJoin("sandbox_charges", "sandbox_charges.idempotency_key", "asked.idempotency_key")
      .leftJoin(card, "card.customer", "asked.customer_id")
      .selectAll("sandbox_charges")
      .select(["card.customer as card_customer", "card.charge_error as card_error"])
      .executeTakeFirst();
    const previous =
      r?.idempotency_key == null ? null : sandboxChargeOf(r as Selectable<SandboxChargesTable>);
    return {
      previous,
      chargeError: r?.card_customer == null ? undefined : (r.card_error ?? null),
    };
  },
  async byKey(q: Queryable, idempotencyKey: string): Promise<SandboxCharge | null> {
    const r = await charges(q).where("idempotency_key", "=", idempotencyKey).executeTakeFirst();
    return r ? sandboxChargeOf(r) : null;
  },
  async byId(q: Queryable, id: string): Promise<SandboxCharge | null> {
    const r = await charges(q).where("id", "=", id).executeTakeFirst();
    return r ? sandboxChargeOf(r) : null;
  },
  /**
   * Ends a charge's authentication with its outcome (null: paid). Only a charge still waiting
   * changes, so two answers to one step (two tabs, a replayed form) settle it once: false when
   * it was settled already.
   */
  async settleAuthentication(q: Queryable, id: string, errorCode: string | null): Promise<boolean> {
    const r = await q.kysely
      .updateTable("sandbox_charges")
      .set({ error_code: errorCode })
      .where("id", "=", id)
      .where("error_code", "=", AWAITING_AUTHENTICATION)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },
  /**
   * Records a charge unless one with its idempotency key exists, in one statement that commits
   * alone (Db.runAlone); false when the key had a charge already.
   */
  async insertFirst(db: Db, c: SandboxCharge): Promise<boolean> {
    const { sql, parameters } = db.kysely
      .insertInto("sandbox_charges")
      .values(chargeRow(c))
      .onConflict((o) => o.column("idempotency_key").doNothing())
      .compile();
    return (await db.runAlone(sql, parameters as SqlValue[])).changes === 1;
  },
  async insert(q: Queryable, c: SandboxCharge): Promise<void> {
    await q.kysely.insertInto("sandbox_charges").values(chargeRow(c)).execute();
  },
  async count(q: Queryable): Promise<number> {
    const r = await q.kysely
      .selectFrom("sandbox_charges")
      .select((e) => e.fn.countAll<number>().as("n"))
      .where("error_code", "is", null)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  },
};
