// Asking for a reset link (issue 22, item 2) against a scripted server: the field check, the
// human check's answer in the request, the same words for every address, and the failures.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApiClient } from "../client/client.ts";
import { type Step, scriptedFetch } from "../client/testing/scripted-fetch.ts";
import { installApiClient } from "./api.ts";
import {
  $forgotPassword,
  FORGOT_MESSAGES,
  requestResetLink,
  resetForgotPassword,
} from "./forgot-password.ts";
import { installHumanCheck } from "./reset-password.ts";

function server(...steps: Step[]) {
  const fetch = scriptedFetch(...steps);
  installApiClient(createApiClient({ fetch, version: "test" }));
  return fetch;
}

beforeEach(() => {
  resetForgotPassword();
  installHumanCheck({
    forReset: async ({ vc }) => `answer-for-${vc}`,
    forForgot: async ({ email }) => `answer-for-${email}`,
  });
});
afterEach(() => resetForgotPassword());

describe("asking for a reset link", () => {
  it("sends the address with the human check's answer and says the same for every address", async () => {
    const fetch = server({ status: 200, body: { success: true } });
    const done = requestResetLink(" pat@example.com ");
    expect($forgotPassword.get().phase).toBe("human-check");
    await done;
    expect(JSON.parse(fetch.sent[0]?.body ?? "{}")).toEqual({
      email: "pat@example.com",
      recaptchaResponse: "answer-for-pat@example.com",
    });
    expect($forgotPassword.get()).toMatchObject({ phase: "sent", email: "pat@example.com" });
    expect(FORGOT_MESSAGES.sent("pat@example.com")).toMatch(/^If an account uses pat@example\.com/);
  });

  it("checks the field before sending anything", async () => {
    const fetch = server();
    await requestResetLink("");
    expect($forgotPassword.get()).toMatchObject({ phase: "error", problem: FORGOT_MESSAGES.empty });
    await requestResetLink("not-an-email");
    expect($forgotPassword.get().problem).toBe(FORGOT_MESSAGES.invalid);
    expect(fetch.sent).toEqual([]);
  });

  it("says what failed: the human check, or the call (too many requests)", async () => {
    server(
      { status: 200, body: { success: false, failedValidations: ["humanCheckFailed"] } },
      {
        status: 429,
        body: { success: false, message: "Too many attempts", error_code: "rate_limited" },
      },
    );
    await requestResetLink("pat@example.com");
    expect($forgotPassword.get()).toMatchObject({
      phase: "error",
      problem: FORGOT_MESSAGES.problem,
    });
    await requestResetLink("pat@example.com");
    expect($forgotPassword.get()).toMatchObject({ phase: "error", failure: { status: 429 } });
  });
});
