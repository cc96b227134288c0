// The sandbox's invisible human check of the reset-password page (spec 2.7): a small proof of
// work. The browser finds a nonce whose SHA-256 over the challenge has HUMAN_CHECK_BITS leading
// zero bits (a few thousand hashes, well under a second); the server checks it with one hash.
// It needs no third party and no server state, and it binds the answer to the reset link (vc and
// e-mail), so an answer cannot be reused for another link. It slows scripted guessing down; it is
// not a bot detector: a deployment that needs one plugs in a real provider instead (the browser's
// HumanCheck and the server's HumanVerifier, src/server/README.md "Human check").
//
// Pure: the hash function comes in as a parameter (WebCrypto in the browser, node:crypto on the
// server), so both sides run the same rule.

/** Leading zero bits the sandbox answer needs: 2^12 = 4096 hashes on average. */
const HUMAN_CHECK_BITS = 12;
/** The sandbox answer's prefix; a real provider's token never starts with it. */
export const SANDBOX_PREFIX = "sandbox-pow1:";
const MAX_NONCE = 1 << 24;

export type Sha256 = (text: string) => Promise<Uint8Array> | Uint8Array;

/** What the answer is bound to: one reset link. */
export function resetChallenge(vc: string, email: string): string {
  return `reset\n${vc}\n${email.trim().toLowerCase()}`;
}

/**
 * What the request for a reset link binds its answer to: the address asked for (issue 22). An
 * answer asks for that address only; the per-address and per-client limits bound its reuse.
 */
export function forgotChallenge(email: string): string {
  return `forgot\n${email.trim().toLowerCase()}`;
}

export function leadingZeroBits(bytes: Uint8Array): number {
  let bits = 0;
  for (const byte of bytes) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

/** Finds the answer for a challenge; null only if none exists below 2^24 (practically never). */
export async function solveChallenge(
  challenge: string,
  sha256: Sha256,
  bits: number = HUMAN_CHECK_BITS,
): Promise<string | null> {
  for (let nonce = 0; nonce < MAX_NONCE; nonce++) {
    if (leadingZeroBits(await sha256(`${challenge}\n${nonce}`)) >= bits) {
      return `${SANDBOX_PREFIX}${nonce}`;
    }
  }
  return null;
}

/** True when the answer solves the challenge. */
export async function verifySolution(
  challenge: string,
  answer: string | undefined,
  sha256: Sha256,
  bits: number = HUMAN_CHECK_BITS,
): Promise<boolean> {
  if (!answer?.startsWith(SANDBOX_PREFIX)) return false;
  const nonce = answer.slice(SANDBOX_PREFIX.length);
  if (!/^(0|[1-9][0-9]{0,7})$/.test(nonce) || Number(nonce) >= MAX_NONCE) return false;
  return leadingZeroBits(await sha256(`${challenge}\n${nonce}`)) >= bits;
}
