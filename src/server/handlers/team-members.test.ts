// GET /api/5/team/members and DELETE /api/5/team/members/:id (issue 34, item 3): the owner sees
// the team's members and removes one; the removed member's seat is free at once and they lose the
// team's plan at once; nobody else may remove, the owner not themself, and a member is removed once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { startTestServer, type TestServer } from "../testing/harness.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe("a team owner's members", () => {
  it("lists the owner and the members; the owner removes a member, who loses the plan at once", async () => {
    const owner = await server.signedIn("owner@demo.test");
    const member = await server.signedIn("member@demo.test");
    const before = await member.call(api.userContext);
    expect(before.ok && before.body).toMatchObject({ isUserEnterpriseMember: true });
    expect(before.ok && before.body.productCode).not.toBe("wv_free");

    const list = await owner.call(api.teamMembers);
    if (!list.ok) throw new Error(list.body.message);
    const emails = list.body.members.map((m) => [m.email, m.owner]);
    expect(emails).toContainEqual(["owner@demo.test", true]);
    expect(emails).toContainEqual(["member@demo.test", false]);
    const target = list.body.members.find((m) => m.email === "member@demo.test");
    const self = list.body.members.find((m) => m.owner);
    if (!target || !self) throw new Error("members missing");

    // Only the owner, never the owner themself.
    expect(await member.call(api.teamMembers)).toMatchObject({
      status: 403,
      body: { error_code: "not_instance_owner" },
    });
    expect(
      await member.call(api.removeTeamMember, { params: { id: self.id }, body: {} }),
    ).toMatchObject({ status: 403, body: { error_code: "not_instance_owner" } });
    expect(
      await owner.call(api.removeTeamMember, { params: { id: self.id }, body: {} }),
    ).toMatchObject({ status: 409, body: { error_code: "owner_cannot_leave" } });
    expect(
      await owner.call(api.removeTeamMember, { params: { id: "me" }, body: {} }),
    ).toMatchObject({ status: 400, body: { error_code: "invalid_request" } });

    // Two removals at once: one removes, the other is refused; the seat is freed once.
    const [a, b] = await Promise.all([
      owner.call(api.removeTeamMember, { params: { id: target.id }, body: {} }),
      owner.call(api.removeTeamMember, { params: { id: target.id }, body: {} }),
    ]);
    const answers = [a, b].map((r) => (r.ok ? "removed" : r.body.error_code)).sort();
    expect(answers[1]).toBe("removed");
    expect(["account_busy", "member_not_found"]).toContain(answers[0]);
    const removed = a.ok ? a : b;
    expect(removed.ok && removed.body.usedSeats).toBe(list.body.usedSeats - 1);

    const after = await member.call(api.userContext);
    expect(after.ok && after.body).toMatchObject({
      isUserEnterpriseMember: false,
      productCode: "wv_free",
    });
    const again = await owner.call(api.teamMembers);
    expect(again.ok && again.body.members.map((m) => m.email)).not.toContain("member@demo.test");
    expect(again.ok && again.body.usedSeats).toBe(list.body.usedSeats - 1);
    expect(
      await owner.call(api.removeTeamMember, { params: { id: target.id }, body: {} }),
    ).toMatchObject({ status: 404, body: { error_code: "member_not_found" } });
  });

  it("is refused without a session and to an account that owns no team", async () => {
    expect(await server.client().call(api.teamMembers)).toMatchObject({
      status: 401,
      body: { error_code: "not_authenticated" },
    });
    const free = await server.signedIn("free@demo.test");
    expect(await free.call(api.removeTeamMember, { params: { id: 1 }, body: {} })).toMatchObject({
      status: 403,
      body: { error_code: "not_instance_owner" },
    });
  });
});
