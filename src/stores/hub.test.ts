// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import type { HubWindow } from "../browser/hub.ts";
import { connectHub, holdHubEvents, postToHub } from "./hub.ts";

const HUB = "https://hub.example";

/** A window in the hub's frame whose parent records the events it receives. */
function frame() {
  const events: string[] = [];
  const win: HubWindow = {
    parent: {
      postMessage: (message: unknown) => events.push((message as { event: string }).event),
    },
    document: { referrer: `${HUB}/app` },
    location: {},
    addEventListener: () => {},
    removeEventListener: () => {},
  };
  return { win: win as unknown as Window, events };
}

let stop: (() => void) | null = null;
afterEach(() => {
  stop?.();
  stop = null;
});

describe("events posted before the hub's channel connects", () => {
  it("reach the hub in order once it connects, in the hub's frame", async () => {
    holdHubEvents();
    postToHub("close_checkout_modal");
    postToHub("payment_credit_card");
    const { win, events } = frame();
    stop = await connectHub(win, [HUB]);
    expect(events).toEqual(["cart_navigation", "close_checkout_modal", "payment_credit_card"]);
    // Connected: later events go at once, and the held ones are not sent twice.
    postToHub("close_iframe");
    expect(events).toEqual([
      "cart_navigation",
      "close_checkout_modal",
      "payment_credit_card",
      "close_iframe",
    ]);
  });

  it("are dropped outside the hub's frame, where nothing is held", async () => {
    postToHub("close_iframe");
    const { win, events } = frame();
    stop = await connectHub(win, [HUB]);
    expect(events).toEqual(["cart_navigation"]);
  });
});
