// The engagement handlers through the API: analytics and error reports, and team names (issue 18
// item 15).

import { describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";

import { Instances } from "../db/instances.ts";
import {
  newAccount,
  server,
  startsEngagementServer,
  verifyAddress,
} from "../testing/engagement-flow.ts";
import { eventKindsAndNames } from "../testing/tables.ts";

startsEngagementServer();

describe("analytics and error reports", () => {
  it("records instrumentation, hubspot events and trackjs reports", async () => {
    const client = await server.signedIn("free@demo.test");
    expect(
      (
        await client.call(api.instrumentation, {
          body: { eventName: "add_to_cart", properties: { plan: "wv_single_12m" } },
        })
      ).body,
    ).toEqual({
      success: true,
    });
    expect(
      (
        await client.call(api.hubspotEvent, {
          params: { id: "pe123" },
          query: { requiredEvent: "true" },
        })
      ).body,
    ).toEqual({ success: true });
    expect(
      (
        await server
          .client()
          .call(api.trackJs, { body: { message: "checkout-prod: boom", url: "/cart" } })
      ).body,
    ).toEqual({ success: true });
    const rows = await eventKindsAndNames(server.running.deps.db);
    expect(rows).toEqual(
      expect.arrayContaining([
        { kind: "instrumentation", name: "add_to_cart" },
        { kind: "hubspot", name: "pe123" },
        { kind: "trackjs", name: "checkout-prod: boom" },
      ]),
    );
    // @ts-expect-error: no eventName, on purpose: the server must refuse it
    expect(await client.call(api.instrumentation, { body: { properties: {} } })).toMatchObject({
      status: 400,
    });
  });
});

describe("issue 18, item 15: team names", () => {
  const MARKUP = "<img src=x onerror=alert(1)>";

  async function businessTrial(email: string, body: { vertical: string; instanceName?: string }) {
    const client = await newAccount(email);
    await verifyAddress(client, email);
    const trial = await client.call(api.activateFreeTrial, {
      body,
      idempotencyKey: `trial-${email}-${Date.now()}`,
    });
    if (!trial.ok) throw new Error(trial.body.message);
    return { client, trial: trial.body };
  }

  it("stores no markup from the trial's instanceName, and the licence and invitation calls answer it safe", async () => {
    const { client, trial } = await businessTrial("markup-trial@example.com", {
      vertical: "business",
      instanceName: `Acme ${MARKUP}`,
    });
    expect(trial.instanceName).not.toMatch(/[<>]/);
    const license = await client.call(api.enterpriseLicense);
    expect(license.ok && license.body.instanceName).toBe(trial.instanceName);
    const made = await client.fetch("/dev/invites", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    const { code } = (await made.json()) as { code: string };
    const info = await server.client().call(api.inviteInfo, { params: { code } });
    expect(info.ok && info.body.instanceName).toBe(trial.instanceName);
  });

  it("stores no markup from desiredInstanceName either", async () => {
    const client = await newAccount("markup-desired@example.com");
    await verifyAddress(client, "markup-desired@example.com");
    await client.call(api.setAttribute, {
      query: { key: "desiredInstanceName", value: MARKUP },
    });
    const trial = await client.call(api.activateFreeTrial, {
      body: { vertical: "business" },
      idempotencyKey: `trial-desired-${Date.now()}`,
    });
    expect(trial.ok && trial.body.instanceName).not.toMatch(/[<>]/);
    const info = await client.call(api.userInfo);
    expect(info.ok && info.body.properties.desiredInstanceName).not.toMatch(/[<>]/);
  });

  it("answers a name stored with markup before the rule safe", async () => {
    const { client, trial } = await businessTrial("markup-old@example.com", {
      vertical: "business",
      instanceName: "Old team",
    });
    const db = server.running.deps.db;
    const instance = await Instances.byName(db, trial.instanceName ?? "");
    if (!instance) throw new Error("the trial made no workspace");
    await Instances.update(db, instance.id, { name: `Old ${MARKUP}` });
    const license = await client.call(api.enterpriseLicense);
    expect(license.ok && license.body.instanceName).not.toMatch(/[<>]/);
  });
});
