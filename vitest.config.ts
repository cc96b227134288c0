import { defineConfig } from "vitest/config";

// Unit and component tests sit beside the code. Browser tests live in e2e/ and run in Playwright.
// Tests run in Node by default; a component test opts in to a DOM with a first-line comment
// `// @vitest-environment jsdom`.
export default defineConfig({
  test: {
    include: ["src/**/*.test.{ts,tsx}", "cli/**/*.test.ts", "scripts/**/*.test.ts"],
    exclude: ["e2e/**", "node_modules/**", "dist/**"],
    environment: "node",
    setupFiles: ["./test/setup/fail-on-console-error.ts"],
    restoreMocks: true,
    // Two test files at once (vitest's default is the cores less one: one here). Each file keeps
    // its own module graph (isolation on): without it, 45 s instead of ~100 s, but tests of one
    // file then see state another file left (renewals, the CLI's subscription groups failed).
    maxWorkers: 2,
  },
});
