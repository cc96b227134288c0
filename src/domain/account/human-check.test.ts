import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  leadingZeroBits,
  resetChallenge,
  SANDBOX_PREFIX,
  solveChallenge,
  verifySolution,
} from "./human-check.ts";

const sha256 = (text: string) => new Uint8Array(createHash("sha256").update(text).digest());

describe("sandbox human check", () => {
  it("counts leading zero bits", () => {
    expect(leadingZeroBits(new Uint8Array([0, 0x0f]))).toBe(12);
    expect(leadingZeroBits(new Uint8Array([0x80]))).toBe(0);
    expect(leadingZeroBits(new Uint8Array([0, 0]))).toBe(16);
  });

  it("accepts the answer for its own link only", async () => {
    const challenge = resetChallenge("token-1", "Pat@Example.com");
    const answer = await solveChallenge(challenge, sha256);
    expect(answer).toMatch(new RegExp(`^${SANDBOX_PREFIX}\\d+$`));
    expect(await verifySolution(challenge, answer ?? "", sha256)).toBe(true);
    expect(
      await verifySolution(resetChallenge("token-1", "pat@example.com"), answer ?? "", sha256),
    ).toBe(true);
    expect(
      await verifySolution(resetChallenge("token-2", "pat@example.com"), answer ?? "", sha256),
    ).toBe(false);
  });

  it("refuses missing, foreign and malformed answers", async () => {
    const challenge = resetChallenge("t", "a@b.c");
    for (const answer of [
      undefined,
      "",
      "recaptcha-token",
      `${SANDBOX_PREFIX}`,
      `${SANDBOX_PREFIX}-1`,
      `${SANDBOX_PREFIX}01`,
      `${SANDBOX_PREFIX}99999999`,
    ]) {
      expect(await verifySolution(challenge, answer, sha256)).toBe(false);
    }
  });
});
