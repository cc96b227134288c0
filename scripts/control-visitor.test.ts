import { describe, expect, it } from "vitest";
import type { Experiment } from "../src/domain/catalog/catalog-schema.ts";
import { groupFor } from "../src/domain/experiments/assignment.ts";
import { controlVisitorId } from "./control-visitor.ts";

const experiment = (id: string, control: number): Experiment => ({
  id,
  description: "",
  groups: [
    { set: "control", share: control },
    { set: "other", share: 100 - control },
  ],
  plans: ["wv_bizindiv_1m"],
  audiences: ["new"],
  from: 0,
  to: 1,
});

describe("the browser tests' visitor", () => {
  it("is in the control group of every experiment, even small controls", () => {
    const experiments = [experiment("a", 10), experiment("b", 20), experiment("c", 50)];
    const id = controlVisitorId({ experiments });
    for (const x of experiments) expect(groupFor(x, id)).toBe("control");
  });

  it("is in the control group of the built catalogue's experiments", () => {
    expect(controlVisitorId()).toMatch(/^0c0e7701-/);
  });
});
