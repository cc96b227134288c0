// What the handlers/engagement-*.test.ts files share: a server, new accounts, a verified address.
import { afterAll, beforeAll } from "vitest";
import { api } from "../../contract/index.ts";
import { startTestServer, type TestClient, type TestServer } from "./harness.ts";

export let server: TestServer;

export async function newAccount(email: string) {
  const client = server.client();
  const answer = await client.call(api.signUp, {
    body: { email, password: "secret-1", firstName: "Sam", lastName: "Sample" },
  });
  if (!answer.ok) throw new Error(answer.body.message);
  return client;
}

/** Verifies the account's address with the code from the sandbox mailbox. */
export async function verifyAddress(client: TestClient, email: string): Promise<void> {
  const mails = (await (
    await fetch(`${server.running.url}/dev/mailbox?format=json&to=${encodeURIComponent(email)}`)
  ).json()) as { subject: string }[];
  const code = /(\d{6})/.exec(mails[0]?.subject ?? "")?.[1] ?? "";
  const answer = await client.call(api.verifyEmailCode, { body: { code } });
  if (!answer.ok) throw new Error(answer.body.message);
}

/** Starts the server the engagement handler tests share before a file's tests, and closes it after them. */
export function startsEngagementServer(): void {
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });
}
