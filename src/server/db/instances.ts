// Queries of the instances (team workspaces) and invites tables. Kysely's typed builder (decision
// 0082).
import type { Selectable, Updateable } from "kysely";
import { teamName } from "../../domain/account/team-name.ts";
import type { Queryable } from "./db.ts";
import type { InstancesTable, InvitesTable } from "./schema.ts";

export type Instance = {
  id: number;
  name: string;
  ownerUserId: number | null;
  productCode: string;
  maxSeats: number;
  coupon: string | null;
  licensePricingStructure: string | null;
  createdAt: number;
  disbandedAt: number | null;
};

/**
 * Instances as read: the name follows the team-name rule (domain/account/team-name.ts) whatever
 * was stored before the rule existed, so no call answers markup (issue 18, item 15).
 */
function instanceOf(r: Selectable<InstancesTable>): Instance {
  return {
    id: Number(r.id),
    name: teamName(r.name),
    ownerUserId: r.owner_user_id,
    productCode: r.product_code,
    maxSeats: r.max_seats,
    coupon: r.coupon,
    licensePricingStructure: r.license_pricing_structure,
    createdAt: r.created_at,
    disbandedAt: r.disbanded_at,
  };
}

const instanceColumns = {
  name: "name",
  ownerUserId: "owner_user_id",
  productCode: "product_code",
  maxSeats: "max_seats",
  coupon: "coupon",
  licensePricingStructure: "license_pricing_structure",
  createdAt: "created_at",
  disbandedAt: "disbanded_at",
} as const satisfies Record<keyof Omit<Instance, "id">, keyof InstancesTable>;

/** The columns of the fields present in `patch` (a field present as undefined is set to NULL). */
function instancePatch(patch: Partial<Omit<Instance, "id">>): Updateable<InstancesTable> {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(instanceColumns)) {
    if (Object.hasOwn(patch, key)) row[column] = patch[key as keyof typeof patch] ?? null;
  }
  return row as Updateable<InstancesTable>;
}

export type Invite = {
  code: string;
  instanceId: number;
  inviterUserId: number | null;
  email: string | null;
  createdAt: number;
  acceptedAt: number | null;
  acceptedBy: number | null;
};

function inviteOf(r: Selectable<InvitesTable>): Invite {
  return {
    code: r.code,
    instanceId: r.instance_id,
    inviterUserId: r.inviter_user_id,
    email: r.email,
    createdAt: r.created_at,
    acceptedAt: r.accepted_at,
    acceptedBy: r.accepted_by,
  };
}

export const Instances = {
  async byId(q: Queryable, id: number): Promise<Instance | null> {
    const row = await q.kysely
      .selectFrom("instances")
      .selectAll()
      .where("id", "=", id)
      .where("disbanded_at", "is", null)
      .executeTakeFirst();
    return row ? instanceOf(row) : null;
  },
  async byName(q: Queryable, name: string): Promise<Instance | null> {
    const row = await q.kysely
      .selectFrom("instances")
      .selectAll()
      .where((e) => e(e.fn("lower", ["name"]), "=", e.fn("lower", [e.val(name)])))
      .executeTakeFirst();
    return row ? instanceOf(row) : null;
  },
  async byCoupon(q: Queryable, coupon: string): Promise<Instance | null> {
    const row = await q.kysely
      .selectFrom("instances")
      .selectAll()
      .where((e) => e(e.fn("lower", ["coupon"]), "=", e.fn("lower", [e.val(coupon)])))
      .where("disbanded_at", "is", null)
      .executeTakeFirst();
    return row ? instanceOf(row) : null;
  },
  async insert(q: Queryable, instance: Omit<Instance, "id">): Promise<number> {
    const row = await q.kysely
      .insertInto("instances")
      .values({
        name: instance.name,
        owner_user_id: instance.ownerUserId,
        product_code: instance.productCode,
        max_seats: instance.maxSeats,
        coupon: instance.coupon,
        license_pricing_structure: instance.licensePricingStructure,
        created_at: instance.createdAt,
        disbanded_at: instance.disbandedAt,
      })
      .returning("id")
      .executeTakeFirst();
    if (!row) throw new Error("INSERT INTO instances returned no id");
    return Number(row.id);
  },
  /**
   * Inserts a workspace unless another has its name, and answers its id, or null when the name
   * is taken: the insert itself claims the name, so two purchases at once never both pick it and
   * neither fails (no unique violation aborts the transaction on PostgreSQL).
   */
  async insertUnlessNameTaken(
    q: Queryable,
    instance: Omit<Instance, "id">,
  ): Promise<number | null> {
    const row = await q.kysely
      .insertInto("instances")
      .values({
        name: instance.name,
        owner_user_id: instance.ownerUserId,
        product_code: instance.productCode,
        max_seats: instance.maxSeats,
        coupon: instance.coupon,
        license_pricing_structure: instance.licensePricingStructure,
        created_at: instance.createdAt,
        disbanded_at: instance.disbandedAt,
      })
      .onConflict((c) => c.column("name").doNothing())
      .returning("id")
      .executeTakeFirst();
    return row ? Number(row.id) : null;
  },
  /**
   * Reads a workspace for a change to its membership. The no-op UPDATE first takes the row's
   * write lock on PostgreSQL (SQLite runs one writer at a time anyway), so two joins into one
   * team are counted one after the other and cannot both take its last seat.
   */
  async byIdForUpdate(q: Queryable, id: number): Promise<Instance | null> {
    await q.kysely
      .updateTable("instances")
      .set((e) => ({ max_seats: e.ref("max_seats") }))
      .where("id", "=", id)
      .execute();
    return Instances.byId(q, id);
  },
  async update(q: Queryable, id: number, patch: Partial<Omit<Instance, "id">>): Promise<void> {
    const row = instancePatch(patch);
    if (Object.keys(row).length === 0) return;
    await q.kysely.updateTable("instances").set(row).where("id", "=", id).execute();
  },
};

export const Invites = {
  async byCode(q: Queryable, code: string): Promise<Invite | null> {
    const row = await q.kysely
      .selectFrom("invites")
      .selectAll()
      .where("code", "=", code)
      .executeTakeFirst();
    return row ? inviteOf(row) : null;
  },
  async insert(q: Queryable, invite: Invite): Promise<void> {
    await q.kysely
      .insertInto("invites")
      .values({
        code: invite.code,
        instance_id: invite.instanceId,
        inviter_user_id: invite.inviterUserId,
        email: invite.email,
        created_at: invite.createdAt,
        accepted_at: invite.acceptedAt,
        accepted_by: invite.acceptedBy,
      })
      .execute();
  },
  /**
   * Invitations to an address not accepted yet: each holds a seat of its team (issue 18 item 3),
   * except `exceptCode`, the one being accepted.
   */
  async countPending(q: Queryable, instanceId: number, exceptCode: string | null = null) {
    const row = await q.kysely
      .selectFrom("invites")
      .select((e) => e.fn.countAll<number | string>().as("n"))
      .where("instance_id", "=", instanceId)
      .where("email", "is not", null)
      .where("accepted_at", "is", null)
      .where("code", "<>", exceptCode ?? "")
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  },
  /** The team's newest open invitation (a link for anyone, not bound to an address), if any. */
  async openOf(q: Queryable, instanceId: number): Promise<Invite | null> {
    const row = await q.kysely
      .selectFrom("invites")
      .selectAll()
      .where("instance_id", "=", instanceId)
      .where("email", "is", null)
      .orderBy("created_at", "desc")
      .orderBy("code")
      .limit(1)
      .executeTakeFirst();
    return row ? inviteOf(row) : null;
  },
  /** Marks an invitation accepted; false when someone accepted it first. */
  async accept(q: Queryable, code: string, userId: number, now: number): Promise<boolean> {
    const result = await q.kysely
      .updateTable("invites")
      .set({ accepted_at: now, accepted_by: userId })
      .where("code", "=", code)
      .where("accepted_at", "is", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },
};
