import { describe, expect, it } from "vitest";
import type { Experiment } from "../catalog/catalog-schema.ts";
import { groupFor } from "./assignment.ts";
import {
  audienceOf,
  choiceOf,
  type EnrolmentFacts,
  mayEnrol,
  standings,
  VISITOR,
  xpCookieValue,
} from "./enrolment.ts";
import { priceSetForPlan } from "./price-choice.ts";

const experiment: Experiment = {
  id: "pro-price",
  description: "",
  groups: [
    { set: "control", share: 50 },
    { set: "sample", share: 50 },
  ],
  plans: ["wv_bizindiv_1m"],
  audiences: ["new", "former"],
  from: 1_000,
  to: 2_000,
};
const catalog = { experiments: [experiment], priceSets: [] };
const subscriber: EnrolmentFacts = { payingSubscriber: true, inTrial: false, everPaid: true };
const trial: EnrolmentFacts = { payingSubscriber: false, inTrial: true, everPaid: false };
const former: EnrolmentFacts = { payingSubscriber: false, inTrial: false, everPaid: true };
const vid = "0b6a1f64-1c8e-4b57-9a0e-2f3c5d6e7f80";

describe("enrolment", () => {
  it("puts each customer in one audience, and a paying subscriber in none", () => {
    expect(audienceOf(VISITOR)).toBe("new");
    expect(audienceOf(trial)).toBe("trial");
    expect(audienceOf(former)).toBe("former");
    expect(audienceOf(subscriber)).toBeNull();
    expect(mayEnrol(experiment, VISITOR)).toBe(true);
    expect(mayEnrol(experiment, former)).toBe(true);
    expect(mayEnrol(experiment, trial)).toBe(false);
    expect(mayEnrol({ audiences: ["new", "trial", "former"] }, subscriber)).toBe(false);
  });

  it("enrols an eligible visitor in the group the shares give, unrecorded", () => {
    const [s] = standings(catalog, { visitorId: vid, facts: VISITOR, recorded: {}, atMs: 1_500 });
    expect(s).toEqual({ experiment, group: groupFor(experiment, vid), recorded: false });
  });

  it("never newly enrols a subscriber, but keeps the group recorded before", () => {
    const input = { visitorId: vid, facts: subscriber, atMs: 1_500 };
    const none = standings(catalog, { ...input, recorded: {} });
    expect(none[0]?.group).toBeNull();
    const kept = standings(catalog, { ...input, recorded: { "pro-price": "sample" } });
    expect(kept).toEqual([{ experiment, group: "sample", recorded: true }]);
    expect(priceSetForPlan(catalog, choiceOf(kept, null), "wv_bizindiv_1m")).toBe("sample");
    expect(priceSetForPlan(catalog, choiceOf(none, null), "wv_bizindiv_1m")).toBeNull();
  });

  it("lets the recorded group win over the shares, and ignores experiments outside their window", () => {
    const other = groupFor(experiment, vid) === "sample" ? "control" : "sample";
    const at = { visitorId: vid, facts: VISITOR, recorded: { "pro-price": other } };
    expect(standings(catalog, { ...at, atMs: 1_500 })[0]?.group).toBe(other);
    expect(standings(catalog, { ...at, atMs: 2_000 })).toEqual([]);
  });

  it("writes the xp cookie: settled groups, and ! when someone may not be enrolled", () => {
    const enrolled = standings(catalog, {
      visitorId: vid,
      facts: VISITOR,
      recorded: {},
      atMs: 1_500,
    });
    expect(xpCookieValue(enrolled, VISITOR)).toBe(`pro-price:${groupFor(experiment, vid)}`);
    const sub = standings(catalog, {
      visitorId: vid,
      facts: subscriber,
      recorded: {},
      atMs: 1_500,
    });
    expect(xpCookieValue(sub, subscriber)).toBe("!");
    const kept = standings(catalog, {
      visitorId: vid,
      facts: subscriber,
      recorded: { "pro-price": "sample" },
      atMs: 1_500,
    });
    expect(xpCookieValue(kept, subscriber)).toBe("pro-price:sample|!");
  });
});
