// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { enhanceScript } from "./enhance-script.ts";

const from = Date.UTC(2026, 10, 27, 5);
const to = Date.UTC(2026, 11, 1, 5);

function run(atMs: number, search = ""): void {
  vi.setSystemTime(atMs);
  window.history.replaceState({}, "", `/plans${search}`);
  new Function(enhanceScript)();
}

const visible = (selector: string) => !(document.querySelector(selector) as HTMLElement).hidden;

beforeEach(() => {
  vi.useFakeTimers();
  // The markup the components render (PriceOption, PlansScreen, SiteFooter, SeatCalculator).
  document.body.innerHTML = `
    <div id="regular" data-off="${from} ${to}">$4.99</div>
    <div id="deal" data-on="${from} ${to}" hidden>$2.50</div>
    <input type="radio" name="tab" id="tab-personal" checked><input type="radio" name="tab" id="tab-education">
    <span data-year>2025</span>
    <form action="/cart#checkout"><input id="seats" min="30" value="30" data-bands="1 30 37400 0,31 100 37400 1199,101 200 121330 1149">
    <output id="seats-total">$374.00</output><button>Buy</button><a id="seats-quote" href="/orders?seats=201">Quote</a></form>`;
});

afterEach(() => {
  vi.useRealTimers();
});

describe("enhance script: campaign windows", () => {
  it("keeps the regular price until the window opens", () => {
    run(from - 1);
    expect([visible("#regular"), visible("#deal")]).toEqual([true, false]);
  });

  it("shows the campaign price from the first millisecond of the window", () => {
    run(from);
    expect([visible("#regular"), visible("#deal")]).toEqual([false, true]);
  });

  it("still shows it on the last millisecond", () => {
    run(to - 1);
    expect([visible("#regular"), visible("#deal")]).toEqual([false, true]);
  });

  it("returns to the regular price when the window closes (validTo is exclusive)", () => {
    run(to);
    expect([visible("#regular"), visible("#deal")]).toEqual([true, false]);
  });
});

describe("enhance script: page state", () => {
  it("writes the visitor's current year", () => {
    run(Date.UTC(2031, 5, 1));
    expect(document.querySelector("[data-year]")?.textContent).toBe("2031");
  });

  it("opens the tab named by ?tab= and ignores unknown ones", () => {
    run(from, "?tab=education");
    expect((document.getElementById("tab-education") as HTMLInputElement).checked).toBe(true);
    run(from, "?tab=nonsense");
    expect((document.getElementById("tab-education") as HTMLInputElement).checked).toBe(true);
  });
});

describe("enhance script: seat calculator", () => {
  const seats = () => document.getElementById("seats") as HTMLInputElement;
  const type = (value: string) => {
    seats().value = value;
    seats().dispatchEvent(new Event("input"));
  };
  const total = () => document.getElementById("seats-total")?.textContent;
  const quote = () => {
    const url = new URL((document.getElementById("seats-quote") as HTMLAnchorElement).href);
    return `${url.pathname}${url.search}`;
  };

  it("shows the total of each band as seats change", () => {
    run(from);
    expect(total()).toBe("$374.00");
    type("45");
    expect(total()).toBe("$553.85");
    type("150");
    expect(total()).toBe("$1,787.80");
  });

  it("shows no total below the minimum or for a fraction", () => {
    run(from);
    type("29");
    expect(total()).toBe("–");
    type("40.5");
    expect(total()).toBe("–");
  });

  it("sends more seats than the top band to the quote page", () => {
    run(from);
    type("250");
    expect(quote()).toBe("/orders?seats=250");
    expect(visible("form button")).toBe(false);
    type("60");
    expect(quote()).toBe("/orders?seats=201");
    expect(visible("form button")).toBe(true);
  });
});

describe("enhance script: budget", () => {
  it("stays under 1 KB, the issue's budget for all inline JavaScript of a page", () => {
    expect(new TextEncoder().encode(enhanceScript).length).toBeLessThan(1024);
  });
});
