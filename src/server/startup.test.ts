import {
  readdirSync,
  readFileSync,
  statSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { DATABASE_FILE, SECRET_FILE } from "./data-folder.ts";
import { Users } from "./db/users.ts";
import {
  expectRefusal,
  newFolder,
  removesFoldersAfter,
  SECRET,
  start,
  usedFolder,
} from "./testing/startup-flow.ts";

removesFoldersAfter();

describe("a new install", () => {
  it("makes the database and a 32-byte secret readable by the owner only, then keeps both", async () => {
    const dir = await usedFolder();
    expect(readdirSync(dir).sort()).toEqual([DATABASE_FILE, SECRET_FILE]);
    const secret = readFileSync(join(dir, SECRET_FILE), "utf8");
    expect(Buffer.from(secret, "base64url")).toHaveLength(32);
    expect(statSync(join(dir, SECRET_FILE)).mode & 0o777).toBe(0o600);

    // A secret put back by hand often ends with a newline: it is the same key.
    writeFileSync(join(dir, SECRET_FILE), `${secret}\n`);
    const again = await start(dir);
    const users = await Users.count(again.deps.db);
    expect(again.deps.secret.toString("base64url")).toBe(secret);
    await again.close();
    expect(users).toBe(1);
  });

  it("completes a first start that stopped before the database was in place", async () => {
    const dir = newFolder();
    writeFileSync(join(dir, `${DATABASE_FILE}.new`), "half-made by an interrupted start");
    await (await start(dir)).close();
    expect(readdirSync(dir).sort()).toEqual([DATABASE_FILE, SECRET_FILE]);
  });

  it("completes a first start that stopped before writing the secret (no account yet)", async () => {
    const dir = newFolder();
    await (await start(dir)).close();
    unlinkSync(join(dir, SECRET_FILE));
    await (await start(dir)).close();
    expect(readdirSync(dir).sort()).toEqual([DATABASE_FILE, SECRET_FILE]);
  });
});

describe("start-up refuses", () => {
  it("a secret without its database", async () => {
    const dir = newFolder();
    writeFileSync(join(dir, SECRET_FILE), SECRET);
    await expectRefusal(dir, DATABASE_FILE, /holds a server secret but not its database/);
  });

  it("a write-ahead log without its database, secret or not", async () => {
    const dir = newFolder();
    writeFileSync(join(dir, `${DATABASE_FILE}-wal`), "committed transactions");
    await expectRefusal(dir, DATABASE_FILE, /holds checkout\.sqlite-wal, a log of committed/);
    writeFileSync(join(dir, SECRET_FILE), SECRET);
    await expectRefusal(dir, DATABASE_FILE, /holds checkout\.sqlite-wal, a log of committed/);
  });

  it("an empty database beside a secret, and an empty one alone", async () => {
    const dir = newFolder();
    writeFileSync(join(dir, SECRET_FILE), SECRET);
    writeFileSync(join(dir, DATABASE_FILE), "");
    const message = await expectRefusal(dir, DATABASE_FILE, /is empty \(0 bytes\)/);
    expect(message).toMatch(/Restore checkout\.sqlite from a backup/);
    unlinkSync(join(dir, SECRET_FILE));
    await expectRefusal(dir, DATABASE_FILE, /is empty \(0 bytes\).*no server secret either/);
  });

  it("a truncated copy of a real database, at any length", async () => {
    const dir = await usedFolder();
    const path = join(dir, DATABASE_FILE);
    const whole = readFileSync(path);
    for (const length of [Math.floor(whole.length / 2), whole.length - 4096, 4096, 100, 10]) {
      writeFileSync(path, whole);
      truncateSync(path, length);
      const message = await expectRefusal(dir, DATABASE_FILE, /damaged|not a SQLite database/);
      expect(message).toMatch(/Restore checkout\.sqlite from a backup/);
    }
  });

  it("a database overwritten in the middle, or not a database at all", async () => {
    const dir = await usedFolder();
    const path = join(dir, DATABASE_FILE);
    const bytes = readFileSync(path);
    bytes.fill(0x5a, 4096, 4096 + 2048);
    writeFileSync(path, bytes);
    await expectRefusal(dir, DATABASE_FILE, /is damaged \(SQLite: /);
    writeFileSync(path, "this is a backup script, not a database\n".repeat(200));
    await expectRefusal(dir, DATABASE_FILE, /is not a SQLite database/);
  });

  it("a SQLite database without this server's tables", async () => {
    const dir = newFolder();
    writeFileSync(join(dir, SECRET_FILE), SECRET);
    const other = new DatabaseSync(join(dir, DATABASE_FILE));
    other.exec("CREATE TABLE photos (id INTEGER PRIMARY KEY)");
    other.close();
    await expectRefusal(dir, DATABASE_FILE, /holds tables of another program \(photos\)/);
  });

  it("a database with accounts but no secret, whose stored codes would no longer match", async () => {
    const dir = await usedFolder();
    unlinkSync(join(dir, SECRET_FILE));
    await expectRefusal(
      dir,
      DATABASE_FILE,
      /holds 1 account\(s\) but DATA_DIR has no server secret/,
    );
  });

  it("a secret shorter than 32 bytes, or not base64url", async () => {
    const dir = await usedFolder();
    writeFileSync(join(dir, SECRET_FILE), Buffer.alloc(31, 1).toString("base64url"));
    await expectRefusal(dir, SECRET_FILE, /decodes to 31 bytes; at least 32 are needed/);
    writeFileSync(join(dir, SECRET_FILE), `${SECRET.slice(0, 20)}+/!${SECRET.slice(20)}`);
    await expectRefusal(dir, SECRET_FILE, /is not base64url text/);
    writeFileSync(join(dir, SECRET_FILE), "");
    await expectRefusal(dir, SECRET_FILE, /decodes to 0 bytes/);
  });
});
