import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { api } from "../contract/index.ts";
import { testClock } from "./clock.ts";
import { DATABASE_FILE, SECRET_FILE } from "./data-folder.ts";
import { memoryLogger } from "./log.ts";
import { StartupError, startServer } from "./main.ts";
import { fixtureCatalog, TEST_NOW } from "./testing/fixture-catalog.ts";
import { TestClient } from "./testing/harness.ts";
import {
  CHILD,
  expectPlainExit,
  MAIN,
  newFolder,
  removesFoldersAfter,
  run,
  SECRET,
  start,
  usedFolder,
} from "./testing/startup-flow.ts";

removesFoldersAfter();

describe("run as a program", () => {
  it("prints the refusal and exits 1, without a stack trace", { timeout: 90_000 }, async () => {
    const dir = newFolder();
    writeFileSync(join(dir, SECRET_FILE), SECRET);
    writeFileSync(join(dir, DATABASE_FILE), "");
    const result = await run(MAIN, dir);
    expectPlainExit(result, dir, DATABASE_FILE);
    expect(result.stderr).toMatch(/is empty \(0 bytes\)/);
    expect(statSync(join(dir, DATABASE_FILE)).size).toBe(0);
  });

  it("refuses a read-only database and a read-only data folder", { timeout: 90_000 }, async () => {
    const [fileDir, folderDir] = await Promise.all([usedFolder(), usedFolder()]);
    const path = join(fileDir, DATABASE_FILE);
    const before = readFileSync(path);
    chmodSync(path, 0o444);
    chmodSync(folderDir, 0o555);
    const [file, folder] = await Promise.all([
      run(CHILD, fileDir, { asOwner: true }),
      run(CHILD, folderDir, { asOwner: true }),
    ]);
    expectPlainExit(file, fileDir, DATABASE_FILE);
    expect(file.stderr).toMatch(/checkout\.sqlite in DATA_DIR .* is read-only/);
    expect(readFileSync(path)).toEqual(before);
    expectPlainExit(folder, folderDir, DATABASE_FILE);
    expect(folder.stderr).toMatch(/DATA_DIR \(.*\) is read-only/);
  });

  it("opens a writable folder in the same child (the read-only cases are not false alarms)", {
    timeout: 90_000,
  }, async () => {
    const dir = await usedFolder();
    expect(await run(CHILD, dir, { asOwner: true })).toEqual({ code: 0, stderr: "" });
  });
});

describe("secrets and files", () => {
  it("makes the data folder the owner's only, and every file in it (database, log, secret)", async () => {
    const dir = join(newFolder(), "data");
    const running = await start(dir);
    try {
      const signUp = await new TestClient(running.url).call(api.signUp, {
        body: { email: "mode@example.com", password: "secret-1", firstName: "M", lastName: "O" },
      });
      expect(signUp.ok).toBe(true);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      const names = readdirSync(dir).sort();
      expect(names).toEqual(
        [DATABASE_FILE, `${DATABASE_FILE}-shm`, `${DATABASE_FILE}-wal`, SECRET_FILE].sort(),
      );
      for (const name of names)
        expect([name, statSync(join(dir, name)).mode & 0o777]).toEqual([name, 0o600]);
    } finally {
      await running.close();
    }
  });

  it("takes group and other permissions off the files of an older install", async () => {
    const dir = await usedFolder();
    chmodSync(join(dir, DATABASE_FILE), 0o644);
    chmodSync(join(dir, SECRET_FILE), 0o644);
    await (await start(dir)).close();
    expect(statSync(join(dir, DATABASE_FILE)).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, SECRET_FILE)).mode & 0o777).toBe(0o600);
  });

  it("prints no credential of DATABASE_URL, in any form, when PostgreSQL cannot be reached", async () => {
    const urls = [
      "postgres://app:pw-userinfo-1@127.0.0.1:1/db",
      "postgres://app@127.0.0.1:1/db?password=pw-query-2",
      "postgresql://127.0.0.1:1/db?user=app&password=pw-query-3&sslpassword=pw-ssl-4",
      "postgres://app:pw%40enc-5@127.0.0.1:1/db?sslmode=disable",
    ];
    for (const url of urls) {
      const log = memoryLogger();
      const error = await startServer({
        port: 0,
        host: "127.0.0.1",
        env: { DATABASE_URL: url, SERVER_SECRET: SECRET, PAYMENTS: "sandbox", SEED: "false" },
        log,
        clock: testClock(TEST_NOW),
        catalog: fixtureCatalog(),
      }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(StartupError);
      const printed = `${(error as Error).message}\n${log.lines.join("\n")}`;
      expect(printed).toContain("127.0.0.1:1");
      expect(printed).not.toMatch(/pw-|pw%40|pw@enc/);
    }
  });
});
