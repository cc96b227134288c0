// A setup call the server turns away for now (429 rate_limited: a rate limit, or the password
// work shed under load, auth/passwords.ts) is made again after the wait the answer names, as a
// real client would. Only for calls that must succeed to set a test up: a test that asserts the
// 429 itself reads the first answer.

/** The seconds a rate_limited answer asks to wait (its message says "Wait N seconds"). */
function waitSeconds(errorCode: string | undefined, message: string): number | null {
  if (errorCode !== "rate_limited") return null;
  return Number(/Wait (\d+) second/.exec(message)?.[1] ?? 1);
}

/** `attempt` until it is not turned away, at most `tries` times; the last answer either way. */
export async function untilAdmitted<T>(
  attempt: () => Promise<T>,
  refusal: (answer: T) => { errorCode: string | undefined; message: string } | null,
  tries = 10,
): Promise<T> {
  for (let i = 1; ; i++) {
    const answer = await attempt();
    const refused = refusal(answer);
    const seconds = refused ? waitSeconds(refused.errorCode, refused.message) : null;
    if (seconds === null || i >= tries) return answer;
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}
