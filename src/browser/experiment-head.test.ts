import { describe, expect, it } from "vitest";
import { pageEndpoints } from "../contract/page-endpoints.ts";
import { groupFor } from "../domain/experiments/assignment.ts";
import {
  chooseGroups,
  cookieValue,
  EXPOSURES_PATH,
  type HeadEnvironment,
  type PageExperiment,
  parseXp,
  runExperimentHead,
} from "./experiment-head.ts";

const price: PageExperiment = {
  id: "pro-price",
  groups: [
    { set: "control", share: 50 },
    { set: "low", share: 50 },
  ],
  from: 1_000,
  to: 2_000,
};
const later: PageExperiment = { ...price, id: "later", from: 5_000, to: 6_000 };

/** Visitor ids whose group in `price` is `group` (found by the one groupFor). */
function visitorIn(group: string): string {
  for (let i = 0; i < 1_000; i++) {
    const id = `0000000-visitor-${i}`;
    if (groupFor(price, id) === group) return id;
  }
  throw new Error(`no visitor in ${group}`);
}

/** A document whose cookie jar behaves as the browser's: writing one cookie keeps the others. */
function fakeEnvironment(cookies: Record<string, string>, nowMs = 1_500) {
  const jar = new Map(Object.entries(cookies));
  const written: string[] = [];
  const beacons: { url: string; body: unknown }[] = [];
  const attributes = new Map<string, string>();
  const env: HeadEnvironment = {
    document: {
      get cookie() {
        return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
      },
      set cookie(line: string) {
        written.push(line);
        const [pair = ""] = line.split(";");
        const eq = pair.indexOf("=");
        jar.set(pair.slice(0, eq), pair.slice(eq + 1));
      },
      documentElement: { setAttribute: (name, value) => attributes.set(name, value) },
    },
    secure: true,
    nowMs,
    newId: () => "11111111-2222-4333-8444-555555555555",
    sendBeacon: (url, body) => beacons.push({ url, body: JSON.parse(body) }),
  };
  return { env, written, beacons, attributes, jar };
}

describe("the static pages' experiment head script", () => {
  it("sends its beacon to the contract's exposures entry", () => {
    expect(EXPOSURES_PATH).toBe(pageEndpoints.experimentExposures.path);
    expect(pageEndpoints.experimentExposures.method).toBe("POST");
  });

  it("reads cookies by name, decoded, and nothing for a malformed or missing one", () => {
    const jar = "xvid=no; vid=abc; xp=pro-price%3Alow%7C!; bad=%E0";
    expect(cookieValue(jar, "vid")).toBe("abc");
    expect(cookieValue(jar, "xp")).toBe("pro-price:low|!");
    expect(cookieValue(jar, "bad")).toBeNull();
    expect(cookieValue(jar, "none")).toBeNull();
  });

  it("reads the xp cookie's settled groups and its `!`", () => {
    expect(parseXp("pro-price:low|other:control|!")).toEqual({
      groups: { "pro-price": "low", other: "control" },
      notEnrollable: true,
    });
    expect(parseXp(null)).toEqual({ groups: {}, notEnrollable: false });
  });

  it("gives an unsettled visitor groupFor's group, in both groups, only while the experiment runs", () => {
    for (const group of ["control", "low"]) {
      const id = visitorIn(group);
      expect(chooseGroups([price, later], id, parseXp(null), 1_500)).toEqual([
        { id: "pro-price", group, settled: false },
      ]);
    }
    expect(chooseGroups([price], visitorIn("low"), parseXp(null), 999)).toEqual([]);
    expect(chooseGroups([price], visitorIn("low"), parseXp(null), 2_000)).toEqual([]);
  });

  it("lets the server's xp entry win, gives the control after `!`, and never a group the page lacks", () => {
    const low = visitorIn("low");
    const control = visitorIn("control");
    expect(chooseGroups([price], low, parseXp("pro-price:control"), 1_500)).toEqual([
      { id: "pro-price", group: "control", settled: true },
    ]);
    expect(chooseGroups([price], control, parseXp("pro-price:low"), 1_500)).toEqual([
      { id: "pro-price", group: "low", settled: true },
    ]);
    expect(chooseGroups([price], low, parseXp("!"), 1_500)).toEqual([
      { id: "pro-price", group: "control", settled: true },
    ]);
    expect(chooseGroups([price], low, parseXp("pro-price:gone"), 1_500)).toEqual([
      { id: "pro-price", group: "control", settled: true },
    ]);
  });

  it("makes the vid cookie when there is none, names the group on <html> and sends one exposure", () => {
    const { env, written, beacons, attributes } = fakeEnvironment({});
    runExperimentHead([price, later], env);
    expect(written).toEqual([
      "vid=11111111-2222-4333-8444-555555555555;path=/;max-age=63072000;samesite=lax;secure",
    ]);
    const group = groupFor(price, "11111111-2222-4333-8444-555555555555");
    expect(attributes.get("data-xp")).toBe(`pro-price:${group}`);
    expect(beacons).toEqual([{ url: EXPOSURES_PATH, body: { experiments: ["pro-price"] } }]);
  });

  it("keeps a valid vid, replaces an invalid one, and sends nothing once the server settled", () => {
    const id = visitorIn("low");
    const kept = fakeEnvironment({ vid: id, xp: "pro-price%3Alow" });
    runExperimentHead([price], kept.env);
    expect(kept.written).toEqual([]);
    expect(kept.attributes.get("data-xp")).toBe("pro-price:low");
    expect(kept.beacons).toEqual([]);

    const replaced = fakeEnvironment({ vid: "short" });
    runExperimentHead([price], replaced.env);
    expect(replaced.jar.get("vid")).toBe("11111111-2222-4333-8444-555555555555");
  });

  it("outside every window names no group (the control shows) and sends nothing", () => {
    const { env, beacons, attributes } = fakeEnvironment({ vid: visitorIn("low") }, 3_000);
    runExperimentHead([price, later], env);
    expect(attributes.get("data-xp")).toBe("");
    expect(beacons).toEqual([]);
  });
});
