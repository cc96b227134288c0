// The command line of `npm run demo-data` and its data folder: defaults, clear refusals, and a
// database that is only replaced with --fresh.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_SEED, DEFAULT_VISITORS, parseDemoArgs, prepareDataDir } from "./options.ts";

const folder = mkdtempSync(join(tmpdir(), "demo-options-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("demo-data's options", () => {
  it("default to a fixed seed, the default visitors and ./demo-data", () => {
    expect(parseDemoArgs([], "/home/me/project")).toEqual({
      ok: true,
      options: {
        seed: DEFAULT_SEED,
        visitors: DEFAULT_VISITORS,
        dataDir: "/home/me/project/demo-data",
        fresh: false,
      },
    });
    expect(
      parseDemoArgs(["--seed", "9", "--visitors", "50", "--data-dir", "x", "--fresh"], "/p"),
    ).toEqual({
      ok: true,
      options: { seed: 9, visitors: 50, dataDir: "/p/x", fresh: true },
    });
  });

  it("refuse what is not a whole number, an unknown option and an empty folder name", () => {
    expect(parseDemoArgs(["--visitors", "0"], "/p")).toEqual({
      ok: false,
      message: '--visitors must be a whole number from 1 to 1000000, not "0"',
    });
    expect(parseDemoArgs(["--seed", "1.5"], "/p")).toEqual({
      ok: false,
      message: '--seed must be a whole number from 0 to 4294967295, not "1.5"',
    });
    expect(parseDemoArgs(["--speed", "2"], "/p").ok).toBe(false);
    expect(parseDemoArgs(["--data-dir", " "], "/p")).toEqual({
      ok: false,
      message: "--data-dir must name a folder",
    });
  });

  it("refuse a data folder that holds a database, unless --fresh, which deletes only the database and its secret", () => {
    const dir = join(folder, "data");
    expect(prepareDataDir(dir, false)).toBeNull();
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    writeFileSync(join(dir, "checkout.sqlite"), "db");
    writeFileSync(join(dir, "server-secret"), "secret");
    writeFileSync(join(dir, "notes.txt"), "mine");
    expect(prepareDataDir(dir, false)).toBe(
      `${dir} already holds a database (checkout.sqlite): add --fresh to replace it with a new season, or choose another folder with --data-dir`,
    );
    expect(existsSync(join(dir, "checkout.sqlite"))).toBe(true);
    expect(prepareDataDir(dir, true)).toBeNull();
    expect(existsSync(join(dir, "checkout.sqlite"))).toBe(false);
    expect(existsSync(join(dir, "server-secret"))).toBe(false);
    expect(existsSync(join(dir, "notes.txt"))).toBe(true);
  });
});
