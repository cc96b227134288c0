// Issue 18, item 12: edit details (PUT /api/4/user) no longer turns a stolen session into a
// takeover, nor enumerates addresses, nor sends codes to any address without limit.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { startTestServer, type TestClient, type TestServer } from "../testing/harness.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const PASSWORD = "secret-1";

async function signUp(s: TestServer, email: string): Promise<TestClient> {
  const client = s.client();
  const answer = await client.call(api.signUp, {
    body: { email, password: PASSWORD, firstName: "Eve", lastName: "Editor" },
  });
  if (!answer.ok) throw new Error(answer.body.message);
  return client;
}

async function mailsTo(email: string): Promise<{ subject: string; body: string }[]> {
  const answer = await fetch(
    `${server.running.url}/dev/mailbox?format=json&to=${encodeURIComponent(email)}`,
  );
  return (await answer.json()) as { subject: string; body: string }[];
}

const details = (email: string) => ({
  email,
  firstName: "Eve",
  lastName: "Editor",
  username: email,
});

describe("issue 18, item 12: changing the e-mail address", () => {
  it("needs the current password, and says nothing about the new address without it", async () => {
    const client = await signUp(server, "eve@example.com");
    for (const email of ["new-eve@example.com", "free@demo.test"]) {
      expect(await client.call(api.editUser, { body: details(email) })).toMatchObject({
        status: 400,
        body: { error_code: "current_password_required" },
      });
      expect(
        await client.call(api.editUser, {
          body: { ...details(email), currentPassword: "not-my-password" },
        }),
      ).toMatchObject({ status: 403, body: { error_code: "wrong_password" } });
    }
    expect(await mailsTo("new-eve@example.com")).toEqual([]);
    const info = await client.call(api.userInfo);
    expect(info.ok && info.body.email).toBe("eve@example.com");
    // Names change without the password.
    expect(
      (
        await client.call(api.editUser, {
          body: { ...details("eve@example.com"), firstName: "Eva" },
        })
      ).body,
    ).toMatchObject({ success: true });
  });

  it("keeps the old address until the new one is verified, tells the old one, ends other sessions", async () => {
    const client = await signUp(server, "mover@example.com");
    const other = server.client();
    expect(
      (await other.call(api.signIn, { body: { email: "mover@example.com", password: PASSWORD } }))
        .ok,
    ).toBe(true);

    const changed = await client.call(api.editUser, {
      body: { ...details("moved@example.com"), currentPassword: PASSWORD },
    });
    expect(changed.body).toMatchObject({ success: true, pendingEmail: "moved@example.com" });
    // The old address stays the account's (and its sign-in) until the code is entered.
    const info = await client.call(api.userInfo);
    expect(info.ok && info.body.email).toBe("mover@example.com");
    // The other session is over; this one goes on.
    expect((await other.call(api.userInfo)).status).toBe(401);
    // The code goes to the new address, and only it changes the address.
    const [mail] = await mailsTo("moved@example.com");
    const code = /(\d{6})/.exec(mail?.subject ?? "")?.[1] ?? "";
    expect(code).not.toBe("");
    // The old address is told, with the new one masked and without the code.
    const [notice] = (await mailsTo("mover@example.com")).filter((m) =>
      m.subject.includes("being changed"),
    );
    expect(notice?.body).toContain("m***@example.com");
    expect(notice?.body).not.toContain(code);
    expect(notice?.body).not.toContain("moved@example.com");
    expect((await client.call(api.verifyEmailCode, { body: { code } })).body).toEqual({
      success: true,
    });
    const after = await client.call(api.userInfo);
    expect(after.ok && after.body).toMatchObject({
      email: "moved@example.com",
      emailVerified: true,
    });
    expect(
      (
        await server
          .client()
          .call(api.signIn, { body: { email: "moved@example.com", password: PASSWORD } })
      ).ok,
    ).toBe(true);
  });

  it("is rate-limited like sign-in", async () => {
    const strict = await startTestServer({ rateLimitScale: 1 });
    try {
      const client = await signUp(strict, "limited@example.com");
      const statuses: number[] = [];
      for (let i = 0; i < 25; i++) {
        const answer = await client.call(api.editUser, {
          body: { ...details(`probe${i}@example.com`), currentPassword: "guess" },
        });
        statuses.push(answer.status);
      }
      expect(statuses).toContain(429);
      expect(statuses.filter((s) => s !== 429).length).toBeLessThanOrEqual(20);
    } finally {
      await strict.close();
    }
  });
});
