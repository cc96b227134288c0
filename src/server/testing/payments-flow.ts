// What the handlers/payments-*.test.ts files share: a server, new accounts, a card's token, and
// what the sandbox charged.
import { afterAll, beforeAll } from "vitest";
import { api } from "../../contract/index.ts";
import { Users } from "../db/users.ts";
import { startTestServer, type TestClient, type TestServer } from "./harness.ts";
import { successfulChargeAmounts } from "./tables.ts";

export let server: TestServer;

export async function cardToken(client: TestClient, number: string): Promise<string> {
  const answer = await client.call(api.sandboxToken, {
    body: { number, expMonth: 12, expYear: 2030, cvc: "123", postalCode: "94107" },
  });
  if (!answer.ok) throw new Error(answer.body.message);
  return answer.body.id;
}

export async function newAccount(email: string, verified = false): Promise<TestClient> {
  const client = server.client();
  const answer = await client.call(api.signUp, {
    body: { email, password: "secret-1", firstName: "Pat", lastName: "Buyer" },
  });
  if (!answer.ok) throw new Error(answer.body.message);
  // A trial starts only for a verified address (issue 18 item 6).
  if (verified)
    await server.running.deps.db.transaction((tx) =>
      Users.update(tx, answer.body.userId, { emailVerified: true }),
    );
  return client;
}

export async function chargedAmounts(): Promise<number[]> {
  return successfulChargeAmounts(server.running.deps.db);
}

/** Starts the server the payment handler tests share before a file's tests, and closes it after them. */
export function startsPaymentsServer(): void {
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });
}
