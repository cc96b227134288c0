import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { api } from "../../contract/index.ts";
import { resetChallenge, solveChallenge } from "../../domain/account/human-check.ts";
import { scryptHasher } from "../auth/passwords.ts";
import { Users } from "../db/users.ts";
import { startTestServer, type TestServer } from "../testing/harness.ts";
import { forgotAnswer } from "../testing/human-answer.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

type Mail = { to: string; subject: string; body: string };

const sha256 = (text: string) => new Uint8Array(createHash("sha256").update(text).digest());
/** What the browser's sandbox human check sends for this link. */
async function humanAnswer(vc: string, email: string): Promise<string> {
  return (await solveChallenge(resetChallenge(vc, email), sha256)) ?? "";
}

async function mailbox(to: string): Promise<Mail[]> {
  const response = await fetch(
    `${server.running.url}/dev/mailbox?format=json&to=${encodeURIComponent(to)}`,
  );
  return (await response.json()) as Mail[];
}

/** The mailbox of `to` once it holds `count` mails (a reset link is queued after the answer). */
function waitForMail(to: string, count: number): Promise<Mail[]> {
  return vi.waitFor(
    async () => {
      const mails = await mailbox(to);
      expect(mails.length, `mail for ${to}`).toBeGreaterThanOrEqual(count);
      return mails;
    },
    { timeout: 10_000, interval: 10 },
  );
}

/** Waits for the work the server does after answering (the forgotten password's mail), so
 * that an empty mailbox means no mail, not a slow one. */
async function afterTheAnswers(): Promise<void> {
  await Promise.allSettled([...server.running.deps.background]);
}

describe("sign-up", () => {
  it("creates a free account, signs it in and mails an activation code", async () => {
    const client = server.client();
    const answer = await client.call(api.signUp, {
      body: {
        email: "New.Person@Example.com",
        password: "secret-1",
        firstName: "New",
        lastName: "Person",
      },
    });
    expect(answer).toMatchObject({ ok: true, body: { success: true, activationRequired: true } });
    const cookie = answer.headers.getSetCookie()[0] ?? "";
    expect(cookie).toMatch(/^sid=[\w-]{40,}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    const info = await client.call(api.userInfo);
    expect(info.ok && info.body).toMatchObject({
      email: "new.person@example.com",
      emailVerified: false,
      activationRequired: true,
    });
    const [mail] = await waitForMail("new.person@example.com", 1);
    expect(mail?.subject).toMatch(/^Your verification code: \d{6}$/);
  });

  it("refuses a taken e-mail, a blocked domain and a short password", async () => {
    const client = server.client();
    const body = { email: "free@demo.test", password: "secret-1", firstName: "A", lastName: "B" };
    expect(await client.call(api.signUp, { body })).toMatchObject({
      ok: false,
      status: 409,
      body: { error_code: "email_taken" },
    });
    expect(
      await client.call(api.signUp, { body: { ...body, email: "x@mailinator.com" } }),
    ).toMatchObject({
      status: 403,
      body: { error_code: "blocked_domain" },
    });
    expect(
      await client.call(api.signUp, { body: { ...body, email: "y@example.com", password: "abc" } }),
    ).toMatchObject({
      status: 400,
      body: { error_code: "invalid_request" },
    });
  });
});

describe("sign-up with a taken e-mail address (decision 0011)", () => {
  it("spends the same password work as a new address, then answers 409 and changes nothing", async () => {
    let hashes = 0;
    const scrypt = scryptHasher(10);
    const counted = await startTestServer({
      passwords: {
        ...scrypt,
        hash(password) {
          hashes += 1;
          return scrypt.hash(password);
        },
      },
    });
    try {
      const body = { password: "secret-1", firstName: "A", lastName: "B" };
      const before = hashes;
      const fresh = await counted.client().call(api.signUp, {
        body: { ...body, email: "fresh@example.com" },
      });
      expect(fresh).toMatchObject({ status: 200, body: { success: true } });
      expect(hashes - before).toBe(1);

      const users = await Users.count(counted.running.deps.db);
      const taken = await counted.client().call(api.signUp, {
        body: { ...body, email: "free@demo.test" },
      });
      expect(taken).toMatchObject({ status: 409, body: { error_code: "email_taken" } });
      expect(hashes - before).toBe(2);
      expect(taken.headers.getSetCookie()).toEqual([]);
      expect(await Users.count(counted.running.deps.db)).toBe(users);
    } finally {
      await counted.close();
    }
  });
});

describe("sign-in", () => {
  it("answers unknown e-mails and wrong passwords identically", async () => {
    const wrong = await server
      .client()
      .call(api.signIn, { body: { email: "free@demo.test", password: "nope-nope" } });
    const unknown = await server
      .client()
      .call(api.signIn, { body: { email: "nobody@demo.test", password: "nope-nope" } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
  });

  it("renews the session id at every sign-in", async () => {
    const client = await server.signedIn("free@demo.test");
    const first = client.cookieHeader;
    const again = await client.call(api.signIn, {
      body: { email: "free@demo.test", password: "demo-password" },
    });
    expect(again.ok).toBe(true);
    expect(client.cookieHeader).not.toBe(first);
    // The old session no longer works.
    const stale = server.client();
    const info = await stale.fetch(api.userInfo.path, { headers: { cookie: first } });
    expect(info.status).toBe(401);
    expect(await info.json()).toMatchObject({ success: false, error_code: "not_authenticated" });
  });
});

describe("forgot and change password", () => {
  it("sends no link without the human check's answer for that address", async () => {
    const without = await server
      .client()
      .call(api.forgotPassword, { body: { email: "po@demo.test" } });
    const otherAddress = await server.client().call(api.forgotPassword, {
      body: { email: "po@demo.test", recaptchaResponse: await forgotAnswer("free@demo.test") },
    });
    for (const answer of [without, otherAddress]) {
      expect(answer).toMatchObject({
        status: 200,
        body: { success: false, failedValidations: ["humanCheckFailed"] },
      });
    }
    await afterTheAnswers();
    expect(await mailbox("po@demo.test")).toEqual([]);
  });

  it("answers the same for known and unknown e-mails, and mails a single-use link", async () => {
    const known = await server.client().call(api.forgotPassword, {
      body: {
        email: "monthly@demo.test",
        recaptchaResponse: await forgotAnswer("monthly@demo.test"),
      },
    });
    const unknown = await server.client().call(api.forgotPassword, {
      body: {
        email: "ghost@demo.test",
        recaptchaResponse: await forgotAnswer("ghost@demo.test"),
      },
    });
    expect(known).toMatchObject({ ok: true, status: 200, body: { success: true } });
    expect(unknown.body).toEqual(known.body);
    const [mail] = await waitForMail("monthly@demo.test", 1);
    const link = /https?:\/\/\S+/.exec(mail?.body ?? "")?.[0] ?? "";
    const url = new URL(link);
    expect(url.pathname).toBe("/cart/new-password");
    const vc = url.searchParams.get("vc") ?? "";
    expect(Buffer.from(vc, "base64url").length).toBeGreaterThanOrEqual(16);
    await afterTheAnswers();
    expect(await mailbox("ghost@demo.test")).toEqual([]);

    const client = server.client();
    const change = async (
      body: Partial<{
        newPassword: string;
        confirmNewPassword: string;
        vc: string;
        recaptchaResponse: string;
      }>,
    ) =>
      client.call(api.changePassword, {
        body: {
          email: "monthly@demo.test",
          newPassword: "new-secret",
          confirmNewPassword: "new-secret",
          vc,
          recaptchaResponse: await humanAnswer(body.vc ?? vc, "monthly@demo.test"),
          ...body,
        },
      });
    expect((await change({ newPassword: "", confirmNewPassword: "" })).body).toEqual({
      success: false,
      failedValidations: ["emptyPasswords"],
    });
    expect((await change({ newPassword: "abc", confirmNewPassword: "abc" })).body).toEqual({
      success: false,
      failedValidations: ["PasswordTooShort"],
    });
    expect((await change({ confirmNewPassword: "other-secret" })).body).toEqual({
      success: false,
      failedValidations: ["PasswordsNotMatch"],
    });
    // The human check comes first: without its answer, or with another link's, nothing is
    // changed and nothing is said about the link.
    for (const recaptchaResponse of ["", await humanAnswer("other-link", "monthly@demo.test")]) {
      expect((await change({ recaptchaResponse })).body).toEqual({
        success: false,
        failedValidations: ["humanCheckFailed"],
      });
    }
    expect((await change({ vc: "not-a-token" })).body).toEqual({
      success: false,
      failedValidations: [],
    });
    expect((await change({})).body).toEqual({ success: true, failedValidations: [] });
    expect((await change({})).body).toEqual({ success: false, failedValidations: [] });
    await server.signedIn("monthly@demo.test", "new-secret");
  });

  it("lets a reset link expire after an hour", async () => {
    await server.client().call(api.forgotPassword, {
      body: {
        email: "annual@demo.test",
        recaptchaResponse: await forgotAnswer("annual@demo.test"),
      },
    });
    const [mail] = await waitForMail("annual@demo.test", 1);
    const vc =
      new URL(/https?:\/\/\S+/.exec(mail?.body ?? "")?.[0] ?? "").searchParams.get("vc") ?? "";
    server.clock.advance(61 * 60 * 1000);
    const answer = await server.client().call(api.changePassword, {
      body: {
        email: "annual@demo.test",
        newPassword: "new-secret",
        confirmNewPassword: "new-secret",
        vc,
        recaptchaResponse: await humanAnswer(vc, "annual@demo.test"),
      },
    });
    expect(answer.body).toEqual({ success: false, failedValidations: [] });
  });
});

describe("logout", () => {
  it("shows a form on GET and signs out on POST", async () => {
    const client = await server.signedIn("free@demo.test");
    const page = await client.fetch("/login?action=logout&marketplaceId=abc");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(
      '<form method="post" action="/login?action=logout&amp;marketplaceId=abc">',
    );
    expect((await client.call(api.userInfo)).status).toBe(200);
    const out = await client.fetch("/login?action=logout&marketplaceId=abc", { method: "POST" });
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/sign-in");
    expect((await client.call(api.userInfo)).status).toBe(401);
  });
});
