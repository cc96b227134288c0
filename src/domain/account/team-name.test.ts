import { describe, expect, it } from "vitest";
import { numberedTeamName, TEAM_NAME_MAX, teamName } from "./team-name.ts";

describe("teamName", () => {
  it.each([
    ["Acme", "Acme"],
    ["  Acme   Video  ", "Acme Video"],
    ["Olivia's team", "Olivia's team"],
    ["Équipe Zürich & Co.", "Équipe Zürich & Co."],
    ["<img src=x onerror=alert(1)>", "img src=x onerror=alert(1)"],
    ["Acme <script>alert(1)</script>", "Acme script alert(1) /script"],
    ['say "hi" `now` \\x', "say hi now x"],
    ["a\u202Eb\u200Bc\td\ne", "a b c d e"],
    ["Cafe\u0301", "Café"],
    ["<>", "Team"],
    ["", "Team"],
  ])("%j → %j", (raw, name) => {
    expect(teamName(raw)).toBe(name);
  });

  it("uses the fallback, itself made safe, when nothing remains", () => {
    expect(teamName(null, "Pat's team")).toBe("Pat's team");
    expect(teamName("<>", "<b>Pat</b>'s team")).toBe("b Pat /b 's team");
    expect(teamName(undefined, "")).toBe("Team");
  });

  it(`keeps at most ${TEAM_NAME_MAX} characters`, () => {
    expect(Array.from(teamName("é".repeat(100)))).toHaveLength(TEAM_NAME_MAX);
  });
});

describe("numberedTeamName", () => {
  it("keeps the owner's words and adds a readable number", () => {
    expect(numberedTeamName("Wal's team", 2)).toBe("Wal's team (2)");
    expect(numberedTeamName("Acme <b>", 3)).toBe("Acme b (3)");
  });

  it(`stays within ${TEAM_NAME_MAX} characters`, () => {
    const name = numberedTeamName("a".repeat(100), 12);
    expect(Array.from(name)).toHaveLength(TEAM_NAME_MAX);
    expect(name.endsWith(" (12)")).toBe(true);
  });
});
