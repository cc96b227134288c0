// The routing store reads a query from the search and from inside the hash (issue 22, item 3).
import { afterEach, describe, expect, it } from "vitest";
import { $location, $query, $route, normalizeLocation, startRouter } from "./router.ts";

describe("normalizeLocation", () => {
  it("moves a hash router's query into the search", () => {
    expect(
      normalizeLocation({
        pathname: "/cart",
        search: "",
        hash: "#checkout?p=buy&product=wv_single_12m",
      }),
    ).toEqual({ pathname: "/cart", search: "?p=buy&product=wv_single_12m", hash: "#checkout" });
  });

  it("reads both places, the search first", () => {
    expect(
      normalizeLocation({
        pathname: "/cart",
        search: "?product=wv_unloct17_12m",
        hash: "#checkout?p=buy&product=wv_single_12m",
      }),
    ).toEqual({ pathname: "/cart", search: "?product=wv_unloct17_12m&p=buy", hash: "#checkout" });
  });

  it("leaves a location without a query in the hash as it is", () => {
    const l = { pathname: "/cart", search: "?p=buy", hash: "#plans" };
    expect(normalizeLocation(l)).toBe(l);
    expect(normalizeLocation({ pathname: "/cart", search: "", hash: "#?tab=x" })).toEqual({
      pathname: "/cart",
      search: "?tab=x",
      hash: "",
    });
  });
});

describe("the router on a hash link with a query", () => {
  let stop: (() => void) | null = null;
  afterEach(() => stop?.());

  it("shows the screen, with the query of the hash, and rewrites the address", () => {
    const replaced: string[] = [];
    const location = {
      pathname: "/cart",
      search: "",
      hash: "#checkout?p=buy&product=wv_single_12m",
      href: "",
    };
    const win = {
      location,
      history: {
        replaceState: (_: unknown, __: string, url: string) => replaced.push(url),
        pushState: () => {},
      },
      addEventListener: () => {},
      removeEventListener: () => {},
      document: { addEventListener: () => {}, removeEventListener: () => {} },
    };
    stop = startRouter(win as unknown as Parameters<typeof startRouter>[0]);
    expect($route.get()).toEqual({ kind: "screen", screen: "checkout", via: "hash" });
    expect($query.get().p).toBe("buy");
    expect($query.get().productCode).toBe("wv_single_12m");
    expect($location.get().hash).toBe("#checkout");
    expect(replaced).toEqual(["/cart?p=buy&product=wv_single_12m#checkout"]);
  });
});
