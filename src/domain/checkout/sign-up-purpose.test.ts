import { describe, expect, it } from "vitest";
import { planNameForPurpose, signUpPurpose } from "./sign-up-purpose.ts";

describe("signUpPurpose", () => {
  it("names the trial or the plan the account is for", () => {
    expect(signUpPurpose("trial", "Business")).toBe(
      "Create your account to start your Business trial",
    );
    expect(signUpPurpose("trial", null)).toBe("Create your account to start your free trial");
    expect(signUpPurpose("buy", "Unlimited")).toBe("Create your account to buy Unlimited");
  });

  it("says nothing for a plain sign-up", () => {
    expect(signUpPurpose(null, null)).toBeNull();
    expect(signUpPurpose("buy", null)).toBeNull();
  });

  it("does not say trial twice", () => {
    expect(planNameForPurpose("Business trial")).toBe("Business");
    expect(planNameForPurpose("Business")).toBe("Business");
  });
});
