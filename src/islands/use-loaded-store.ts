// A store whose change shows a large part of the page (start-up done, a screen's data come) is
// rendered in a transition: React renders it in slices of about 5 ms and lets the browser work
// between them. `useStore` (useSyncExternalStore) renders every change at once, in one task that
// runs as long as the whole screen takes: one long task each, what total blocking time counts
// (issue 22 item 12, decision 0067). Not for a store an input's value is bound to: a controlled
// input must see its own keystroke in the same render.

import type { ReadableAtom } from "nanostores";
import { startTransition, useEffect, useState } from "react";

export function useLoadedStore<T>(store: ReadableAtom<T>): T {
  const [value, setValue] = useState(() => store.get());
  useEffect(
    // subscribe() calls back at once with the value now: a change between this render and the
    // effect is not missed.
    () => store.subscribe((next) => startTransition(() => setValue(() => next))),
    [store],
  );
  return value;
}
