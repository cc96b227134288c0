// `npm run screens`: a screenshot of every screen and state of the checkout and the account page
// (issue 34), at 1280 and 375 px, into screens/ (git-ignored), for a person to look at: anonymous,
// free, trial, paying, team owner, member, App Store and expired accounts; the checkout empty,
// filled and refused; the account page (a team owner's Remove, Delete my account and its outcome,
// Update card); each completed page. It builds the site only when dist/
// is older than the sources, serves it on a free port with a fresh database (the demo accounts
// seeded, password demo-password), and drives Debian's Chromium (scripts/find-chromium.ts).
// A shot that fails is reported and the others are still taken.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type BrowserContext, chromium, type Page } from "@playwright/test";
import { browserApi } from "../e2e/cart/api-helpers.ts";
import { fillCard } from "../e2e/cart/purchase-helpers.ts";
import { chromiumArgs, findTestBrowser } from "./find-chromium.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const dist = join(root, "dist");
const out = join(root, process.env.SCREENS_DIR ?? "screens");
const WIDTHS = [1280, 375] as const;
const PASSWORD = "demo-password";

/** The newest modification time under `dir` (files only). */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/** Builds the catalogue and the site when dist/ is missing or older than what it is built from. */
function buildIfStale(): void {
  const built = join(dist, "cart", "index.html");
  const sources = Math.max(newest(join(root, "src")), newest(join(root, "catalog")));
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return;
  console.log("screens: dist/ is older than the sources; building it");
  for (const args of [
    ["cli/bin.cjs", "build"],
    ["node_modules/astro/bin/astro.mjs", "build"],
  ]) {
    const run = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit" });
    if (run.status !== 0) throw new Error(`screens: ${args.join(" ")} failed`);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** One state to photograph: who is signed in (a demo account, a new one, or nobody), what to do. */
type Shot = {
  name: string;
  /**
   * A seeded demo account; a fresh free account ("new"), verified ("new-verified") or with a
   * verified school address ("new-school"); or null for a visitor.
   */
  as: string | null;
  /** Arranges the state (a purchase through the API, a form filled) and leaves the page on it. */
  go(page: Page, context: BrowserContext): Promise<void>;
};

const at =
  (path: string, ready?: (page: Page) => Promise<unknown>) =>
  async (page: Page): Promise<void> => {
    await page.goto(path);
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    await (ready ? ready(page) : page.locator(".busy").first().waitFor({ state: "detached" }));
  };

const checkout = "/cart?p=buy&product=wv_unloct17_12m#checkout";

async function pay(page: Page, card: string): Promise<void> {
  await page.goto(checkout);
  await page.getByRole("button", { name: /^Pay \$/ }).waitFor();
  await fillCard(page, card);
  await page.getByRole("button", { name: /^Pay \$/ }).click();
}

const SHOTS: Shot[] = [
  { name: "anonymous-plans", as: null, go: at("/cart/plans") },
  {
    name: "anonymous-sign-up-business-trial",
    as: null,
    go: at("/cart?p=trial&product=wv_bizoct17_12m&tier=business#checkout", (p) =>
      p.getByText(/Create your account/).waitFor(),
    ),
  },
  { name: "anonymous-sign-in", as: null, go: at("/cart/login") },
  { name: "free-plans", as: "free@demo.test", go: at("/cart/plans") },
  { name: "free-account", as: "free@demo.test", go: at("/cart/home") },
  { name: "trial-account", as: "trial@demo.test", go: at("/cart/home") },
  { name: "paying-monthly-account", as: "monthly@demo.test", go: at("/cart/home") },
  { name: "paying-annual-paypal-account", as: "annual@demo.test", go: at("/cart/home") },
  { name: "team-owner-account", as: "owner@demo.test", go: at("/cart/home") },
  {
    name: "team-owner-remove-member",
    as: "owner@demo.test",
    go: at("/cart/home", async (page) => {
      // The confirmation only: removing would change the demo team the other shots show.
      const row = page.getByRole("listitem").filter({ hasText: "member@demo.test" });
      await row.getByRole("button", { name: /^Remove/ }).click();
      await page.getByRole("region", { name: /^Remove .* from the team\?$/ }).waitFor();
    }),
  },
  {
    name: "paying-delete-account-confirmation",
    as: "monthly@demo.test",
    go: at("/cart/home", async (page) => {
      await page.getByRole("button", { name: "Delete my account" }).click();
      await page.getByRole("region", { name: "Delete my account?" }).waitFor();
    }),
  },
  {
    name: "account-deleted",
    as: "new",
    go: at("/cart/home", async (page) => {
      await page.getByRole("button", { name: "Delete my account" }).click();
      await page.getByRole("button", { name: "Delete my account now" }).click();
      await page.getByRole("heading", { name: "Your account is deleted" }).waitFor();
    }),
  },
  {
    name: "paying-update-card",
    as: "monthly@demo.test",
    go: at("/cart/home", async (page) => {
      await page.getByRole("button", { name: "Update card" }).click();
      await page.getByRole("form", { name: "Update card" }).waitFor();
    }),
  },
  { name: "team-owner-add-seats", as: "owner@demo.test", go: at("/cart#additional-seats") },
  { name: "member-account", as: "member@demo.test", go: at("/cart/home") },
  { name: "app-store-account", as: "mobile@demo.test", go: at("/cart/home") },
  { name: "expired-account", as: "expired@demo.test", go: at("/cart/home") },
  {
    name: "checkout-empty",
    as: "new",
    go: at(checkout, (p) => p.getByRole("button", { name: /^Pay \$/ }).waitFor()),
  },
  {
    name: "checkout-filled",
    as: "new",
    go: async (page) => {
      await page.goto(checkout);
      await page.getByRole("button", { name: /^Pay \$/ }).waitFor();
      await fillCard(page, "4242 4242 4242 4242");
    },
  },
  {
    name: "checkout-declined",
    as: "new",
    go: async (page) => {
      await pay(page, "4000 0000 0000 0002");
      await page.getByRole("alert").first().waitFor();
    },
  },
  {
    name: "checkout-schools-quote",
    as: "new-school",
    go: at("/cart?p=buy&product=wv_k12_12m&seats=50001#checkout"),
  },
  {
    name: "completed-plan",
    as: "new",
    go: async (page) => {
      await pay(page, "4242 4242 4242 4242");
      await page.getByTestId("receipt").waitFor();
    },
  },
  {
    name: "completed-seats",
    as: "new",
    go: async (page, context) => {
      await browserApi(context).subscribe("wv_bizoct17_1m");
      await page.goto("/cart?p=buy&product=wv_bizoct17_1m&seats=5#checkout");
      const pay = page.getByRole("button", { name: /^Pay \$/ });
      await pay.waitFor();
      if (await page.getByLabel("Card number").isVisible()) {
        await fillCard(page, "4242 4242 4242 4242");
      }
      await pay.click();
      await page.getByTestId("receipt").waitFor();
    },
  },
  {
    name: "completed-single-export",
    as: "new",
    go: async (page) => {
      await page.goto("/cart?product=single_export_4k#checkout_single_export");
      const pay = page.getByRole("button", { name: /^Pay \$/ });
      await pay.waitFor();
      await fillCard(page, "4242 4242 4242 4242");
      await pay.click();
      await page.getByTestId("receipt").waitFor();
    },
  },
  {
    name: "completed-trial",
    as: "new-verified",
    go: async (page, context) => {
      await browserApi(context).startTrial("business");
      await page.goto("/cart#biztrial-account-completed");
      await page.getByTestId("trial-status").waitFor();
    },
  },
  { name: "local-stand-in-support", as: null, go: at("/support") },
];

async function main(): Promise<void> {
  buildIfStale();
  const executablePath = findTestBrowser();
  if (!executablePath) {
    throw new Error("screens: no Chromium found; run `node scripts/ensure-chromium.ts`");
  }
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "checkout-screens-"));
  process.env.DATA_DIR = dataDir;
  process.env.DATABASE_URL = "";
  const { startServer } = await import("../src/server/main.ts");
  const { createStaticHandler } = await import("../src/server/static-files.ts");
  const server = await startServer({
    port,
    host: "127.0.0.1",
    staticHandler: createStaticHandler(dist),
    handleSignals: false,
    log: { info() {}, warn: console.warn, error: console.error },
  });
  const baseURL = `http://127.0.0.1:${port}`;
  const browser = await chromium.launch({ executablePath, args: chromiumArgs });
  mkdirSync(out, { recursive: true });
  let failed = 0;
  let n = 0;
  try {
    for (const shot of SHOTS) {
      for (const width of WIDTHS) {
        const context = await browser.newContext({ baseURL, viewport: { width, height: 900 } });
        const page = await context.newPage();
        try {
          const api = browserApi(context);
          if (shot.as?.startsWith("new")) {
            n += 1;
            const domain = shot.as === "new-school" ? "demo-school.edu" : "example.com";
            const email = await api.signUp({
              email: `screens-${Date.now().toString(36)}-${n}@${domain}`,
            });
            if (shot.as !== "new") await api.activate(email);
          } else if (shot.as) {
            await api.signIn(shot.as, PASSWORD);
          }
          await shot.go(page, context);
          const file = join(out, `${shot.name}-${width}.png`);
          await page.screenshot({ path: file, fullPage: true });
          console.log(`screens: ${file}`);
        } catch (error) {
          failed += 1;
          console.error(`screens: ${shot.name} at ${width} px failed: ${(error as Error).message}`);
        } finally {
          await context.close();
        }
      }
    }
  } finally {
    await browser.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`screens: ${SHOTS.length * WIDTHS.length - failed} shots in ${out}`);
  if (failed > 0) process.exitCode = 1;
}

await main();
