// The sandbox human check's answer, computed as the browser would (src/browser/human-check.ts),
// for tests that ask for a reset link through the API (issue 22).
import { createHash } from "node:crypto";
import { forgotChallenge, solveChallenge } from "../../domain/account/human-check.ts";

const sha256 = (text: string) => new Uint8Array(createHash("sha256").update(text).digest());

export async function forgotAnswer(email: string): Promise<string> {
  const answer = await solveChallenge(forgotChallenge(email), sha256);
  if (answer === null) throw new Error("no answer");
  return answer;
}
