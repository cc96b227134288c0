// The facades stand in for React and prop-types in the production build of the payment
// providers' React bindings (decision 0019): every React function a binding uses must be there,
// or it is undefined in the built site, where the component tests (on the real React) cannot see.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import PropTypes from "./prop-types.ts";
import ReactFacade from "./react.ts";

const require = createRequire(import.meta.url);
/** Each binding's ES module, the file the site's build bundles. */
const BINDINGS = {
  "@stripe/react-stripe-js": "dist/react-stripe.esm.mjs",
  "@paypal/react-paypal-js": "dist/esm/react-paypal-js.js",
};

/** The React functions a binding's ES module uses: `React.x` and named imports from "react". */
function reactUses(name: keyof typeof BINDINGS): string[] {
  // The package's folder: its main file's path up to the package name.
  const main = require.resolve(name);
  const root = `${main.slice(0, main.indexOf(name) + name.length)}/`;
  const code = readFileSync(`${root}${BINDINGS[name]}`, "utf8");
  const uses = new Set<string>();
  for (const m of code.matchAll(/\bReact\.([a-zA-Z]+)\b/g)) uses.add(m[1] ?? "");
  const named = /import React, \{([^}]*)\} from ['"]react['"]/.exec(code)?.[1] ?? "";
  for (const part of named.split(",")) if (part.trim()) uses.add(part.trim());
  // A type in a comment, never called.
  uses.delete("FC");
  return [...uses].sort();
}

describe("the payment SDK facades", () => {
  it.each(Object.keys(BINDINGS) as (keyof typeof BINDINGS)[])(
    "give %s every React function it uses",
    (name) => {
      const uses = reactUses(name);
      expect(uses.length).toBeGreaterThan(3);
      const missing = uses.filter((fn) => !(fn in ReactFacade));
      expect(missing).toEqual([]);
    },
  );

  it("answer every prop-types checker with a no-op, required or not, shaped or not", () => {
    expect(PropTypes.any?.()).toBe(PropTypes.object);
    expect(PropTypes.shape?.().isRequired).toBe(PropTypes.func);
  });
});
