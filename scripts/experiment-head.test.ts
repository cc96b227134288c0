// The bundled head script as the page runs it: the same groupFor as the server's, and small.
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import type { PageExperiment } from "../src/browser/experiment-head.ts";
import { groupFor } from "../src/domain/experiments/assignment.ts";
import { experimentHeadScript } from "../src/view-models/experiments-on-page.ts";
import { bundleExperimentHead, HEAD_SCRIPT_BUDGET } from "./experiment-head.ts";

const experiment: PageExperiment = {
  id: "professional-price-2027",
  groups: [
    { set: "control", share: 50 },
    { set: "sample", share: 50 },
  ],
  from: 0,
  to: 2 ** 52,
};

/** Runs the page's inline script with a visitor id cookie; what it set and sent. */
function runOnPage(script: string, cookie: string) {
  const attributes: Record<string, string> = {};
  const beacons: { url: string; type: string }[] = [];
  runInNewContext(script, {
    document: {
      cookie,
      documentElement: { setAttribute: (n: string, v: string) => (attributes[n] = v) },
    },
    location: { protocol: "https:" },
    crypto: { randomUUID: () => "made-by-the-browser-0000" },
    navigator: { sendBeacon: (url: string, blob: Blob) => beacons.push({ url, type: blob.type }) },
    Blob,
    Date,
  });
  return { attributes, beacons };
}

describe("the bundled head script", () => {
  it("is small and carries no schema library", async () => {
    const { code, inputs } = await bundleExperimentHead();
    expect(Buffer.byteLength(code)).toBeLessThan(HEAD_SCRIPT_BUDGET);
    expect(inputs.some((file) => file.includes("node_modules"))).toBe(false);
    expect(inputs).toContain("src/domain/experiments/assignment.ts");
  });

  it("gives each visitor the group the one groupFor gives, and sends the exposure as JSON", async () => {
    const script = experimentHeadScript((await bundleExperimentHead()).code, [experiment]);
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const vid = `visitor-id-number-${i}`;
      const { attributes, beacons } = runOnPage(script, `vid=${vid}`);
      const group = groupFor(experiment, vid);
      seen.add(group);
      expect(attributes["data-xp"]).toBe(`professional-price-2027:${group}`);
      expect(beacons).toEqual([{ url: "/api/4/experiments/exposures", type: "application/json" }]);
    }
    expect([...seen].sort()).toEqual(["control", "sample"]);
  });
});
