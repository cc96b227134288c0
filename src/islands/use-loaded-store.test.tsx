// @vitest-environment jsdom
// A screen that renders a store in slices (decision 0067) still shows each of its values: the
// one it had at first, a change made before the screen subscribed, and the later ones.
import { act, cleanup, render, screen } from "@testing-library/react";
import { atom, type ReadableAtom } from "nanostores";
import { afterEach, expect, it } from "vitest";
import { useLoadedStore } from "./use-loaded-store.ts";

afterEach(cleanup);

function Plans({ store }: { store: ReadableAtom<string[] | null> }) {
  const plans = useLoadedStore(store);
  if (!plans) return <p>Loading plans…</p>;
  return (
    <ul>
      {plans.map((plan) => (
        <li key={plan}>{plan}</li>
      ))}
    </ul>
  );
}

it("shows the store's value, then each change, the last one winning", async () => {
  const $plans = atom<string[] | null>(null);
  render(<Plans store={$plans} />);
  expect(screen.getByText("Loading plans…")).toBeTruthy();
  await act(async () => {
    $plans.set(["Power"]);
    $plans.set(["Power", "Unlimited"]);
  });
  expect(screen.getAllByRole("listitem").map((item) => item.textContent)).toEqual([
    "Power",
    "Unlimited",
  ]);
});

it("shows a change made between its first render and its subscription", async () => {
  const $plans = atom<string[] | null>(null);
  // Rendered after Plans, before any effect has run: Plans has rendered the old value and has
  // not subscribed yet.
  function ChangeWhileRendering() {
    $plans.set(["Business"]);
    return null;
  }
  await act(async () => {
    render(
      <>
        <Plans store={$plans} />
        <ChangeWhileRendering />
      </>,
    );
  });
  expect(screen.getAllByRole("listitem").map((item) => item.textContent)).toEqual(["Business"]);
});
