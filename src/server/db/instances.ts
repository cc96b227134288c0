// Queries of the instances (team workspaces) and invites tables.
import { teamName } from "../../domain/account/team-name.ts";
import type { Queryable } from "./db.ts";
import { mapper } from "./records.ts";

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

const stored = mapper<Instance>("instances", {
  id: ["id", "int"],
  name: ["name", "text"],
  ownerUserId: ["owner_user_id", "int"],
  productCode: ["product_code", "text"],
  maxSeats: ["max_seats", "int"],
  coupon: ["coupon", "text"],
  licensePricingStructure: ["license_pricing_structure", "text"],
  createdAt: ["created_at", "int"],
  disbandedAt: ["disbanded_at", "int"],
});

/**
 * Instances as read: the name follows the team-name rule (domain/account/team-name.ts) whatever
 * was stored before the rule existed, so no call answers markup (issue 18, item 15).
 */
const map = {
  ...stored,
  fromRow(row: Parameters<typeof stored.fromRow>[0]): Instance {
    const instance = stored.fromRow(row);
    return { ...instance, name: teamName(instance.name) };
  },
};

export type Invite = {
  code: string;
  instanceId: number;
  inviterUserId: number | null;
  email: string | null;
  createdAt: number;
  acceptedAt: number | null;
  acceptedBy: number | null;
};

const inviteMap = mapper<Invite>("invites", {
  code: ["code", "text"],
  instanceId: ["instance_id", "int"],
  inviterUserId: ["inviter_user_id", "int"],
  email: ["email", "text"],
  createdAt: ["created_at", "int"],
  acceptedAt: ["accepted_at", "int"],
  acceptedBy: ["accepted_by", "int"],
});

export const Instances = {
  async byId(q: Queryable, id: number): Promise<Instance | null> {
    const row = await q.get("SELECT * FROM instances WHERE id = ? AND disbanded_at IS NULL", [id]);
    return row ? map.fromRow(row) : null;
  },
  async byName(q: Queryable, name: string): Promise<Instance | null> {
    const row = await q.get("SELECT * FROM instances WHERE lower(name) = lower(?)", [name]);
    return row ? map.fromRow(row) : null;
  },
  async byCoupon(q: Queryable, coupon: string): Promise<Instance | null> {
    const row = await q.get(
      "SELECT * FROM instances WHERE lower(coupon) = lower(?) AND disbanded_at IS NULL",
      [coupon],
    );
    return row ? map.fromRow(row) : null;
  },
  async insert(q: Queryable, instance: Omit<Instance, "id">): Promise<number> {
    const { sql, params } = map.insert(instance);
    const row = await q.get<{ id: number }>(`${sql} RETURNING id`, params);
    if (!row) throw new Error("INSERT INTO instances returned no id");
    return row.id;
  },
  /**
   * Reads a workspace for a change to its membership. The no-op UPDATE first takes the row's
   * write lock on PostgreSQL (SQLite runs one writer at a time anyway), so two joins into one
   * team are counted one after the other and cannot both take its last seat.
   */
  async byIdForUpdate(q: Queryable, id: number): Promise<Instance | null> {
    await q.run("UPDATE instances SET max_seats = max_seats WHERE id = ?", [id]);
    return Instances.byId(q, id);
  },
  async update(q: Queryable, id: number, patch: Partial<Omit<Instance, "id">>): Promise<void> {
    const { clause, params } = map.set(patch);
    if (clause === "") return;
    await q.run(`UPDATE instances SET ${clause} WHERE id = ?`, [...params, id]);
  },
};

export const Invites = {
  async byCode(q: Queryable, code: string): Promise<Invite | null> {
    const row = await q.get("SELECT * FROM invites WHERE code = ?", [code]);
    return row ? inviteMap.fromRow(row) : null;
  },
  async insert(q: Queryable, invite: Invite): Promise<void> {
    const { sql, params } = inviteMap.insert(invite);
    await q.run(sql, params);
  },
  /**
   * Invitations to an address not accepted yet: each holds a seat of its team (issue 18 item 3),
   * except `exceptCode`, the one being accepted.
   */
  async countPending(q: Queryable, instanceId: number, exceptCode: string | null = null) {
    const row = await q.get<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM invites
        WHERE instance_id = ? AND email IS NOT NULL AND accepted_at IS NULL AND code <> ?`,
      [instanceId, exceptCode ?? ""],
    );
    return Number(row?.n ?? 0);
  },
  /** The team's newest open invitation (a link for anyone, not bound to an address), if any. */
  async openOf(q: Queryable, instanceId: number): Promise<Invite | null> {
    const row = await q.get(
      `SELECT * FROM invites WHERE instance_id = ? AND email IS NULL
        ORDER BY created_at DESC, code LIMIT 1`,
      [instanceId],
    );
    return row ? inviteMap.fromRow(row) : null;
  },
  /** Marks an invitation accepted; false when someone accepted it first. */
  async accept(q: Queryable, code: string, userId: number, now: number): Promise<boolean> {
    const result = await q.run(
      "UPDATE invites SET accepted_at = ?, accepted_by = ? WHERE code = ? AND accepted_at IS NULL",
      [now, userId, code],
    );
    return result.changes === 1;
  },
};
