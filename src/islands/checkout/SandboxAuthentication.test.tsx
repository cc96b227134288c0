// @vitest-environment jsdom
// The sandbox's bank step in the payment step: shown when the checkout asks for it, the bank's
// page opened in a window of its own from the person's click, and the step over when that window
// answers, is closed (which fails the step at the server, as closing Stripe's does) or is
// cancelled here.
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { scriptedFetch } from "../../client/testing/scripted-fetch.ts";
import { authenticatePayment } from "../../stores/payment-authentication.ts";
import { SandboxAuthentication } from "./SandboxAuthentication.tsx";

const ACTION = {
  paymentId: "ch_sandbox_1",
  clientSecret: "ch_sandbox_1_secret",
  url: "/dev/sandbox/authenticate?payment=ch_sandbox_1",
};

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

async function started(): Promise<{
  done: Promise<boolean>;
  finished: () => boolean;
}> {
  render(<SandboxAuthentication />);
  expect(screen.queryByRole("group", { name: "Payment authentication" })).toBeNull();
  let over = false;
  const done = authenticatePayment(ACTION).then((shown) => {
    over = true;
    return shown;
  });
  await screen.findByText("Your bank asks you to confirm this payment.");
  return { done, finished: () => over };
}

describe("SandboxAuthentication", () => {
  it("opens the bank's page from a click and ends when that page answers", async () => {
    const bank = { closed: false };
    const open = vi.spyOn(window, "open").mockReturnValue(bank as unknown as Window);
    const fetch = scriptedFetch({ status: 200 });
    vi.stubGlobal("fetch", fetch);
    const { done, finished } = await started();
    fireEvent.click(screen.getByRole("button", { name: "Open your bank's page" }));
    expect(open).toHaveBeenCalledWith(ACTION.url, "sandbox-authentication", expect.any(String));
    expect(finished()).toBe(false);
    act(() => {
      window.dispatchEvent(
        new MessageEvent("message", {
          origin: location.origin,
          data: { source: "sandbox-authentication" },
        }),
      );
    });
    expect(await done).toBe(true);
    expect(fetch.sent).toEqual([]);
    await waitFor(() =>
      expect(screen.queryByRole("group", { name: "Payment authentication" })).toBeNull(),
    );
  });

  it("a message from another origin does not end it; closing the window fails the step", async () => {
    const bank = { closed: false };
    vi.spyOn(window, "open").mockReturnValue(bank as unknown as Window);
    const fetch = scriptedFetch({ status: 200 });
    vi.stubGlobal("fetch", fetch);
    const { done, finished } = await started();
    fireEvent.click(screen.getByRole("button", { name: "Open your bank's page" }));
    window.dispatchEvent(
      new MessageEvent("message", {
        origin: "https://evil.example",
        data: { source: "sandbox-authentication" },
      }),
    );
    // The listener answers synchronously: flushing what it would have queued is enough.
    await act(async () => {});
    expect(finished()).toBe(false);
    bank.closed = true;
    expect(await done).toBe(true);
    expect(fetch.sent).toHaveLength(1);
    const [sent] = fetch.sent;
    expect(sent?.url).toBe("/dev/sandbox/authenticate");
    expect(sent?.body).toBe("payment=ch_sandbox_1&action=fail");
  });

  it("cancel fails the step without opening anything", async () => {
    const open = vi.spyOn(window, "open");
    const fetch = scriptedFetch({ status: 200 });
    vi.stubGlobal("fetch", fetch);
    const { done } = await started();
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(await done).toBe(true);
    expect(open).not.toHaveBeenCalled();
    expect(fetch.sent).toHaveLength(1);
  });
});
