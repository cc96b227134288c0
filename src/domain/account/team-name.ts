// The one rule for a team workspace's name (issue 18, item 15), applied wherever a name is stored
// (a trial's instanceName, the desiredInstanceName attribute, a purchase that creates a team) and
// wherever one is read back, so names stored before the rule are answered safe too.
//
// A name is text, never markup: characters that open or quote markup or script (< > " ` and
// backslash) are dropped, as are control and format characters (bidi marks, zero-width ones);
// whitespace runs become one space; the result is NFC, trimmed and at most TEAM_NAME_MAX
// characters. A name with nothing left is replaced by the fallback (the same rule applied to it).

export const TEAM_NAME_MAX = 63;

const UNSAFE = /[<>"`\\]|[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

function clean(raw: string): string {
  const text = raw.normalize("NFC").replace(UNSAFE, " ").replace(/\s+/gu, " ").trim();
  return Array.from(text).slice(0, TEAM_NAME_MAX).join("").trim();
}

/** The stored and shown form of a team name; `fallback` when nothing of `raw` remains. */
export function teamName(raw: string | null | undefined, fallback = "Team"): string {
  return clean(raw ?? "") || clean(fallback) || "Team";
}

/**
 * The `n`th candidate for a name another team already has (n ≥ 2): the owner's own words with a
 * readable number, "Acme Video (2)", shortened so it stays within TEAM_NAME_MAX.
 */
export function numberedTeamName(name: string, n: number): string {
  const suffix = ` (${n})`;
  const room = TEAM_NAME_MAX - suffix.length;
  return `${Array.from(teamName(name)).slice(0, room).join("").trim()}${suffix}`;
}
