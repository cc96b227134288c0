// What a customer does through the API before the load: sign up, sign in, save a card.
import { randomBytes } from "node:crypto";
import { endpoints } from "../../src/contract/endpoints.ts";

export async function post(
  url: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { response, json: (await response.json()) as Record<string, unknown> };
}

/**
 * `count` new accounts with a saved sandbox card (Stripe's 4242 test card), each signed in: their
 * session cookies. Through the API, as a customer makes one (the bench's servers have rate limits
 * scaled out of the way).
 */
export async function cardAccounts(url: string, count: number): Promise<string[]> {
  const run = randomBytes(4).toString("hex");
  const cookies: string[] = [];
  // One after the other: the server sheds password work that would queue (auth/passwords.ts).
  for (let i = 0; i < count; i++) {
    const email = `bench-${run}-${i}@example.com`;
    const signUp = await post(url, endpoints.signUp.path, {
      email,
      password: "bench-password",
      firstName: "Bench",
      lastName: String(i),
    });
    if (!signUp.response.ok) throw new Error(`bench: sign-up answered ${signUp.response.status}`);
    const cookie = await signIn(url, email, "bench-password");
    const token = await post(url, endpoints.sandboxToken.path, {
      number: "4242424242424242",
      expMonth: 12,
      expYear: 2040,
      cvc: "123",
      postalCode: "94103",
    });
    const saved = await post(
      url,
      endpoints.paymentToken.path,
      { token: token.json.id },
      { cookie, "idempotency-key": `bench-card-${run}-${i}` },
    );
    if (!saved.response.ok)
      throw new Error(`bench: saving a card answered ${saved.response.status}`);
    cookies.push(cookie);
  }
  return cookies;
}

export async function signIn(
  url: string,
  email: string,
  password = "demo-password",
): Promise<string> {
  const { response } = await post(url, endpoints.signIn.path, { email, password });
  const cookie = response.headers.getSetCookie()[0]?.split(";")[0];
  if (!response.ok || !cookie)
    throw new Error(`bench: sign-in of ${email} failed (${response.status})`);
  return cookie;
}
