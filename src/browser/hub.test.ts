// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import {
  createHubChannel,
  HUB_EVENTS,
  type HubChannelOptions,
  type HubEvent,
  type HubIncoming,
  type HubWindow,
} from "./hub.ts";

const HUB = "https://hub.example";
const OTHER_HUB = "https://classroom.example";
const EVIL = "https://evil.example";

type Sent = { message: unknown; targetOrigin: string };

/** A window inside a frame: its parent records what it receives; `deliver` fires "message". */
function frame(options: { referrer?: string; ancestorOrigins?: string[]; framed?: boolean }) {
  const sent: Sent[] = [];
  const parent = {
    postMessage: (message: unknown, targetOrigin: string) => sent.push({ message, targetOrigin }),
  };
  const listeners = new Set<(event: MessageEvent) => void>();
  const win: HubWindow = {
    parent,
    document: { referrer: options.referrer ?? "" },
    location: options.ancestorOrigins ? { ancestorOrigins: options.ancestorOrigins } : {},
    addEventListener: (_type, listener) => listeners.add(listener),
    removeEventListener: (_type, listener) => listeners.delete(listener),
  };
  if (options.framed === false) win.parent = win as unknown as typeof parent;
  const deliver = (event: { origin: string; source: unknown; data: unknown }) => {
    for (const listener of listeners) listener(event as unknown as MessageEvent);
  };
  return { win, parent, sent, deliver };
}

function channel(
  win: HubWindow,
  hubOrigins: string[] = [HUB, OTHER_HUB],
  extra: Partial<HubChannelOptions> = {},
) {
  return createHubChannel({ window: win, hubOrigins, ...extra });
}

describe("posting to the hub", () => {
  it("sends cart_navigation in the protocol's one shape, to the parent's hub origin", () => {
    const { win, sent } = frame({ referrer: `${HUB}/app#dashboard` });
    const hub = channel(win);
    const location = { pathname: "/cart", search: "?p=buy", hash: "#checkout", extra: "secret" };
    expect(hub.post("cart_navigation", location)).toBe(true);
    expect(sent).toEqual([
      {
        message: {
          source: "checkout",
          version: 1,
          event: "cart_navigation",
          payload: { pathname: "/cart", search: "?p=buy", hash: "#checkout" },
        },
        targetOrigin: HUB,
      },
    ]);
  });

  it("sends every event of spec 4, with a flat detail or none", () => {
    const { win, sent } = frame({ ancestorOrigins: [OTHER_HUB] });
    const hub = channel(win);
    for (const event of HUB_EVENTS.filter((e) => e !== "cart_navigation")) {
      expect(hub.post(event as Exclude<HubEvent, "cart_navigation">)).toBe(true);
    }
    hub.post("checkout_completed_failure", {
      code: "card_declined",
      nested: { no: 1 } as unknown as string,
    });
    expect(sent.map((s) => (s.message as { event: string }).event)).toEqual([
      ...HUB_EVENTS.filter((e) => e !== "cart_navigation"),
      "checkout_completed_failure",
    ]);
    expect(sent.every((s) => s.targetOrigin === OTHER_HUB)).toBe(true);
    expect(sent.at(-1)?.message).toEqual({
      source: "checkout",
      version: 1,
      event: "checkout_completed_failure",
      payload: { code: "card_declined" },
    });
  });

  it("refuses events outside spec 4", () => {
    const { win, sent } = frame({ referrer: HUB });
    const hub = channel(win);
    expect(hub.post("open_dev_tools" as HubEvent)).toBe(false);
    expect(sent).toEqual([]);
  });

  it("sends nothing when not inside a frame", () => {
    const { win, sent } = frame({ referrer: HUB, framed: false });
    const hub = channel(win);
    expect(hub.inFrame).toBe(false);
    expect(hub.post("close_iframe")).toBe(false);
    expect(sent).toEqual([]);
  });

  it("sends nothing when the parent is not an allowed hub, and never to '*'", () => {
    const { win, sent } = frame({ referrer: `${EVIL}/phish`, ancestorOrigins: [EVIL] });
    const hub = channel(win, [HUB, OTHER_HUB, "*"]);
    expect(hub.hubOrigin()).toBeNull();
    expect(hub.post("close_iframe")).toBe(false);
    expect(channel(win, ["*"]).post("close_iframe")).toBe(false);
    expect(sent).toEqual([]);
  });

  it("trusts the browser's ancestor origin over the referrer", () => {
    const { win, sent } = frame({ referrer: `${HUB}/app`, ancestorOrigins: [OTHER_HUB] });
    channel(win).post("close_checkout_modal");
    expect(sent[0]?.targetOrigin).toBe(OTHER_HUB);
  });

  it("with a single hub configured, addresses it even without a referrer", () => {
    const { win, sent } = frame({});
    expect(channel(win, [`${HUB}/some/path`]).post("close_iframe")).toBe(true);
    expect(sent[0]?.targetOrigin).toBe(HUB);
  });

  it("remembers the hub across pages of the frame, whose referrer is the checkout itself", () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (key: string) => store.get(key) ?? null,
      setItem: (key: string, value: string) => void store.set(key, value),
    };
    const first = frame({ referrer: `${OTHER_HUB}/classes` });
    channel(first.win, [HUB, OTHER_HUB], { storage }).post("close_iframe");
    const next = frame({ referrer: "https://checkout.example/cart/plans" });
    channel(next.win, [HUB, OTHER_HUB], { storage }).post("close_iframe");
    expect(next.sent[0]?.targetOrigin).toBe(OTHER_HUB);
  });

  it("keeps working when storage is blocked", () => {
    const storage = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("SecurityError");
      },
    };
    const { win, sent } = frame({ referrer: HUB });
    expect(channel(win, [HUB, OTHER_HUB], { storage }).post("close_iframe")).toBe(true);
    expect(sent).toHaveLength(1);
  });
});

describe("listening to the hub", () => {
  const hello = { source: "hub", version: 1, event: "close", payload: { why: "user" } };

  it("hands on messages from the parent at an allowed origin", () => {
    const { win, parent, deliver } = frame({ referrer: HUB });
    const received: HubIncoming[] = [];
    channel(win).listen((message) => received.push(message));
    deliver({ origin: HUB, source: parent, data: hello });
    expect(received).toEqual([{ event: "close", payload: { why: "user" }, origin: HUB }]);
  });

  it.each([
    ["another origin", { origin: EVIL }],
    ["an allowed origin but another window", { source: {} }],
    ["not the protocol's shape", { data: "close" }],
    ["another protocol version", { data: { ...hello, version: 2 } }],
    ["our own messages echoed back", { data: { ...hello, source: "checkout" } }],
    ["no event name", { data: { source: "hub", version: 1 } }],
  ])("ignores %s", (_, change) => {
    const { win, parent, deliver } = frame({ referrer: HUB });
    const received: HubIncoming[] = [];
    channel(win).listen((message) => received.push(message));
    deliver({ origin: HUB, source: parent, data: hello, ...change });
    expect(received).toEqual([]);
  });

  it("learns the hub's origin from its first valid message", () => {
    const { win, parent, sent, deliver } = frame({ referrer: "" });
    const hub = channel(win);
    expect(hub.post("close_iframe")).toBe(false);
    hub.listen(() => {});
    deliver({ origin: OTHER_HUB, source: parent, data: hello });
    expect(hub.post("close_iframe")).toBe(true);
    expect(sent[0]?.targetOrigin).toBe(OTHER_HUB);
  });

  it("stops when unsubscribed", () => {
    const { win, parent, deliver } = frame({ referrer: HUB });
    const received: HubIncoming[] = [];
    const stop = channel(win).listen((message) => received.push(message));
    stop();
    deliver({ origin: HUB, source: parent, data: hello });
    expect(received).toEqual([]);
  });
});

describe("with a real browser window", () => {
  it("accepts window as it is and knows the top window is not framed", () => {
    const hub = createHubChannel({ window, hubOrigins: [HUB] });
    expect(hub.inFrame).toBe(false);
    expect(hub.post("close_iframe")).toBe(false);
  });

  it("delivers to a parent window through the browser's postMessage", async () => {
    const { win } = frame({ referrer: `${window.location.origin}/dev/hub` });
    win.parent = window;
    const received = new Promise<unknown>((resolve) =>
      window.addEventListener("message", (event) => resolve(event.data), { once: true }),
    );
    createHubChannel({ window: win, hubOrigins: [window.location.origin] }).post("close_iframe");
    expect(await received).toEqual({
      source: "checkout",
      version: 1,
      event: "close_iframe",
      payload: null,
    });
  });
});
