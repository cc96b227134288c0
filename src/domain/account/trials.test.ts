import { describe, expect, it } from "vitest";
import { trialIdentity, trialOffered, trialRefusal } from "./trials.ts";

describe("trialIdentity: one trial per person, whatever the spelling", () => {
  it.each([
    ["name@example.com", "name@example.com"],
    ["Name@Example.COM", "name@example.com"],
    ["  name@example.com ", "name@example.com"],
    ["name+1@example.com", "name@example.com"],
    ["name+trial+2@example.com", "name@example.com"],
    ["first.last@example.com", "first.last@example.com"],
    ["first.last@gmail.com", "firstlast@gmail.com"],
    ["f.i.r.s.t.last+x@gmail.com", "firstlast@gmail.com"],
    ["First.Last@GoogleMail.com", "firstlast@gmail.com"],
    ["firstlast+promo@googlemail.com", "firstlast@gmail.com"],
    ["name@gmail.com.", "name@gmail.com"],
    ["teacher+a@school.edu", "teacher@school.edu"],
  ])("%s counts as %s", (email, identity) => {
    expect(trialIdentity(email)).toBe(identity);
  });

  it("keeps different people apart", () => {
    expect(trialIdentity("ann@gmail.com")).not.toBe(trialIdentity("anna@gmail.com"));
    expect(trialIdentity("first.last@example.com")).not.toBe(
      trialIdentity("firstlast@example.com"),
    );
    expect(trialIdentity("name@example.com")).not.toBe(trialIdentity("name@example.org"));
  });

  it.each(["", "no-at-sign", "@example.com", "name@", "+tag@example.com"])(
    "refuses %j",
    (email) => {
      expect(trialIdentity(email)).toBe(null);
    },
  );
});

describe("trialOffered and trialRefusal", () => {
  const fresh = {
    hadTrial: false,
    orderState: "unknown",
    isTrial: false,
    isExpiredTrial: false,
    managed: false,
    emailVerified: true,
  };
  it.each<[string, Partial<typeof fresh>, ReturnType<typeof trialRefusal>]>([
    ["a new verified account", {}, null],
    ["a new account whose address is not verified", { emailVerified: false }, "email_not_verified"],
    [
      "an account that had a trial (or whose other spelling did)",
      { hadTrial: true },
      "trial_not_available",
    ],
    ["an account in its trial", { isTrial: true }, "trial_not_available"],
    ["an expired trial", { isExpiredTrial: true, orderState: "trial" }, "trial_not_available"],
    ["a paying account", { orderState: "automatic" }, "trial_not_available"],
    ["a managed account", { managed: true }, "trial_not_available"],
  ])("%s", (_, facts, expected) => {
    expect(trialRefusal({ ...fresh, ...facts })).toBe(expected);
    expect(trialOffered({ ...fresh, ...facts })).toBe(expected !== "trial_not_available");
  });
});
