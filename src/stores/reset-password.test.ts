// The reset-password form (spec 2.7, 4, 5, 8) against a scripted server: idle, human check,
// loader, then success (countdown or campaign message) or error ('RESET' from then on).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createApiClient } from "../client/client.ts";
import { type Step, scriptedFetch } from "../client/testing/scripted-fetch.ts";
import { installApiClient } from "./api.ts";
import {
  $resetCheck,
  $resetPassword,
  installHumanCheck,
  resetResetPassword,
  setResetField,
  submitNewPassword,
} from "./reset-password.ts";
import { $location } from "./router.ts";

function open(hash = "", ...steps: Step[]) {
  const fetch = scriptedFetch(...steps);
  installApiClient(createApiClient({ fetch, version: "test" }));
  $location.set({
    pathname: "/cart/new-password",
    search: "?vc=link-token&email=pat%40example.com",
    hash,
  });
  setResetField("password", "new-secret");
  setResetField("confirm", "new-secret");
  return fetch;
}

beforeEach(() => {
  resetResetPassword();
  installHumanCheck({
    forReset: async ({ vc }) => `answer-for-${vc}`,
    forForgot: async ({ email }) => `answer-for-${email}`,
  });
});
afterEach(() => {
  resetResetPassword();
  vi.useRealTimers();
});

describe("reset password form", () => {
  it("stays disabled until the pair is valid", () => {
    setResetField("password", "secret1");
    expect($resetCheck.get().canSubmit).toBe(false);
    setResetField("confirm", "secret2");
    expect($resetCheck.get().match).toBe("Passwords do not match");
    setResetField("confirm", "secret1");
    expect($resetCheck.get()).toMatchObject({ match: "OK", canSubmit: true });
  });

  it("runs the human check, sends its answer, then counts down from 5", async () => {
    vi.useFakeTimers();
    const fetch = open("", { status: 200, body: { success: true, failedValidations: [] } });
    const done = submitNewPassword();
    expect($resetPassword.get().phase).toBe("human-check");
    await done;
    expect(new URLSearchParams(fetch.sent[0]?.body)).toEqual(
      new URLSearchParams({
        email: "pat@example.com",
        newPassword: "new-secret",
        confirmNewPassword: "new-secret",
        vc: "link-token",
        recaptchaResponse: "answer-for-link-token",
      }),
    );
    expect($resetPassword.get()).toMatchObject({
      phase: "success",
      seconds: 5,
      message: "Success! You will be redirected to login page in 5 seconds",
    });
    vi.advanceTimersByTime(1000);
    expect($resetPassword.get().message).toBe(
      "Success! You will be redirected to login page in 4 seconds",
    );
  });

  it("shows the campaign message without a countdown", async () => {
    open("#campaign", { status: 200, body: { success: true, failedValidations: [] } });
    await submitNewPassword();
    expect($resetPassword.get()).toMatchObject({
      phase: "success",
      seconds: null,
      message: "Success! Your password has been changed",
    });
  });

  it("says the link expired, or the problem message, and the button reads RESET", async () => {
    open("", { status: 200, body: { success: false, failedValidations: [] } }, "network");
    await submitNewPassword();
    expect($resetPassword.get()).toMatchObject({
      phase: "error",
      failedOnce: true,
      message: "This link has expired.",
    });
    await submitNewPassword();
    expect($resetPassword.get().message).toBe(
      "There was a problem sending your new password. Please try again. If the problem persists, please contact the provider's support.",
    );
  });
});
